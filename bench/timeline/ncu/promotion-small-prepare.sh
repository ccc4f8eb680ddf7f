#!/usr/bin/env bash
# Build machine: the L2 promotion (bench/timeline/ncu/promotion-prepare.sh) on launches whose
# operands fit the L2: generated GEMM variants at their default 1000x1048x528 (1056-byte rows
# of bf16 and f16, 528-byte rows of fp8: not multiples of 128, so compiled with 128B since
# 2026-11-28) and with every descriptor set back to 256B (NAME--l2-256B), to see whether the
# runs measured before the change still describe these kernels.
#   bash bench/timeline/ncu/promotion-small-prepare.sh                 # .dev/promotion-small
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/promotion-small OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev promotion-small
generate_variants
for v in gemm_bf16_aK_bK_none_bf16_128x256_ws_ahead2 gemm_bf16_aK_bK_none_bf16_128x128_ws_ahead2 \
         gemm_bf16_aK_bK_none_bf16_64x128_ws_ahead2 gemm_bf16_aK_bK_none_bf16_64x256_one_group \
         gemm_e4m3_aK_bK_none_bf16_64x256_ws_ahead2 gemm_e5m2_aK_bK_none_bf16_64x256_ws_ahead1 \
         gemm_f16_aK_bK_none_bf16_64x128_ws_ahead1 gemm_bf16_aK_bK_bias_relu_bf16_128x256_ws_ahead1; do
  bundle "$VARS/$v.mlir" "$DEV/bundles/$v--l2-now"
  with_promotion "$DEV/bundles/$v--l2-now" "$DEV/bundles/$v--l2-256B" 256B
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
