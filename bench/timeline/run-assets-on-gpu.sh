#!/usr/bin/env bash
# Measured timelines of the compiled GEMM and attention assets (two schedules each) on a GPU
# host: every bundle run with `stagecraft-run BUNDLE --trace`, each trace checked, the probe
# overhead (instrumented vs plain median) held to under 5%.
#
#   here:  python3 bench/timeline/assets.py compile                  # -> .dev/timeline
#          mkdir -p .dev/prebuilt && cp build/bin/stagecraft-run .dev/prebuilt/
#   there: bash bench/timeline/run-assets-on-gpu.sh "$OUT" [BUNDLES_DIR]
#          (carry .dev/timeline and .dev/prebuilt; BUNDLES_DIR defaults to .dev/timeline)
#
# Uses the carried .dev/prebuilt/stagecraft-run (built on the build machine, it runs on the GPU
# hosts unchanged), else builds profiler/ here. Writes OUT/timelines.md (the table, the overhead
# verdict), OUT/<bundle>.measured.json (Chrome traces: open in Perfetto), .predicted.json,
# .result.json, device.txt and summary.txt. Exit 0 when every trace checks and every overhead
# is under 5%.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:?OUT_DIR}
BUNDLES=${2:-$ROOT/.dev/timeline}
mkdir -p "$OUT_DIR"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT_DIR/device.txt" 2>&1
if [ ! -f "$BUNDLES/index.json" ]; then
  echo "no bundles in $BUNDLES: run 'python3 bench/timeline/assets.py compile' on the build machine and carry .dev/timeline"
  exit 2
fi
RUNNER="$ROOT/.dev/prebuilt/stagecraft-run"
if ! [ -x "$RUNNER" ] || ! "$RUNNER" --help > /dev/null 2>&1; then
  BUILD=${STAGECRAFT_GPU_BUILD_DIR:-/tmp/stagecraft-build-prof}
  if cmake -S "$ROOT/profiler" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT_DIR/build.log" 2>&1 &&
     ninja -C "$BUILD" >> "$OUT_DIR/build.log" 2>&1; then
    RUNNER="$BUILD/bin/stagecraft-run"
  else
    echo "no runner: none carried and the build failed"; tail -20 "$OUT_DIR/build.log"; exit 2
  fi
fi
exec > >(tee "$OUT_DIR/summary.txt") 2>&1
echo "runner: $RUNNER"
cat "$OUT_DIR/device.txt"
python3 "$ROOT/bench/timeline/assets.py" run --bundles "$BUNDLES" --runner "$RUNNER" --out "$OUT_DIR" --max-overhead 0.05
