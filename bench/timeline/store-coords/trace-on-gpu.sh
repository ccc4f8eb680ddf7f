#!/usr/bin/env bash
# GPU host: the instrumented bundles of DIR/bundles (those with timeline.cubin) traced by
# DIR/stagecraft-run, each into OUT/NAME.measured.json with its result in OUT/NAME.result.json.
#   bash bench/timeline/store-coords/trace-on-gpu.sh DIR OUT
set -u -o pipefail
DIR=$(cd "${1:?DIR}" && pwd)
OUT=${2:?OUT}
mkdir -p "$OUT"
for b in "$DIR"/bundles/*; do
  [ -f "$b/timeline.cubin" ] || continue
  name=$(basename "$b")
  timeout 300 "$DIR/stagecraft-run" "$b" --trace "$OUT/$name.measured.json" > "$OUT/$name.result.json" 2>/dev/null
  echo "$name: $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d.get('status'), d.get('verified'), round(d.get('tflops') or 0, 1))" "$OUT/$name.result.json")"
done
