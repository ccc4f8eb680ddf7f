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
mkdir -p "$DEV/schedules"
for spec in "${PLACEMENTS[@]}"; do
  name=$(placed_ir "$spec")
  bundle "$DEV/ir/$name.mlir" "$DEV/bundles/$name"
done
# sweep-ASSET--(ws|single)-aheadN-waitW: bench/gemm/sweep.py's schedule (calibrate.py rebuilds it).
python3 - "$ROOT" "$DEV/schedules" <<'PY'
import importlib.util, json, os, sys
root, out = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("gemm_sweep", os.path.join(root, "bench", "gemm", "sweep.py"))
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
# The 128x256 tile's shared memory takes loads three ahead only with MMA wait 0.
for asset, specs in (("gemm", ((1, 1), (2, 1), (3, 0))), ("gemm_128x128", ((1, 1), (2, 1), (3, 1), (4, 1)))):
    for a, w in specs:
        with open(os.path.join(out, f"{asset}--ws-ahead{a}-wait{w}.json"), "w") as f:
            json.dump(m.schedule(asset, a, w, True), f)
PY
for s in "$DEV"/schedules/*.json; do
  name=$(basename "$s" .json)
  asset=${name%%--*}
  bundle "$ROOT/assets/$asset.mlir" "$DEV/bundles/sweep-$name" --schedule "$s"
done
bundle "$ROOT/assets/gemm.mlir" "$DEV/bundles/sweep-gemm--ws-ahead2-wait1--8000x8064x4000" \
  --schedule "$DEV/schedules/gemm--ws-ahead2-wait1.json" --size M=8000 --size N=8064 --size K=4000
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
