#!/usr/bin/env bash
# Build machine: a third held-out test of the timeline model, on loops no asset contains: a
# seeded random sample of the generated variants (test/variants/make_variants.py --set all:
# epilogues, dtypes, operand layouts, tile shapes, masks, head layouts, schedules), GEMMs at
# 4096x6144x3072 and attention at B4 H16 S4096, sizes no results folder has. Compiled into
# DEV/bundles/NAME--LABEL and predicted into DEV/predicted.jsonl (bench/timeline/
# predict_bundles.py) before any GPU run: commit it as predictions-DATE.jsonl beside this script.
#   SEED=28 bash bench/timeline/heldout-variants/prepare.sh                 # .dev/heldout-variants
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/heldout-variants OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev heldout-variants
generate_variants
python3 - "$VARS" "${SEED:-28}" "${GEMMS:-12}" "${ATTNS:-10}" > "$DEV/sample.txt" <<'PY'
import json, random, sys
vars_dir, seed, gemms, attns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
names = sorted(v["name"] for v in json.load(open(f"{vars_dir}/variants.json")))
rng = random.Random(seed)
for kind, n in (("gemm_", gemms), ("attn_", attns)):
    for name in rng.sample([x for x in names if x.startswith(kind)], n):
        print(name)
PY
while read -r v; do
  sched=()
  [ -f "$VARS/$v.schedule.json" ] && sched=(--schedule "$VARS/$v.schedule.json")
  case $v in
    gemm_*) bundle "$VARS/$v.mlir" "$DEV/bundles/$v--M4096-N6144-K3072" "${sched[@]}" \
              --size M=4096 --size N=6144 --size K=3072 || echo "refused: $v" ;;
    attn_*) bundle "$VARS/$v.mlir" "$DEV/bundles/$v--B4-H16-S4096" "${sched[@]}" \
              --size B=4 --size H=16 --size S=4096 || echo "refused: $v" ;;
  esac
done < "$DEV/sample.txt"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
