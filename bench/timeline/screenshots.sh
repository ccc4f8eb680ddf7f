#!/usr/bin/env bash
# Pictures of the app's timeline panel for docs/timeline.md: each asset and schedule that
# bench/timeline/assets.py measures (GEMM and attention, two schedules each), with its predicted
# lanes and, under them, the measured trace that stagecraft-run --trace wrote on the GPU.
#
#   bash bench/timeline/screenshots.sh [RESULTS_DIR] [OUT_DIR]
#
# RESULTS_DIR holds <asset>--<schedule>.measured.json or .json.xz (default: the committed H100 run,
# bench/results/timeline-measured-h100-2026-11-23-run4/r1); OUT_DIR gets <asset>--<schedule>.png
# (default docs/timeline). Needs build/bin/stagecraft (ninja -C build stagecraft) and xvfb-run;
# no GPU: the predicted lanes are the app's own, the measured ones the files'. Each picture is
# the command
#   stagecraft ASSET.mlir [--schedule S.json] --trace MEASURED.json --no-runner \
#     --panel timeline --size 1600x480 --screenshot OUT.png
# and fails when the app refuses the trace (another kernel or schedule) or a PNG is 500 KB or more.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=${1:-$ROOT/bench/results/timeline-measured-h100-2026-11-23-run4/r1}
OUT=${2:-$ROOT/docs/timeline}
APP=$ROOT/build/bin/stagecraft
[ -x "$APP" ] || { echo "no $APP: build it (ninja -C build stagecraft)"; exit 2; }
command -v xvfb-run > /dev/null || { echo "xvfb-run is not installed (scripts/setup.sh)"; exit 2; }
mkdir -p "$OUT"
cd "$ROOT"
status=0
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
while read -r asset name schedule; do
  trace="$RESULTS/$asset--$name.measured.json"
  # The committed traces are kept compressed; the app reads plain JSON.
  if [ ! -f "$trace" ] && [ -f "$trace.xz" ]; then
    xz -dc "$trace.xz" > "$unpacked/$asset--$name.measured.json"
    trace="$unpacked/$asset--$name.measured.json"
  fi
  png="$OUT/$asset--$name.png"
  args=("assets/$asset.mlir")
  [ "$schedule" != - ] && args+=(--schedule "$schedule")
  args+=(--trace "$trace" --no-runner --panel timeline --size 1600x480 --screenshot "$png")
  echo "stagecraft ${args[*]}"
  # Software GL, a screen larger than the window: the same picture on any machine.
  if ! LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s '-screen 0 1920x1200x24' "$APP" "${args[@]}"; then
    echo "FAIL: $asset $name"
    status=1
    continue
  fi
  size=$(stat -c %s "$png")
  if [ "$size" -ge 512000 ]; then
    echo "FAIL: $png is $size bytes (500 KB or more)"
    status=1
  fi
done < <(python3 bench/timeline/assets.py list)
exit $status
