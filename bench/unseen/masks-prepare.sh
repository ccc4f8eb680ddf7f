#!/usr/bin/env bash
# Build machine: the helper sweep's three attention masks at 128-key blocks that the register
# estimate refused before position math was counted as the lowering computes it (2026-11-28):
# sliding window + causal at head dim 128, prefix-LM and an integer-hash dropout at head dim 64
# (bench/unseen/sweep-2026-11-28b/x01-x03), on the GPU against the IR reference, predicted first.
#   bash bench/unseen/masks-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/masks OUT  (carry .dev/masks)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev masks
mkdir -p "$DEV/ir"
for ir in "$ROOT"/bench/unseen/sweep-2026-11-28b/x0[123]_*.mlir; do
  name=$(basename "$ir" .mlir)
  cp "$ir" "$DEV/ir/$name.mlir"
  bundle "$ir" "$DEV/bundles/$name--default"
done
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
