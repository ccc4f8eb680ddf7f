#!/usr/bin/env bash
# On the GPU host (after bench/variants/prepare.sh here; carry .dev/variants):
# runs every bundle with stagecraft-run: each output checked against the
# bundle's own IR reference (and its peer, where it has one), then timed.
#   bench/variants/run-on-gpu.sh OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/latest}}
DEV=$ROOT/.dev/variants
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } > "$OUT_DIR/device.txt" 2>&1
cat "$OUT_DIR/device.txt"
RESULTS=$OUT_DIR/results.jsonl
: > "$RESULTS"
for b in "$DEV"/bundles/*/; do
  n=$(basename "$b")
  reps=${REPS:-10}
  case $n in asset-*|baseline-*) reps=${ASSET_REPS:-30};; esac
  line=$(timeout 300 "$DEV/stagecraft-run" "$b" --reps "$reps" --warmup 3 --watchdog 120 2>"$OUT_DIR/.stderr" | tail -1)
  [ -n "$line" ] || line="{\"status\":\"no output\",\"bundle\":\"$b\"}"
  echo "$line" >> "$RESULTS"
  if [ -s "$OUT_DIR/.stderr" ]; then { echo "== $n"; cat "$OUT_DIR/.stderr"; } >> "$OUT_DIR/stderr.txt"; fi
done
rm -f "$OUT_DIR/.stderr"
python3 "$ROOT/bench/variants/summarize.py" "$RESULTS" | tee "$OUT_DIR/summary.md"
