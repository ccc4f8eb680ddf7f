#!/usr/bin/env bash
# Build machine: the non-persistent GEMMs in three rasters (raster-ir.sh: what the two CTAs of a
# TPC share: B, A, nothing) at 8192^3, compiled into .dev/tpc-raster/bundles/raster-ASSET--RASTER
# with the runner, and the timeline model's predictions beside them (predicted.txt), made before
# any run of these kernels: a check of the TPC's link (docs/timeline.md) on launches of many
# waves, where CTAs after the first take whichever SM frees.
#   bench/timeline/tpc-raster/prepare.sh
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/tpc-raster "$OUT"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/tpc-raster
rm -rf "$DEV" && mkdir -p "$DEV/bundles" "$DEV/ir"
: > "$DEV/predicted.txt"
for asset in gemm gemm_128x128; do
  for raster in rows columns apart; do
    name=raster-$asset--$raster
    ir=$DEV/ir/$name.mlir
    "$(dirname "$0")/raster-ir.sh" "$asset" "$raster" "$ir"
    "$(dirname "$0")/../compile-bundle.sh" "$ir" "$DEV/bundles/$name"
    { echo "== $name"; "$ROOT/build/bin/stagecraft-timeline" "$ir"; } >> "$DEV/predicted.txt"
  done
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
cat "$DEV/predicted.txt"
du -sh "$DEV"
