#!/usr/bin/env bash
# GPU host: each bundle of `prepare.sh --traces` verified, timed and traced ROUNDS times (default
# 2, each a fresh process), each trace reduced there by modes.py to its CTAs' steady
# iteration (OUT/modes.txt; the traces themselves are too large to bring back).
#   bash bench/timeline/single-order/traces-on-gpu.sh OUT
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEV=$HERE/../../../.dev/single-order-traces
OUT=${1:?OUT}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/device.txt"
: > "$OUT/modes.txt"
for r in $(seq 1 "${ROUNDS:-2}"); do
  for b in "$DEV"/bundles/*/; do
    name=$(basename "$b")
    "$DEV/stagecraft-run" "$b" --reps 10 --trace "$WORK/t.json" > "$WORK/r.json" 2> "$OUT/run-$name-$r.log"
    python3 "$HERE/modes.py" "$WORK/r.json" "$WORK/t.json" "$name round $r" >> "$OUT/modes.txt"
  done
done
cat "$OUT/modes.txt"
