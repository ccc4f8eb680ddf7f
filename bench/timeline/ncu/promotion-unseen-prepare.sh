#!/usr/bin/env bash
# Build machine: the L2 promotion rule (bench/results/ncu-promotion-h100-2026-11-28) on a loop
# none of the assets contains: bench/unseen/swiglu_dual_gemm.mlir (two GEMMs sharing A, a SwiGLU
# epilogue) at K = 4000 (8000-byte rows of A and both weights) and at its default K. NAME--l2-now
# as stagecraft-compile writes it, NAME--l2-256B every descriptor at 256B.
#   bash bench/timeline/ncu/promotion-unseen-prepare.sh                 # .dev/promotion-unseen
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/promotion-unseen OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev promotion-unseen
for k in 4000 default; do
  name=swiglu_dual_gemm--K$k
  args=()
  [ "$k" = default ] || args=(--size "K=$k")
  bundle "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" "$DEV/bundles/$name--l2-now" "${args[@]}"
  with_promotion "$DEV/bundles/$name--l2-now" "$DEV/bundles/$name--l2-256B" 256B
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
