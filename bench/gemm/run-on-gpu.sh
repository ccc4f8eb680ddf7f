#!/usr/bin/env bash
# On the GPU host: run the compiled GEMM sweep (bench/gemm/sweep.py compile
# made .dev/gemm here; carry .dev/gemm and .dev/prebuilt) and write results.
#   bench/gemm/run-on-gpu.sh OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/latest}}
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } > "$OUT_DIR/device.txt" 2>&1
cat "$OUT_DIR/device.txt"
RUNNER=${RUNNER:-$ROOT/.dev/prebuilt/stagecraft-run}
python3 -u "$ROOT/bench/gemm/sweep.py" run --bundles "$ROOT/.dev/gemm" --runner "$RUNNER" --out "$OUT_DIR"
