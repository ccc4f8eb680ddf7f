#!/usr/bin/env bash
# Build machine: stagecraft-compile's L2 promotion (128B since bench/results/ncu-promotion-
# h100-2026-11-28) against the 256B it wrote before, on the assets at their default sizes
# under their own schedules (NAME--l2-128B as compiled, NAME--l2-256B the same bundle with
# every descriptor's promotion set back); and the GEMMs at 8000x8064x4000 (8000-byte rows,
# where 256B cost 9-25%) as compiled now: bench/gemm/sweep.py's schedules (sweep-ASSET--NAME--
# 8000x8064x4000) and the persistent and scaled GEMMs (ASSET--8000x8064x4000).
#   bash bench/timeline/ncu/promotion-check-prepare.sh        # .dev/promotion-check, .dev/odd-sizes
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/promotion-check OUT1
#             ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/odd-sizes OUT2
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev promotion-check
for a in gemm gemm_128x128 fp8_gemm mxfp8_gemm persistent_gemm persistent_gemm_grouped \
         persistent_gemm_cluster persistent_gemm_pingpong attention_fwd_d64 attention_fwd_d128 \
         attention_fwd_d128_causal persistent_attention_fwd_d128; do
  bundle "$ROOT/assets/$a.mlir" "$DEV/bundles/$a--l2-128B"
  cp -r "$DEV/bundles/$a--l2-128B" "$DEV/bundles/$a--l2-256B"
  python3 - "$DEV/bundles/$a--l2-256B/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for p in m["params"]:
    if p.get("kind") == "tensormap":
        assert p["l2_promotion"] == "128B", p["l2_promotion"]
        p["l2_promotion"] = "256B"
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
fresh_dev odd-sizes
mkdir -p "$DEV/schedules"
python3 - "$ROOT" "$DEV/schedules" <<'PY'
import importlib.util, json, os, sys
root, out = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("gemm_sweep", os.path.join(root, "bench", "gemm", "sweep.py"))
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
for asset in m.ASSETS:
    for name, sched in m.variants(asset):
        if name != "unpipelined":
            with open(os.path.join(out, f"{asset}--{name}.json"), "w") as f:
                json.dump(sched, f)
PY
for s in "$DEV"/schedules/*.json; do
  name=$(basename "$s" .json)
  bundle "$ROOT/assets/${name%%--*}.mlir" "$DEV/bundles/sweep-$name--8000x8064x4000" --schedule "$s" \
    --size M=8000 --size N=8064 --size K=4000 2>/dev/null || echo "refused: $name"
done
for a in persistent_gemm persistent_gemm_grouped persistent_gemm_cluster persistent_gemm_pingpong \
         persistent_gemm_pingpong_64x256 fp8_gemm mxfp8_gemm; do
  bundle "$ROOT/assets/$a.mlir" "$DEV/bundles/$a--8000x8064x4000" --size M=8000 --size N=8064 --size K=4000
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$ROOT/.dev/promotion-check" "$DEV"
