#!/usr/bin/env bash
# GPU host: the traces prepared by bench/timeline/cta-placement/prepare.sh (every CTA of the
# persistent GEMM recording its first two tiles), each verified; xz-compressed into OUT.
#   bash bench/timeline/cta-placement/traces-on-gpu.sh OUT
set -u -o pipefail
DEV=$(cd "$(dirname "$0")/../../.." && pwd)/.dev/cta-placement
OUT=${1:?OUT}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for b in "$DEV"/traces/*; do
  n=$(basename "$b")
  "$DEV/stagecraft-run" "$b" --reps 20 --trace "$OUT/$n.measured.json" > "$WORK/$n.result.json" 2> "$OUT/$n.log"
  echo "$n rc=$?"
  # The runner's JSON without its trace (the trace file has it): small enough
  # to come back from the GPU host.
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d.pop('trace', None); \
json.dump(d, open(sys.argv[2], 'w'), indent=1)" "$WORK/$n.result.json" "$OUT/$n.result.json"
  xz -f "$OUT/$n.measured.json" || true
done
