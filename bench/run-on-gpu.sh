#!/usr/bin/env bash
# Builds stagecraft-run and the fixture bundles on a GPU host, runs every runner check and
# writes the results.
#
#   bench/run-on-gpu.sh [OUT_DIR]        (default: $OUT, else bench/results/latest)
#
# Needs the CUDA toolkit (nvcc), cmake, ninja and python3; no MLIR, no GoogleTest. When a binary
# built elsewhere is carried in .dev/prebuilt/stagecraft-run and the local build fails, that one
# is used (and said so in the log). Output: OUT_DIR/results.jsonl, summary.md, device.txt,
# build.log, checks.log.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/latest}}
mkdir -p "$OUT_DIR"
BUILD=${STAGECRAFT_GPU_BUILD_DIR:-/tmp/stagecraft-build-prof}
BUNDLES=${STAGECRAFT_GPU_BUNDLES:-/tmp/stagecraft-bundles}
export PATH=/usr/local/cuda/bin:$PATH

{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1
  nvcc --version | tail -2
  cmake --version | head -1
} > "$OUT_DIR/device.txt" 2>&1
cat "$OUT_DIR/device.txt"

# 1. Build the runner standalone (profiler/ needs only the CUDA toolkit).
RUNNER=""
if cmake -S "$ROOT/profiler" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT_DIR/build.log" 2>&1 &&
   ninja -C "$BUILD" >> "$OUT_DIR/build.log" 2>&1; then
  RUNNER="$BUILD/bin/stagecraft-run"
  echo "built $RUNNER on this host"
elif [ -x "$ROOT/.dev/prebuilt/stagecraft-run" ]; then
  RUNNER="$ROOT/.dev/prebuilt/stagecraft-run"
  echo "local build FAILED (see build.log); using the carried $RUNNER"
else
  echo "local build FAILED and no carried binary:"; tail -30 "$OUT_DIR/build.log"; exit 2
fi

# 2. Build the fixture bundles with nvcc (or use carried ones).
if python3 "$ROOT/profiler/fixtures/make_bundles.py" "$BUNDLES" >> "$OUT_DIR/build.log" 2>&1; then
  echo "built fixture bundles in $BUNDLES"
elif [ -d "$ROOT/.dev/bundles" ]; then
  BUNDLES="$ROOT/.dev/bundles"
  echo "bundle build FAILED (see build.log); using the carried $BUNDLES"
else
  echo "bundle build FAILED:"; tail -30 "$OUT_DIR/build.log"; exit 2
fi

# 3. Run the checks.
python3 -u "$ROOT/bench/gpu_checks.py" --runner "$RUNNER" --bundles "$BUNDLES" --out "$OUT_DIR" "${@:2}" \
  2> "$OUT_DIR/checks.log"
status=$?
echo "--- processes named stagecraft-run still alive (must be none):"
pgrep -a -x stagecraft-run || echo none
nvidia-smi --query-compute-apps=pid,process_name --format=csv 2>&1 | tail -5
exit $status
