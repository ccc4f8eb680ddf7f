#!/usr/bin/env bash
# Build machine: the lowering's hold (a register-A dot whose schedule `wait` is 1 stays in flight
# under the register math after it: ConsumerLoop.cpp, Emitter::orderingStore) against the same
# schedules as they are, for Triton's second form and FlashAttention-3's order on the attention
# assets and the 64-key-block variant.
#   bash bench/timeline/wait-hoist/hold-prepare.sh       # .dev/hold
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/hold OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/hold
rm -rf "$DEV" && mkdir -p "$DEV/bundles" "$DEV/schedules"
VARS=$(mktemp -d)
trap 'rm -rf "$VARS"' EXIT
python3 "$ROOT/test/variants/make_variants.py" "$VARS" --set all > /dev/null
for n in cp_dot1_s3 cp_mul_early; do
  python3 - "$ROOT/assets/schedules/attention_$n.json" "$DEV/schedules/$n-hold.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for op in s["ops"]:
    if op["name"] == "MMA1":
        op["wait"] = 1
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
done
S=$ROOT/assets/schedules
for d in d64 d128; do
  for n in cp_dot1_s3 cp_mul_early; do
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/attention_fwd_$d.mlir" "$DEV/bundles/$d-$n" --schedule "$S/attention_$n.json"
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/attention_fwd_$d.mlir" "$DEV/bundles/$d-$n-hold" --schedule "$DEV/schedules/$n-hold.json"
  done
done
for v in cp_dot1_s3 default; do
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none_$v.mlir" "$DEV/bundles/bn64-$v" \
    --size=B=4 --size=H=32 --size=S=8192
done
bash "$ROOT/bench/timeline/compile-bundle.sh" "$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none_cp_dot1_s3.mlir" "$DEV/bundles/bn64-cp_dot1_s3-hold" \
  --size=B=4 --size=H=32 --size=S=8192 --schedule "$DEV/schedules/cp_dot1_s3-hold.json"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
