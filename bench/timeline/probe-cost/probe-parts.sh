#!/usr/bin/env bash
# Which part of a probe costs: attention d64 and d128 with every CTA recording (the overhead is
# then each CTA's own cost), their instrumented PTX edited four ways and JIT-compiled by the
# runner (the committed results) or, since, assembled here by ptxas: full; nostores (the probes'
# `@p st.global.u64` deleted);
# nostamps (`%globaltimer` read as 0); neither. Needs the bundles of recorded-cta.sh prepare.
# Build machine:  bash bench/timeline/probe-cost/probe-parts.sh prepare
# GPU host:       [ROUNDS=N] bash bench/timeline/probe-cost/probe-parts.sh run   (carry .dev/probe-parts;
#                 about 10 s a bundle)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/probe-parts
case ${1:?prepare or run} in
  prepare)
    rm -rf "$DEV" && mkdir -p "$DEV"
    for b in "$ROOT"/.dev/recorded-cta/all/*/; do
      for v in full nostores nostamps neither; do
        d=$DEV/$(basename "$b")--$v
        cp -r "$b" "$d"
        case $v in
          nostores) sed -i '/@p st.global.u64/d' "$d/timeline.ptx" ;;
          nostamps) sed -i 's/%globaltimer/0/' "$d/timeline.ptx" ;;
          neither) sed -i '/@p st.global.u64/d; s/%globaltimer/0/' "$d/timeline.ptx" ;;
        esac
        "${PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_90a "$d/timeline.ptx" -o "$d/timeline.cubin"
      done
    done
    cp "$ROOT/build/bin/stagecraft-run" "$DEV/" ;;
  run)
    for r in $(seq 1 "${ROUNDS:-1}"); do
      for b in "$DEV"/*/; do
        "$DEV/stagecraft-run" "$b" --trace /tmp/pp.trace.json > /tmp/pp.json 2> /tmp/pp.err || true
        echo "$r $(basename "$b") $(grep -o '"overhead":[^,}]*' /tmp/pp.json | head -1)" \
          "$(grep -o '"plain_median_us":[^,}]*' /tmp/pp.json | head -1)" \
          "$(grep -o '"instrumented_median_us":[^,}]*' /tmp/pp.json | head -1)" \
          "$(grep -o '"verified":[a-z]*' /tmp/pp.json | head -1)"
      done
    done ;;
esac
