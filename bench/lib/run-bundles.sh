#!/usr/bin/env bash
# On the GPU host: ROUNDS (default 3) interleaved rounds of every bundle in DEV/bundles, each
# verified against its IR reference by DEV/stagecraft-run (and timed beside cuBLAS where the
# kernel is a GEMM cuBLAS has), into OUT_DIR/results.jsonl and OUT_DIR/table.md
# (bench/lib/table.py).
#   bench/lib/run-bundles.sh DEV OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEV=${1:?DEV}
OUT_DIR=${2:?OUT_DIR}
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
python3 "$ROOT/bench/lib/table.py" "$OUT_DIR/results.jsonl" | tee "$OUT_DIR/table.md"
