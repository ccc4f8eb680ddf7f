#!/usr/bin/env bash
# GPU host: each bundle of prepare.sh verified, timed and traced ROUNDS times (default 2, each
# a fresh process, the bundles in turn); OUT/<bundle>-<round>.json (the runner's result) and
# .trace.json.xz (the measured trace), OUT/summary.txt, OUT/device.txt.
#   bash bench/timeline/short-cp/traces-on-gpu.sh OUT
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEV=$HERE/../../../.dev/short-cp
OUT=${1:?OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/device.txt"
: > "$OUT/summary.txt"
for r in $(seq 1 "${ROUNDS:-2}"); do
  for b in "$DEV"/bundles/*/; do
    name=$(basename "$b")
    "$DEV/stagecraft-run" "$b" --reps 20 --trace "$OUT/$name-$r.trace.json" > "$OUT/$name-$r.json" 2> "$OUT/$name-$r.log"
    xz -f "$OUT/$name-$r.trace.json"
    python3 - "$OUT/$name-$r.json" "$name" "$r" >> "$OUT/summary.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("trace") or {}
print(sys.argv[3], sys.argv[2], r.get("status"), r.get("verified"), r.get("median_us"),
      r.get("tflops"), "overhead", t.get("overhead"))
PY
  done
done
cat "$OUT/summary.txt"
