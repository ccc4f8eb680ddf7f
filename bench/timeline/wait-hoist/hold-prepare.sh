#!/usr/bin/env bash
# Build machine: the lowering's hold (a register-A dot whose schedule `wait` is 1 stays in flight
# under the register math after it: ConsumerLoop.cpp, Emitter::orderingStore) against the same
# schedules without it.
#   bash bench/timeline/wait-hoist/hold-prepare.sh              # .dev/hold: Triton's second form
#     and FlashAttention-3's order on the attention assets, and the 64-key-block variant
#     (bench/results/register-a-hold-h100-2026-11-27)
#   bash bench/timeline/wait-hoist/hold-prepare.sh --variants   # .dev/hold-variants: generated
#     64-key-block variants no asset contains (ALiBi, causal, soft-capped, windowed) at B4 H32
#     S8192 under the default, cp-dot1-s3 and cp-dot1-s3 held
#     (bench/results/register-a-hold-variants-h100-2026-11-27)
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/hold OUT   (or .dev/hold-variants)
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
generate_variants
if [ "${1:-}" = --variants ]; then
  fresh_dev hold-variants
  for m in alibi causal softcap window; do
    v=attn_d64_bn64_bm128w2_bf16_bf16_$m
    for s in default cp_dot1_s3; do
      bundle "$VARS/${v}_$s.mlir" "$DEV/bundles/$v--$s" "${BIG[@]}"
    done
    bundle "$VARS/${v}_cp_dot1_s3.mlir" "$DEV/bundles/$v--cp_dot1_s3_hold" "${BIG[@]}" --schedule "$HOLD"
  done
else
  fresh_dev hold
  mkdir -p "$DEV/schedules"
  # FlashAttention-3's order held: its MMA1 with wait 1 (Triton's second form has an asset).
  sed 's/\("name": "MMA1"[^}]*\)}/\1, "wait": 1}/' "$S/attention_cp_mul_early.json" \
    > "$DEV/schedules/cp_mul_early-hold.json"
  for d in d64 d128; do
    for n in cp_dot1_s3 cp_mul_early; do
      held=$HOLD
      [ "$n" = cp_dot1_s3 ] || held=$DEV/schedules/$n-hold.json
      bundle "$ROOT/assets/attention_fwd_$d.mlir" "$DEV/bundles/$d-$n" --schedule "$S/attention_$n.json"
      bundle "$ROOT/assets/attention_fwd_$d.mlir" "$DEV/bundles/$d-$n-hold" --schedule "$held"
    done
  done
  v=$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none
  for s in cp_dot1_s3 default; do
    bundle "${v}_$s.mlir" "$DEV/bundles/bn64-$s" "${BIG[@]}"
  done
  bundle "${v}_cp_dot1_s3.mlir" "$DEV/bundles/bn64-cp_dot1_s3-hold" "${BIG[@]}" --schedule "$HOLD"
fi
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
