#!/usr/bin/env bash
# Build machine: every loop of the seventh held-out sweep (bench/unseen/sweep-2026-11-29, a
# helper's, compiled but never run) at its default sizes and, where they compile, at sizes one
# tail lower, by the compiler checked out now; those it refuses are listed.
#   bash bench/unseen/sweep7-prepare.sh
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/sweep7 OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev sweep7
S=$ROOT/bench/unseen/sweep-2026-11-29
for ir in "$S"/*.mlir; do
  stem=$(basename "$ir" .mlir)
  named_bundle "$stem" "$ir" > /dev/null 2>&1 || { echo "refused: $stem"; continue; }
  # A tail: every size of 256 or more lowered by 16 (16-byte rows stay aligned), kept only
  # where the compiler takes it.
  sizes=$(python3 -c "import re,sys; m=re.search(r'tile\.defaults\s*=\s*\{([^}]*)\}', open(sys.argv[1]).read()); print(' '.join('--size=%s=%d' % (k, int(v) - 16 if int(v) >= 256 else int(v)) for k, v in re.findall(r'(\w+)\s*=\s*(-?\d+)\s*:\s*i64', m.group(1))) if m else '')" "$ir")
  # shellcheck disable=SC2086
  bundle "$ir" "$DEV/bundles/$stem--tail" $sizes > /dev/null 2>&1 || echo "tail refused: $stem"
done
find "$DEV" -name kernel.ptx -delete
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl" || true
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
