#!/usr/bin/env bash
# On the GPU host (after bench/cluster/prepare.sh; carry .dev/cluster): ROUNDS (default 3)
# interleaved rounds of every bundle, each verified against its IR reference and timed beside
# cuBLAS in the same stagecraft-run process; OUT_DIR/results.jsonl and OUT_DIR/table.md.
#   bench/cluster/run-on-gpu.sh OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:?OUT_DIR}
DEV=$ROOT/.dev/cluster
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > "$OUT_DIR/device.txt" 2>&1
: > "$OUT_DIR/results.jsonl"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for b in $(ls "$DEV/bundles"); do
    line=$(timeout 120 "$DEV/stagecraft-run" "$DEV/bundles/$b" --reps "${REPS:-30}" --warmup 5 --watchdog 30 \
           2>>"$OUT_DIR/stderr.txt" | tail -1)
    [ -n "$line" ] || line="{\"status\":\"no output\"}"
    python3 -c "import json,sys; r=json.loads(sys.argv[1]); r['round']=int(sys.argv[2]); r['bundle']=sys.argv[3]; print(json.dumps(r))" \
      "$line" "$round" "$b" >> "$OUT_DIR/results.jsonl"
  done
  echo "round $round done"
done
python3 "$ROOT/bench/cluster/table.py" "$OUT_DIR/results.jsonl" | tee "$OUT_DIR/table.md"
