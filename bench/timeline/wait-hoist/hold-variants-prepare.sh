#!/usr/bin/env bash
# Build machine: the hold on generated attention variants in 64-key blocks no asset contains
# (ALiBi, causal, soft-capped, windowed; test/variants/make_variants.py) at B4 H32 S8192: the
# default schedule, cp-dot1-s3, and cp-dot1-s3 with MMA1 held (wait 1).
#   bash bench/timeline/wait-hoist/hold-variants-prepare.sh      # .dev/hold-variants
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/hold-variants OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/hold-variants
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
VARS=$(mktemp -d)
trap 'rm -rf "$VARS"' EXIT
python3 "$ROOT/test/variants/make_variants.py" "$VARS" --set all > /dev/null
HOLD=$ROOT/assets/schedules/attention_cp_dot1_s3_hold.json
for m in alibi causal softcap window; do
  v=attn_d64_bn64_bm128w2_bf16_bf16_$m
  for s in default cp_dot1_s3; do
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$VARS/${v}_$s.mlir" "$DEV/bundles/$v--$s" \
      --size=B=4 --size=H=32 --size=S=8192
  done
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$VARS/${v}_cp_dot1_s3.mlir" "$DEV/bundles/$v--cp_dot1_s3_hold" \
    --size=B=4 --size=H=32 --size=S=8192 --schedule "$HOLD"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
