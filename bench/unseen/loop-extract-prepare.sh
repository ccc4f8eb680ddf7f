#!/usr/bin/env bash
# Build machine: tensor.extract in the pipelined loop of a tile loaded once (2026-11-28), on the
# GPU against the IR reference, predicted before the run:
#   paged attention (test/Inputs/unseen/paged-attention.mlir): key block j of head bh is page
#     PT[bh, j / 128] of a paged K/V cache; the page table holds random pages of the whole cache
#     (init uniform over [0, pages)), at B4 H32 S4096 and B2 H4 S1000 (its last page partial);
#   a per-K-block scale (test/Inputs/unseen/kblock-scale.mlir) read by the consumers, scales in
#     [0.5, 2), at 4096x4096x8192 and 1000x1048x528;
#   i32 descriptors (later the same day): the paged attention with an i32 page table
#     (paged-attention-i32.mlir) and document masking by i32 ids of the queries and of each key
#     block (document-mask.mlir: ids in 0..3, a producer ring of i32 vectors, i32 tiles compared).
#   bash bench/unseen/loop-extract-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/loop-extract OUT  (carry .dev/loop-extract)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev loop-extract
mkdir -p "$DEV/ir"
U=$ROOT/test/Inputs/unseen
one() { # NAME IR TENSOR LOW HIGH [compile args...]: the bundle, TENSOR's init uniform [LOW, HIGH)
  local name=$1 ir=$2 tensor=$3 low=$4 high=$5
  shift 5
  named_bundle "$name" "$ir" "$@"
  python3 - "$DEV/bundles/$name--default/manifest.json" "$tensor" "$low" "$high" <<'PY'
import json, sys
path, name, low, high = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
m = json.load(open(path))
t = next(t for t in m["tensors"] if t["name"] == name)
t["init"] = {"kind": "uniform", "low": low, "high": high, "seed": t["init"]["seed"]}
json.dump(m, open(path, "w"), indent=1)
PY
}
# Pages of 128 rows: B*H*S/128 of them (4096; 62.5 at the partial size, the last one partial).
one paged-4096 "$U/paged-attention.mlir" in3 0 4095.99 --size=B=4 --size=H=32 --size=S=4096
one paged-partial "$U/paged-attention.mlir" in3 0 62.49 --size=B=2 --size=H=4 --size=S=1000
one kscale-4096 "$U/kblock-scale.mlir" in2 0.5 2
one kscale-partial "$U/kblock-scale.mlir" in2 0.5 2 --size=M=1000 --size=N=1048 --size=K=528
one paged-i32-4096 "$U/paged-attention-i32.mlir" in3 0 4096 --size=B=4 --size=H=32 --size=S=4096
one docmask-4096 "$U/document-mask.mlir" in3 0 4 --size=B=4 --size=H=32 --size=S=4096
python3 - "$DEV/bundles/docmask-4096--default/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
t = next(t for t in m["tensors"] if t["name"] == "in4")
t["init"] = {"kind": "uniform", "low": 0, "high": 4, "seed": t["init"]["seed"]}
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
one docmask-partial "$U/document-mask.mlir" in3 0 4 --size=B=2 --size=H=4 --size=S=1000
python3 - "$DEV/bundles/docmask-partial--default/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
t = next(t for t in m["tensors"] if t["name"] == "in4")
t["init"] = {"kind": "uniform", "low": 0, "high": 4, "seed": t["init"]["seed"]}
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
