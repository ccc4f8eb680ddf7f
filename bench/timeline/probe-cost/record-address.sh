#!/usr/bin/env bash
# What is left of the probes' cost at head dim 128 (bench/results/probe-unit-start-h100-2026-11-26:
# the lowering's unit-start records cost attention d128 +9-12% a CTA with every CTA recording,
# where the PTX edit they follow, which stored to one fixed slot per warp group, cost +5%):
# attention d64 and d128 with every CTA recording, the instrumented PTX of the current lowering
#   full    as emitted: the record at region + 16 + 16 * count, while count < capacity
#   fixed   the same stores to one 64-byte slot per warp group and CTA made at the entry (the
#           address from the counter dead; the counter and its check still there)
# Build machine:  bash bench/timeline/probe-cost/record-address.sh prepare
# GPU host:       [ROUNDS=N] bash bench/timeline/probe-cost/record-address.sh run OUT   (carry .dev/record-address)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/record-address
case ${1:?prepare or run} in
  prepare)
    VARIANTS=full bash "$ROOT/bench/timeline/probe-cost/store-kinds.sh" prepare
    rm -rf "$DEV" && mv "$ROOT/.dev/store-kinds" "$DEV"
    for b in "$DEV"/*--full/; do
      d=${b%--full/}--fixed
      cp -r "$b" "$d"
      python3 - "$d" "$ROOT/bench/timeline/probe-cost" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[2])
import ptx_edit
d = sys.argv[1]
ptx = open(f"{d}/timeline.ptx").read()
ptx, n = re.subn(r"@p st\.global\.v4\.b32 \[%rd\d+\], \{lo, hi,", "@p st.global.v4.b32 [%bnd0], {lo, hi,", ptx)
assert n > 0, "no unit-start records found"
open(f"{d}/timeline.ptx", "w").write(ptx_edit.with_warp_group_slot(ptx))
print(d, n, "records edited")
PY
      "${PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_90a "$d/timeline.ptx" -o "$d/timeline.cubin"
    done ;;
  run)
    OUT=${2:?OUT}
    mkdir -p "$OUT"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
    for r in $(seq 1 "${ROUNDS:-1}"); do
      for b in "$DEV"/*/; do
        timeout "${RUN_TIMEOUT:-90}" "$DEV/stagecraft-run" "$b" --trace /tmp/ra.trace.json > /tmp/ra.json 2> /dev/null || true
        echo "$r $(basename "$b") $(grep -o '"overhead":[^,}]*' /tmp/ra.json | head -1)" \
          "$(grep -o '"verified":[a-z]*' /tmp/ra.json | head -1)"
      done
    done | tee "$OUT/record-address.txt" ;;
esac
