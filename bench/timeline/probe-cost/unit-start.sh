#!/usr/bin/env bash
# The probes as the lowering emits them since the record moved to the unit's start (one 16-byte
# store before the unit, nothing after it; bench/results/probe-store-kinds-h100-2026-11-26):
#   all      attention d64 and d128 with every CTA recording (store-kinds.sh's bundles, variant
#            full, unedited): the overhead is each CTA's own cost
#   sampled  the GEMM, the persistent GEMM and attention d64/d128 with the default 4 recording
#            CTAs: the overhead the runner reports, check_trace.py on each trace, and each
#            unit's median length in the trace
# Build machine:  bash bench/timeline/probe-cost/unit-start.sh prepare
# GPU host:       bash bench/timeline/probe-cost/unit-start.sh run OUT   (carry .dev/unit-start)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/unit-start
case ${1:?prepare or run} in
  prepare)
    VARIANTS=full bash "$ROOT/bench/timeline/probe-cost/store-kinds.sh" prepare
    rm -rf "$DEV" && mkdir -p "$DEV/sampled"
    mv "$ROOT/.dev/store-kinds" "$DEV/all"
    for a in gemm persistent_gemm attention_fwd_d64 attention_fwd_d128; do
      "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/$a.mlir" "$DEV/sampled/$a" --with-timeline
    done
    du -sh "$DEV" ;;
  run)
    OUT=${2:?OUT}
    mkdir -p "$OUT/traces"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
    for b in "$DEV"/all/*/; do
      timeout 120 "$DEV/all/stagecraft-run" "$b" --trace /tmp/us.trace.json > /tmp/us.json 2> /dev/null || true
      echo "all $(basename "$b") $(grep -o '"overhead":[^,}]*' /tmp/us.json | head -1)" \
        "$(grep -o '"plain_median_us":[^,}]*' /tmp/us.json | head -1)" \
        "$(grep -o '"instrumented_median_us":[^,}]*' /tmp/us.json | head -1)" \
        "$(grep -o '"verified":[a-z]*' /tmp/us.json | head -1)"
    done | tee "$OUT/all.txt"
    for b in "$DEV"/sampled/*/; do
      n=$(basename "$b")
      "$DEV/all/stagecraft-run" "$b" --trace "$OUT/traces/$n.measured.json" > "$OUT/traces/$n.result.json" 2> /dev/null || true
      echo "== $n"
      python3 "$ROOT/bench/timeline/check_trace.py" "$OUT/traces/$n.result.json" "$OUT/traces/$n.measured.json" || true
      python3 - "$OUT/traces/$n.measured.json" <<'PY'
import json, statistics, sys
from collections import defaultdict
d = json.load(open(sys.argv[1]))
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"] if e.get("ph") == "M" and e["name"] == "thread_name"}
by = defaultdict(list)
for e in d["traceEvents"]:
    if e.get("ph") == "X":
        by[(names.get((e["pid"], e["tid"]), "?").split(" ")[0], e["name"])].append(e["dur"])
for (wg, unit), v in sorted(by.items()):
    print(f"  {wg:9} {unit:10} n={len(v):5} median {statistics.median(v):8.3f} us")
PY
    done | tee "$OUT/sampled.txt"
    cd "$OUT" && tar czf traces.tgz traces && rm -rf traces ;;
esac
