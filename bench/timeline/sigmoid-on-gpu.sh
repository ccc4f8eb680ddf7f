#!/usr/bin/env bash
# GPU host: the sigmoid attention bundles of `python3 bench/timeline/assets.py compile --set
# sigmoid --out .dev/sigmoid` (or --set sigmoid128; carry .dev/sigmoid and .dev/prebuilt), through
# run-assets-on-gpu.sh three times (r1, r2, r3: each bundle verified, timed, traced; what
# bench/timeline/calibrate.py reads, the median of the three), packed into OUT/sigmoid.tar.xz.
#   bash bench/timeline/sigmoid-on-gpu.sh OUT
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?OUT}
WORK=$(mktemp -d)
for r in 1 2 3; do
  bash "$ROOT/bench/timeline/run-assets-on-gpu.sh" "$WORK/r$r" "$ROOT/.dev/sigmoid" > /dev/null 2>&1
  xz -9 "$WORK"/r$r/*.json
  tail -7 "$WORK/r$r/summary.txt"
done
mkdir -p "$OUT"
tar -C "$WORK" -cJf "$OUT/sigmoid.tar.xz" r1 r2 r3
