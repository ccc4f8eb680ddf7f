#!/usr/bin/env bash
# GPU host: the bundles of traces-prepare.sh, each verified and traced with every CTA recording;
# the traces (about 150 MB each) are reduced there by raster_drift.py to what comes back: a
# summary per raster (OUT/drift.txt) and each CTA's SM and span (OUT/ctas-RASTER.csv).
#   bash bench/timeline/tpc-raster/traces-on-gpu.sh OUT
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEV=$HERE/../../../.dev/tpc-raster-traces
OUT=${1:?OUT}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/device.txt"
: > "$OUT/drift.txt"
for raster in rows columns apart; do
  b=$DEV/bundles/all-ctas-gemm--$raster
  "$DEV/stagecraft-run" "$b" --reps 10 --trace "$WORK/$raster.json" > "$WORK/$raster.result.json" \
    2> "$OUT/run-$raster.log"
  echo "$raster rc=$?"
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); t = d.pop('trace', None) or {}; \
print(sys.argv[2], 'verified:', d.get('verified', d.get('ok')), 'TFLOP/s:', d.get('tflops'), \
'overhead:', t.get('overhead'))" "$WORK/$raster.result.json" "$raster" >> "$OUT/drift.txt"
  python3 "$HERE/raster_drift.py" "$WORK/$raster.json" "$raster" "$OUT/ctas-$raster.csv" >> "$OUT/drift.txt"
done
cat "$OUT/drift.txt"
