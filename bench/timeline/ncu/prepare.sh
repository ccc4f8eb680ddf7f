#!/usr/bin/env bash
# Build machine: attention bundles for Nsight Compute (the hardware counters: issue slots, pipes,
# warp stalls per SASS instruction) where the timeline model ranks schedules wrong: head dim 64
# in 64-key blocks (attn_d64_bn64_bm128w2_bf16_bf16_none) and the head-dim-64 asset in 128-key
# blocks under the default, Triton's forms (cp-dot0-s2, cp-dot1-s3, held and not), one consumer
# (bm64w1) and head dim 128 for contrast, at B4 H32 S8192 (head dim 128: B4 H16 S8192).
#   bash bench/timeline/ncu/prepare.sh                      # .dev/ncu
#   GPU host: bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu OUT     (carry .dev/ncu)
#   here:     python3 bench/timeline/ncu/summarize.py OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu
generate_variants
v=$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none
for s in default cp_dot1_s3 cp_dot0_s2; do
  bundle "${v}_$s.mlir" "$DEV/bundles/bn64-$s" "${BIG[@]}"
done
bundle "${v}_cp_dot1_s3.mlir" "$DEV/bundles/bn64-cp_dot1_s3-hold" "${BIG[@]}" --schedule "$HOLD"
bundle "$VARS/attn_d64_bn64_bm64w1_bf16_bf16_none_default.mlir" "$DEV/bundles/bn64-w1-default" "${BIG[@]}"
for s in cp_dot1_s3 cp_dot0_s2; do
  bundle "$ROOT/assets/attention_fwd_d64.mlir" "$DEV/bundles/d64-$s" --schedule "$S/attention_$s.json"
done
bundle "$ROOT/assets/attention_fwd_d64.mlir" "$DEV/bundles/d64-default"
bundle "$ROOT/assets/attention_fwd_d64.mlir" "$DEV/bundles/d64-cp_dot1_s3-hold" --schedule "$HOLD"
bundle "$ROOT/assets/attention_fwd_d128.mlir" "$DEV/bundles/d128-default"
bundle "$ROOT/assets/attention_fwd_d128.mlir" "$DEV/bundles/d128-cp_dot1_s3" --schedule "$S/attention_cp_dot1_s3.json"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
