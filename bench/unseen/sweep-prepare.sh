#!/usr/bin/env bash
# Build machine: a held-out test of the compiler and the timeline model on loops written by a
# helper trying new kernels against the tools (2026-11-28; bench/unseen/sweep-2026-11-28/:
# attention at head dims 32, 96, 256, soft-capped with a logsumexp and an extra running max,
# ALiBi in f16 with an f32 output, causal 64x64 on one warp group, variable lengths; GEMMs in
# 64x64, 64x192, 192x128 on three warp groups, 256x128, MN-major partial tiles, FP8 mixed
# e5m2 x e4m3 with a row scale, three dots, a row-sum second output, a column reduction,
# batched, a register-A ReLU, a lower-triangular mask from iota, split K, a persistent
# 192x128 with a bias, a row-norm stream with no dot, mx upcasts, block-scaled 64x256; and the
# three loops the sweep's fixes took in: a scalar select condition, left-over math, floor).
# Each at its IR's default sizes under its own schedule, compiled into .dev/unseen-sweep and
# predicted (bench/timeline/predict_bundles.py) before any GPU run: commit the predictions as
# bench/unseen/sweep-predictions-DATE.jsonl.
#   bash bench/unseen/sweep-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-sweep OUT  (carry .dev/unseen-sweep)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-sweep
mkdir -p "$DEV/ir"
for ir in "$ROOT"/bench/unseen/sweep-2026-11-28/*.mlir; do
  name=$(basename "$ir" .mlir | tr '_' '-')
  cp "$ir" "$DEV/ir/$name.mlir"
  bundle "$ir" "$DEV/bundles/$name--default" || echo "refused: $name"
done
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
