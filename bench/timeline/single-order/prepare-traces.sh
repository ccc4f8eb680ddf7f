#!/usr/bin/env bash
# Build machine: the single-order bundles (prepare.sh's schedules) with their instrumented
# kernels, every 7th CTA recording (293 of the 2048 CTAs at 8192^3), into
# .dev/single-order-traces with the runner. What it is for: the share of CTAs in each of the
# single-group order's two modes (bench/results/single-order-h100-2026-11-27: four sampled
# CTAs settled at 716-728 or 860-950 ns an iteration).
#   then, on the GPU host: bash bench/timeline/single-order/traces-on-gpu.sh "$OUT"   (carry .dev/single-order-traces)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/single-order-traces
rm -rf "$DEV" && mkdir -p "$DEV/schedules"
python3 - "$ROOT" "$DEV/schedules" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "bench", "timeline"))
import calibrate
for name in ("ws-a2-w0", "single-a2-w0", "single-a2-w1", "single-a2-w0-loadsfirst"):
    with open(os.path.join(sys.argv[2], name + ".json"), "w") as f:
        json.dump(calibrate.single_order_schedule(name), f)
PY
for s in ws-a2-w0 single-a2-w0 single-a2-w1 single-a2-w0-loadsfirst; do
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/gemm.mlir" "$DEV/$s" \
    --schedule "$DEV/schedules/$s.json" --with-timeline --timeline-ctas=293 --timeline-capacity=512
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
