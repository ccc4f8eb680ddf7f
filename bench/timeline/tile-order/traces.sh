#!/usr/bin/env bash
# Measured timelines of the ping-pong GEMM in two tile orders (row-major: 498 TFLOP/s,
# grouped:8: 714, bench/results/tile-order-h100-2026-11-26), eight tiles deep on four CTAs (TILES=N: N tiles).
#   bench/timeline/tile-order/traces.sh prepare                        # build machine -> .dev/tile-order-traces
#   bench/timeline/tile-order/traces.sh run OUT                        # GPU host (carry .dev/tile-order-traces)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/tile-order-traces
case "${1:-}" in
prepare)
  rm -rf "$DEV" && mkdir -p "$DEV/bundles"
  for o in row-major grouped:8; do
    b=$DEV/bundles/pingpong--${o/:/}
    "$ROOT/build/bin/stagecraft-compile" "$ROOT/assets/persistent_gemm_pingpong.mlir" --tile-order "$o" \
      --with-timeline --timeline-tiles=${TILES:-8} -o "$b" -q
    rm -rf "$b/ir" "$b/kernel.ll" "$b/timeline.ll"
  done
  cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
  du -sh "$DEV" ;;
run)
  OUT=${2:?OUT}
  mkdir -p "$OUT"
  for b in "$DEV"/bundles/*; do
    n=$(basename "$b")
    "$DEV/stagecraft-run" "$b" --reps 20 --trace "$OUT/$n.measured.json" > "$OUT/$n.result.json" 2> "$OUT/$n.log" || true
    xz -f "$OUT/$n.measured.json" || true
  done ;;
*) echo "usage: $0 prepare | run OUT"; exit 2 ;;
esac
