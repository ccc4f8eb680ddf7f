#!/usr/bin/env bash
# Build machine: the 128x256 GEMM (assets/gemm.mlir) under the warp-specialized and the
# single-group schedules of bench/gemm/sweep.py (ahead 2; single with MMA wait 0 and 1), and
# the single-group wait-0 schedule with its loads ordered before its MMA in the iteration
# (`loadsfirst`: the lowering then issues consumer 0's loads before its wgmma instead of
# after), with the runner. What it is for: where the single-group order's 3-5% goes (README
# of bench/results/single-order-h100-2026-11-27).
#   bash bench/timeline/single-order/prepare.sh            # .dev/single-order: plain kernels
#     GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/single-order "$OUT"
#   bash bench/timeline/single-order/prepare.sh --traces   # .dev/single-order-traces: with the
#     instrumented kernels, every 7th CTA recording (293 of the 2048 CTAs at 8192^3)
#     GPU host: bash bench/timeline/single-order/traces-on-gpu.sh "$OUT"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/single-order
FLAGS=()
if [ "${1:-}" = --traces ]; then
  DEV=$ROOT/.dev/single-order-traces
  FLAGS=(--with-timeline --timeline-ctas=293 --timeline-capacity=512)
fi
rm -rf "$DEV" && mkdir -p "$DEV/bundles" "$DEV/schedules"
python3 - "$ROOT" "$DEV/schedules" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "bench", "timeline"))
import calibrate
for name in ("ws-a2-w0", "single-a2-w0", "single-a2-w1", "single-a2-w0-loadsfirst"):
    with open(os.path.join(sys.argv[2], name + ".json"), "w") as f:
        json.dump(calibrate.single_order_schedule(name), f)
PY
for s in ws-a2-w0 single-a2-w0 single-a2-w1 single-a2-w0-loadsfirst; do
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/gemm.mlir" "$DEV/bundles/$s" \
    --schedule "$DEV/schedules/$s.json" "${FLAGS[@]}"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
