#!/usr/bin/env bash
# Build machine: 128B against 256B L2 promotion (bench/results/ncu-promotion-h100-2026-11-28) in
# one call for the assets the performance bars run at 8000x8064x4000 (the grouped, clustered,
# row-major and ping-pong persistent GEMMs, the FP8 GEMMs, the 128x256 GEMM): NAME--l2-now as
# stagecraft-compile writes it (128B for the operands' 8000- and 4000-byte rows), NAME--l2-256B
# the same bundle with every descriptor set back to 256B.
#   bash bench/timeline/ncu/promotion-odd-prepare.sh                 # .dev/promotion-odd
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/promotion-odd OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev promotion-odd
for a in persistent_gemm_grouped persistent_gemm_cluster persistent_gemm persistent_gemm_pingpong \
         fp8_gemm mxfp8_gemm gemm; do
  bundle "$ROOT/assets/$a.mlir" "$DEV/bundles/$a--8000x8064x4000--l2-now" \
    --size M=8000 --size N=8064 --size K=4000
  with_promotion "$DEV/bundles/$a--8000x8064x4000--l2-now" "$DEV/bundles/$a--8000x8064x4000--l2-256B" 256B
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
