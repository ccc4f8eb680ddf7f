#!/usr/bin/env bash
# Build machine: the L2 promotion rule (128B for a tensor whose rows are not a multiple of 128
# bytes apart, bench/results/ncu-promotion-h100-2026-11-28) on layouts it was not measured on,
# at sizes whose operands exceed the L2: attention at head dim 96 (192-byte rows of Q, K, V) at
# B4 H16 S8192, and a GEMM with an M-major A (rows M apart) at M = 4000 (8000-byte rows), N = K
# = 8192. NAME--l2-now as stagecraft-compile writes it, NAME--l2-256B every descriptor at 256B.
#   bash bench/timeline/ncu/promotion-layouts-prepare.sh                 # .dev/promotion-layouts
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/promotion-layouts OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev promotion-layouts
generate_variants
add() { # VARIANT NAME SIZES...
  local v=$1 name=$2
  shift 2
  bundle "$VARS/$v.mlir" "$DEV/bundles/$name--l2-now" "$@"
  with_promotion "$DEV/bundles/$name--l2-now" "$DEV/bundles/$name--l2-256B" 256B
}
for v in attn_d96_bn128_bm128w2_bf16_bf16_none_default attn_d96_bn128_bm128w2_bf16_bf16_causal_cp_dot1_s3; do
  add "$v" "$v--B4xH16xS8192" --size=B=4 --size=H=16 --size=S=8192
done
add gemm_bf16_aM_bK_bias_relu_bf16_128x256_ws_ahead2 gemm_bf16_aM_bK_bias_relu_bf16_128x256_ws_ahead2--M4000xN8192xK8192 \
  --size=M=4000 --size=N=8192 --size=K=8192
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
