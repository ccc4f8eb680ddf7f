#!/usr/bin/env bash
# Build machine: does a launch drift less when its CTAs are shorter? The 128x128 GEMM with its
# loads four ahead drifts in every launch at 8192^3 (bench/results/ncu-modes-h100-2026-11-27:
# 1.8x the DRAM bytes of its in-step sibling, loads three ahead), where the timeline model
# charges it from the launch's third round of CTAs; at 8000x8064x4000 it measured 5-14% faster
# than that charge (promotion-128b-h100-2026-11-28). The two schedules at K = 8192, 4096, 2048
# and 1024 (128, 64, 32 and 16 iterations a CTA), M = N = 8192.
#   bash bench/timeline/ncu/drift-k-prepare.sh                                            # .dev/drift-k
#   GPU host: CLOCKS=1 LAUNCHES=3 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/drift-k OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev drift-k
sweep_schedules gemm_128x128:3:1 gemm_128x128:4:0
for k in 8192 4096 2048 1024; do sweep_bundles "$DEV/bundles" "8192x8192x$k"; done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
