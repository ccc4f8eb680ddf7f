#!/usr/bin/env bash
# On the GPU host: run the compiled attention sweep (bench/attention/sweep.py
# compile made .dev/attention here; carry .dev/attention and .dev/prebuilt),
# then the torch cuDNN / Triton baselines, in one session on one device.
#   bench/attention/run-on-gpu.sh OUT_DIR [--no-baselines]
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/latest}}
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } > "$OUT_DIR/device.txt" 2>&1
cat "$OUT_DIR/device.txt"
RUNNER=${RUNNER:-$ROOT/.dev/prebuilt/stagecraft-run}
python3 -u "$ROOT/bench/attention/sweep.py" run --bundles "$ROOT/.dev/attention" --runner "$RUNNER" --out "$OUT_DIR" ${REPS:+--reps $REPS}
if [ "${2:-}" != "--no-baselines" ]; then
  python3 -u "$ROOT/bench/attention/baselines.py" --out "$OUT_DIR"
fi
