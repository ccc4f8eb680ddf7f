#!/usr/bin/env bash
# Build machine: a survey of the DRAM traffic (and the SM clock) of kernels whose CTAs share
# boxes in different ways, for a model of the L2 beyond the first wave's miss fractions
# (bench/timeline/ncu/dram_traffic.py: the column rasters and the row-major persistent GEMM
# read 1.3-2.9x the bytes those fractions give). The persistent GEMMs with their program ids
# permuted (bench/timeline/cta-placement: which CTAs share a panel, the same tiles a round);
# the two GEMMs with their loads one to four stages ahead (bench/gemm/sweep.py's schedules:
# CTAs drift apart with four); the 128x256 GEMM at 8000x8064x4000 (not tile multiples).
#   bash bench/timeline/ncu/dram-prepare.sh                                         # .dev/ncu-dram
#   GPU host: CLOCKS=1 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-dram OUT    (carry it)
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-dram
for spec in "${PLACEMENTS[@]}"; do
  name=$(placed_ir "$spec")
  bundle "$DEV/ir/$name.mlir" "$DEV/bundles/$name"
done
# sweep-ASSET--(ws|single)-aheadN-waitW: bench/gemm/sweep.py's schedule (calibrate.py rebuilds it).
# The 128x256 tile's shared memory takes loads three ahead only with MMA wait 0.
sweep_schedules gemm:1:1 gemm:2:1 gemm:3:0 gemm_128x128:1:1 gemm_128x128:2:1 gemm_128x128:3:1 \
  gemm_128x128:4:1
for s in "$DEV"/schedules/*.json; do
  name=$(basename "$s" .json)
  asset=${name%%--*}
  bundle "$ROOT/assets/$asset.mlir" "$DEV/bundles/sweep-$name" --schedule "$s"
done
bundle "$ROOT/assets/gemm.mlir" "$DEV/bundles/sweep-gemm--ws-ahead2-wait1--8000x8064x4000" \
  --schedule "$DEV/schedules/gemm--ws-ahead2-wait1.json" --size M=8000 --size N=8064 --size K=4000
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
