#!/usr/bin/env bash
# On the build machine: the bundles of the performance benchmark (issue:
# persistent / ping-pong kernels vs cuBLAS and cuDNN), slimmed into .dev/perf:
# GEMM (128x256 tiles; persistent row-major and grouped) at 8192^3, 4096^3 and
# 8000x8064x4000; attention d128 (default, cp-dot1-s3; persistent), causal,
# d64, at the anchors' sizes.
#   bench/perf/prepare.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/perf
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
A=$ROOT/assets S=$A/schedules
source "$ROOT/bench/lib/bundle.sh"
bundle() { compile_bundle "$@"; } # name mlir [compile args...]
for g in gemm persistent_gemm persistent_gemm_grouped persistent_gemm_pingpong persistent_gemm_pingpong_64x256; do
  bundle "$g-8192" "$A/$g.mlir"
  bundle "$g-4096" "$A/$g.mlir" --size M=4096 --size N=4096 --size K=4096
  bundle "$g-8000x8064x4000" "$A/$g.mlir" --size M=8000 --size N=8064 --size K=4000
done
# The ping-pong asset's tiles with cooperative consumers (each 64 rows of a tile).
bundle persistent_gemm_pingpong_as_cooperative-8192 "$A/persistent_gemm_pingpong.mlir" \
  --schedule "$S/consumers_cooperative.json"
bundle attn_d128 "$A/attention_fwd_d128.mlir"
bundle attn_d128_cp_dot1_s3 "$A/attention_fwd_d128.mlir" --schedule "$S/attention_cp_dot1_s3.json"
bundle attn_d128_causal_cp_dot1_s3 "$A/attention_fwd_d128_causal.mlir" --schedule "$S/attention_cp_dot1_s3.json"
bundle attn_d64 "$A/attention_fwd_d64.mlir" --size H=32
# The shapes FlashAttention-3 uses too: 192 query rows over three consumer warp groups at head
# dim 64, key blocks of 176 at 128 (bench/results/attention-tiles-h100-2026-11-23).
bundle attn_d64_192rows "$A/attention_fwd_d64_192rows.mlir"
bundle attn_d64_192rows_ahead2 "$A/attention_fwd_d64_192rows.mlir" --schedule "$S/attention_loads_ahead2.json"
bundle attn_d64_causal_192rows "$A/attention_fwd_d64_causal_192rows.mlir"
bundle attn_d64_causal_192rows_ahead2 "$A/attention_fwd_d64_causal_192rows.mlir" --schedule "$S/attention_loads_ahead2.json"
bundle attn_d128_176keys_cp_near "$A/attention_fwd_d128_176keys.mlir" --schedule "$S/attention_cp_dot1_s3_near.json"
bundle attn_d128_causal_176keys_cp_near "$A/attention_fwd_d128_causal_176keys.mlir" --schedule "$S/attention_cp_dot1_s3_near.json"
# FlashAttention-3's order (the rescale under MMA0(i+1), the softmax under MMA1(i)).
bundle attn_d128_176keys_early_near "$A/attention_fwd_d128_176keys.mlir" --schedule "$S/attention_cp_mul_early_near.json"
bundle attn_d128_causal_176keys_early_near "$A/attention_fwd_d128_causal_176keys.mlir" --schedule "$S/attention_cp_mul_early_near.json"
bundle attn_d64_early "$A/attention_fwd_d64.mlir" --size H=32 --schedule "$S/attention_cp_mul_early.json"
bundle attn_d64_causal "$A/attention_fwd_d64_causal.mlir" --size H=32
bundle persistent_attn_d128 "$A/persistent_attention_fwd_d128.mlir"
# Staggered consumers (FA3's ping-pong of the two consumer warp groups).
bundle attn_d128_staggered "$A/attention_fwd_d128.mlir" --schedule "$S/consumers_staggered.json"
bundle attn_d128_cp_dot1_s3_staggered "$A/attention_fwd_d128.mlir" --schedule "$S/attention_cp_dot1_s3_staggered.json"
bundle attn_d128_causal_cp_dot1_s3_staggered "$A/attention_fwd_d128_causal.mlir" --schedule "$S/attention_cp_dot1_s3_staggered.json"
bundle attn_d64_staggered "$A/attention_fwd_d64.mlir" --size H=32 --schedule "$S/consumers_staggered.json"
bundle persistent_attn_d128_staggered "$A/persistent_attention_fwd_d128.mlir" --schedule "$S/consumers_staggered.json"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"; ls "$DEV/bundles" | wc -l
