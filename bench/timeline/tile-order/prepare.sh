#!/usr/bin/env bash
# Build machine: the persistent assets compiled in each tile order (stagecraft-compile
# --tile-order) at their default sizes into .dev/tile-order/bundles/tileorder-ASSET--ORDER
# (only the files the runner reads) and the runner into .dev/tile-order. The order decides
# which A and B panels the CTAs resident at once read, so how much of a wave's loads the L2
# serves (the timeline model's load footprints, docs/timeline.md); bench/timeline/calibrate.py
# reads the results as one ranked group per asset and size.
#   bench/timeline/tile-order/prepare.sh
#   GPU host: bash bench/timeline/run-bundles-on-gpu.sh .dev/tile-order "$OUT"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/tile-order
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
ASSETS=${ASSETS:-"persistent_gemm persistent_gemm_pingpong persistent_attention_fwd_d128"}
ORDERS=${ORDERS:-"row-major column-major grouped:4 grouped:8"}
for a in $ASSETS; do
  for o in $ORDERS; do
    name=tileorder-$a--${o/:/}
    "$(dirname "$0")/../compile-bundle.sh" "$ROOT/assets/$a.mlir" "$DEV/bundles/$name" --tile-order "$o"
  done
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
