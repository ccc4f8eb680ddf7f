#!/usr/bin/env bash
# Build machine: a survey of the SM clock under load for the timeline model's power clock
# (bench/timeline/ncu/power_clock.py): kernels of like tensor-pipe activity and unlike DRAM
# traffic. The persistent kernels in four tile orders (bench/timeline/tile-order), the two GEMMs
# in three rasters (bench/timeline/tpc-raster), the 128x128 GEMM with its loads three and four ahead, the fp8
# GEMM. (The row-major persistent GEMM ran at 1.42 GHz with 2.3 TB/s of DRAM traffic where the
# grouped order ran at 1.58 with 1.2: bench/results/ncu-persistent-h100-2026-11-27.)
#   bash bench/timeline/ncu/clocks-prepare.sh                                  # .dev/ncu-clocks
#   GPU host: CLOCKS=1 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-clocks OUT   (carry it)
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-clocks
for a in persistent_gemm persistent_gemm_pingpong persistent_attention_fwd_d128; do
  for o in row-major column-major grouped:4 grouped:8; do
    bundle "$ROOT/assets/$a.mlir" "$DEV/bundles/order-$a--${o/:/}" --tile-order "$o"
  done
done
for a in gemm gemm_128x128; do
  for r in rows columns apart; do raster_bundle "$a" "$r"; done
done
for s in ws-ahead3-wait1 ws-ahead4-wait0; do sched_bundle gemm_128x128 "$s"; done
bundle "$ROOT/assets/fp8_gemm.mlir" "$DEV/bundles/fp8_gemm"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
