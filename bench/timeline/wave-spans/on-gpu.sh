#!/usr/bin/env bash
# GPU host: each bundle of prepare.sh verified, timed and traced ROUNDS times (default 3, each
# a fresh process: the four-ahead kernel's launches are bimodal), each trace reduced here by
# wave_spans.py to a table per round of the launch (OUT/waves.txt).
#   bash bench/timeline/wave-spans/on-gpu.sh OUT
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEV=$HERE/../../../.dev/wave-spans
OUT=${1:?OUT}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/device.txt"
: > "$OUT/waves.txt"
for r in $(seq 1 "${ROUNDS:-3}"); do
  for b in "$DEV"/gemm_128x128--*/; do
    name=$(basename "$b")
    "$DEV/stagecraft-run" "$b" --reps 10 --trace "$WORK/t.json" > "$WORK/r.json" 2> "$OUT/run-$name-$r.log"
    python3 "$HERE/wave_spans.py" "$WORK/r.json" "$WORK/t.json" "$name round $r" >> "$OUT/waves.txt"
  done
done
cat "$OUT/waves.txt"
