#!/usr/bin/env bash
# Build machine: the 128x128 GEMM at 8192^3 (4096 CTAs, 31 rounds of 132) with its loads three
# and four stages ahead (bench/timeline/schedules), every 7th CTA recording (585 CTAs, 18-19 in
# each round of the launch), into .dev/wave-spans with the runner. What the traces show: in
# which rounds of the launch the loads four stages ahead lose their 20% (the sampled CTAs of
# the first round iterate as fast as with three: bench/results/unit-start-traces-h100-2026-11-26).
#   bash bench/timeline/wave-spans/prepare.sh
#   GPU host: bash bench/timeline/wave-spans/on-gpu.sh OUT      (carry .dev/wave-spans)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/wave-spans
rm -rf "$DEV" && mkdir -p "$DEV"
for s in ws-ahead3-wait1 ws-ahead4-wait0; do
  "$ROOT/build/bin/stagecraft-compile" "$ROOT/assets/gemm_128x128.mlir" \
    --schedule "$ROOT/bench/timeline/schedules/gemm_128x128--$s.json" \
    --size M=8192 --size N=8192 --size K=8192 --with-timeline --timeline-ctas=585 \
    --timeline-capacity=300 -o "$DEV/gemm_128x128--$s" -q
  rm -rf "$DEV/gemm_128x128--$s/ir" "$DEV/gemm_128x128--$s"/*.ll
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
