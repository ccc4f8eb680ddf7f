#!/usr/bin/env bash
# Build machine: which of 8000x8064x4000's odd sizes costs the GEMMs their L2 sharing
# (bench/results/ncu-dram-h100-2026-11-27: the 128x256 GEMM reads 1.60x the DRAM bytes a flop
# of the first wave's miss fractions there, 1.09x at 8192^3; the model predicts the plain
# GEMMs 10-13% and the row-major persistent GEMM 28% fast at that size, the grouped ones
# within 2%). The same schedules at sizes that change one thing at a time: K's row pitch
# (4096: 8192 bytes; 4032: 8064 bytes, a multiple of 128 with no partial box; 4064: 8128
# bytes, 64-byte aligned with a partial last box; 4000: 8000 bytes, 64-byte aligned, a partial
# box) and M, N (8000 x 8064: 63 tile rows, half a tile column for 256-wide tiles).
#   bash bench/timeline/ncu/sizes-prepare.sh                                           # .dev/ncu-sizes
#   GPU host: CLOCKS=1 LAUNCHES=3 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-sizes OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-sizes
sweep_schedules gemm:2:1 gemm_128x128:3:1
SIZES=(8192x8192x8192 8192x8192x4096 8192x8192x4032 8192x8192x4064 8192x8192x4000
       8000x8064x4096 8000x8064x4000)
for size in "${SIZES[@]}"; do sweep_bundles "$DEV/bundles" "$size"; done
for size in 8192x8192x4096 8192x8192x4000 8000x8064x4096 8000x8064x4000; do
  IFS=x read -r M N K <<< "$size"
  bundle "$ROOT/assets/persistent_gemm.mlir" "$DEV/bundles/persistent_gemm--$size" \
    --size M="$M" --size N="$N" --size K="$K"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
