#!/usr/bin/env bash
# Build machine: the non-persistent 128x256 GEMM at 8192^3 in its three rasters (raster-ir.sh)
# with every one of its 2048 CTAs recording (512 records per warp group: the producer's 256 and
# each consumer's 128 fit), into .dev/tpc-raster-traces with the runner. What the traces show:
# where each CTA ran, and which CTAs load the same box at the same time in a launch of 15.5
# waves (raster_drift.py, run on the GPU host by traces-on-gpu.sh).
#   bench/timeline/tpc-raster/traces-prepare.sh
#   GPU host: bash bench/timeline/tpc-raster/traces-on-gpu.sh "$OUT"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/tpc-raster-traces
rm -rf "$DEV" && mkdir -p "$DEV/bundles" "$DEV/ir"
for raster in rows columns apart; do
  name=all-ctas-gemm--$raster
  "$(dirname "$0")/raster-ir.sh" gemm "$raster" "$DEV/ir/$name.mlir"
  "$ROOT/build/bin/stagecraft-compile" "$DEV/ir/$name.mlir" --with-timeline --timeline-ctas=2048 \
    --timeline-capacity=512 -o "$DEV/bundles/$name" -q
  rm -rf "$DEV/bundles/$name/ir" "$DEV/bundles/$name/kernel.ll" "$DEV/bundles/$name/timeline.ll"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
