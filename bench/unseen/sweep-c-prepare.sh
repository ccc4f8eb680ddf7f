#!/usr/bin/env bash
# Build machine: the third held-out sweep (2026-11-28c): a helper's loops written against the
# tools without the compiler's authors (bench/unseen/sweep-2026-11-28c/: MLA head dims 192/128,
# cross attention with other key lengths, decode, O + LSE + row max, a softmax temperature
# from a scalar, GEMMs in f16, M-major A and N-major B, K tails, 256K-long K, sums of two
# products, alpha/beta, per-128 K block scales, residual + RMSNorm, ping-pong and persistent
# with epilogues and tails, skinny 64x8 and 128x24 tiles, iota masks) and the two loops whose
# crashes it found (a carried value started from a loaded tile). Each at its IR's default sizes
# under its own schedule, predicted (bench/timeline/predict_bundles.py) before any GPU run:
# commit the predictions as bench/unseen/sweep-predictions-2026-11-28c.jsonl.
#   bash bench/unseen/sweep-c-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-sweep-c OUT  (carry .dev/unseen-sweep-c)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-sweep-c
for ir in "$ROOT"/bench/unseen/sweep-2026-11-28c/*.mlir; do
  named_bundle "$(basename "$ir" .mlir)" "$ir" || echo "refused: $(basename "$ir")"
done
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
