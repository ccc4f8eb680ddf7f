#!/usr/bin/env bash
# GPU host: every bundle of DIR/bundles (a prepare script's output: bench/timeline/launch-cost/
# prepare.sh, bench/timeline/tile-order/prepare.sh; carry DIR) run by DIR/stagecraft-run,
# verified against its IR reference (and cuBLAS for a GEMM), ROUNDS rounds (default 3) in turn.
#   bash bench/timeline/run-bundles-on-gpu.sh DIR OUT    (RUN_ARGS: more stagecraft-run options)
# Writes OUT/results.jsonl (the runner's JSON, one line per run, with "round"; what
# bench/timeline/calibrate.py reads), OUT/summary.txt (round bundle status verified median_us
# TFLOP/s) and OUT/device.txt.
set -u -o pipefail
DIR=$(cd "${1:?DIR}" && pwd)
OUT=${2:?OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/device.txt" 2>&1
for r in $(seq 1 "${ROUNDS:-3}"); do
  for b in "$DIR"/bundles/*; do
    line=$(timeout 300 "$DIR/stagecraft-run" "$b" --reps "${REPS:-30}" --warmup 5 ${RUN_ARGS:-} 2>/dev/null | tail -1)
    python3 -c "
import json, sys
try:
    d = json.loads(sys.argv[1])
except ValueError:
    d = {'status': 'no output', 'bundle': sys.argv[2]}
d['round'] = $r
open(sys.argv[3], 'a').write(json.dumps(d) + '\n')
print($r, sys.argv[2].rstrip('/').split('/')[-1], d.get('status'), d.get('verified'), d.get('median_us'),
      round(d.get('tflops') or 0, 1))" "$line" "$b" "$OUT/results.jsonl" | tee -a "$OUT/summary.txt"
  done
done
