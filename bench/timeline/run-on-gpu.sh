#!/usr/bin/env bash
# Measured timelines on a GPU host: the runner's trace path on the instrumented fixture, and
# (when given) the compiled asset bundles of bench/timeline/assets.py.
#
#   bench/timeline/run-on-gpu.sh OUT_DIR [ASSET_BUNDLES_DIR]
#
# 1. builds stagecraft-run (or uses the carried .dev/prebuilt/stagecraft-run) and the fixture
#    bundles (profiler/fixtures/make_bundles.py, or the carried .dev/bundles);
# 2. runs gemm_timeline_* with --trace and through --serve with "trace": true, and checks both
#    (bench/timeline/check_trace.py: events per sampled CTA on distinct SMs, the Chrome trace
#    format, the overhead);
# 3. with ASSET_BUNDLES_DIR: runs every bundle there with --trace (assets.py run).
# Writes OUT_DIR/*.json (results and traces) and OUT_DIR/summary.txt.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:?OUT_DIR}
ASSETS=${2:-}
mkdir -p "$OUT_DIR"
export PATH=/usr/local/cuda/bin:$PATH
BUILD=${STAGECRAFT_GPU_BUILD_DIR:-/tmp/stagecraft-build-prof}
BUNDLES=${STAGECRAFT_GPU_BUNDLES:-/tmp/stagecraft-bundles}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT_DIR/device.txt" 2>&1

RUNNER=""
if cmake -S "$ROOT/profiler" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT_DIR/build.log" 2>&1 &&
   ninja -C "$BUILD" >> "$OUT_DIR/build.log" 2>&1; then
  RUNNER="$BUILD/bin/stagecraft-run"
elif [ -x "$ROOT/.dev/prebuilt/stagecraft-run" ]; then
  RUNNER="$ROOT/.dev/prebuilt/stagecraft-run"
  echo "local build failed (build.log); using the carried $RUNNER"
else
  echo "no runner: the build failed"; tail -20 "$OUT_DIR/build.log"; exit 2
fi
if ! python3 "$ROOT/profiler/fixtures/make_bundles.py" "$BUNDLES" >> "$OUT_DIR/build.log" 2>&1; then
  if [ -d "$ROOT/.dev/bundles" ]; then BUNDLES="$ROOT/.dev/bundles"; echo "using the carried $BUNDLES"
  else echo "no fixture bundles: nvcc failed (build.log)"; exit 2; fi
fi

exec > >(tee "$OUT_DIR/summary.txt") 2>&1
status=0
for b in gemm_timeline_1000x520x200 gemm_timeline_4096x4096x4096; do
  echo "== $b (stagecraft-run --trace)"
  "$RUNNER" "$BUNDLES/$b" --reps 20 --trace "$OUT_DIR/$b.trace.json" > "$OUT_DIR/$b.result.json"
  echo "exit $?"
  python3 "$ROOT/bench/timeline/check_trace.py" "$OUT_DIR/$b.result.json" "$OUT_DIR/$b.trace.json" || status=1
done
echo "== serve: trace request, a request without trace, a bundle without a timeline"
printf '%s\n' "{\"id\": 1, \"bundle\": \"$BUNDLES/gemm_timeline_4096x4096x4096\", \"trace\": true, \"reps\": 10}" \
  "{\"id\": 2, \"bundle\": \"$BUNDLES/gemm_timeline_4096x4096x4096\", \"reps\": 10}" \
  "{\"id\": 3, \"bundle\": \"$BUNDLES/gemm_4096x4096x4096\", \"trace\": true, \"reps\": 10}" |
  "$RUNNER" --serve > "$OUT_DIR/serve.jsonl"
head -1 "$OUT_DIR/serve.jsonl" > "$OUT_DIR/serve-1.json"
python3 "$ROOT/bench/timeline/check_trace.py" "$OUT_DIR/serve-1.json" - || status=1
python3 - "$OUT_DIR/serve.jsonl" <<'PY' || status=1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[1]["trace"] is None, "a request without trace got one"
assert lines[2]["status"] == "ok" and "error" in lines[2]["trace"], lines[2]["trace"]
print("ok: no trace unless asked; a bundle without a timeline answers", lines[2]["trace"]["error"])
PY
if [ -n "$ASSETS" ]; then
  echo "== compiled asset bundles in $ASSETS"
  python3 "$ROOT/bench/timeline/assets.py" run --bundles "$ASSETS" --runner "$RUNNER" --out "$OUT_DIR" || status=1
fi
exit $status
