#!/usr/bin/env bash
# On the GPU host (after bench/perf/prepare.sh; carry .dev/perf): every bundle
# verified against its IR reference (and its peer) and timed by stagecraft-run
# (cuBLAS timed in the same process for GEMMs), then the attention and GEMM
# peers through bench/peers (same input distribution, same CUPTI method), in
# one call on one device.
#   bench/perf/run-on-gpu.sh OUT_DIR [--no-peers]
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/latest-perf}}
DEV=$ROOT/.dev/perf
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > "$OUT_DIR/device.txt" 2>&1
RESULTS=$OUT_DIR/results.jsonl
: > "$RESULTS"
for b in "$DEV"/bundles/*/; do
  n=$(basename "$b")
  line=$(timeout 300 "$DEV/stagecraft-run" "$b" --reps "${REPS:-50}" --warmup 5 --watchdog 120 2>>"$OUT_DIR/stderr.txt" | tail -1)
  [ -n "$line" ] || line="{\"status\":\"no output\",\"bundle\":\"$b\"}"
  echo "$line" >> "$RESULTS"
done
python3 "$ROOT/bench/variants/summarize.py" "$RESULTS" > "$OUT_DIR/summary.md"
if [ "${2:-}" != "--no-peers" ]; then
  bash "$ROOT/bench/peers/run-on-gpu.sh" "$OUT_DIR/peers" --quick > "$OUT_DIR/peers.log" 2>&1
fi
nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv >> "$OUT_DIR/device.txt" 2>&1
cat "$OUT_DIR/summary.md"
[ -f "$OUT_DIR/peers/summary.md" ] && cat "$OUT_DIR/peers/summary.md"
