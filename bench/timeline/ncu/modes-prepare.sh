#!/usr/bin/env bash
# Build machine: the kernels whose profiled launch ran much longer than the runner's median in
# bench/results/ncu-clocks-h100-2026-11-27 (the column rasters), beside their row rasters and
# the 128x128 GEMM with its loads three and four ahead, for several launches each under Nsight
# Compute: whether a kernel's launches have two modes (and two DRAM traffics).
#   bash bench/timeline/ncu/modes-prepare.sh                                          # .dev/ncu-modes
#   GPU host: CLOCKS=1 LAUNCHES=6 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-modes OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-modes
for a in gemm gemm_128x128; do
  for r in rows columns; do raster_bundle "$a" "$r"; done
done
for s in ws-ahead3-wait1 ws-ahead4-wait0; do sched_bundle gemm_128x128 "$s"; done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
