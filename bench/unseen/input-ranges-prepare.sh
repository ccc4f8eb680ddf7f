#!/usr/bin/env bash
# Build machine: the loops whose inputs are lengths, page numbers, ids, scales or a temperature,
# each declaring its inputs' range in the IR (tile.init, 2026-11-29): the default schedule and the
# fourth random-schedule batch's schedules of them (bench/unseen/random-schedules-2026-11-29d),
# compiled by the compiler checked out now; and an f32 output whose math shrinks its sums far
# below their terms (two-stores-shared-f32: the IR reference's second, reordered run) under its
# default and two schedules of the first batch, and a control (below). On the GPU each against
# its IR reference.
#   bash bench/unseen/input-ranges-prepare.sh
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/input-ranges OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev input-ranges
U=$ROOT/test/Inputs/unseen
R=$ROOT/bench/unseen/random-schedules-2026-11-29d
for ir in "$U/varlen.mlir" "$U/varlen-offset.mlir" "$U/varlen-lengths-offsets.mlir" \
          "$U/paged-attention.mlir" "$U/paged-attention-i32.mlir" "$U/document-mask.mlir" \
          "$U/kblock-scale.mlir" "$ROOT/bench/unseen/sweep-2026-11-28/a07_varlen_d96.mlir" \
          "$ROOT/bench/unseen/sweep-2026-11-28c/a05-temperature-scalar.mlir"; do
  stem=$(basename "$ir" .mlir)
  named_bundle "$stem" "$ir" || echo "refused: $stem"
  for s in "$R/$stem"--rs*.json; do
    [ -e "$s" ] || continue
    name=$(basename "$s" .json)
    # The batch's sizes, as its log wrote them: "sizes: {'B': 3, ...}" or "sizes: defaults".
    sizes=$(python3 -c "import ast,sys; l=open(sys.argv[1]).read().split('sizes: ')[1].strip(); print(' '.join('--size=%s=%d' % kv for kv in ({} if l == 'defaults' else ast.literal_eval(l)).items()))" "${s%.json}.txt")
    # shellcheck disable=SC2086
    bundle "$ir" "$DEV/bundles/$name" --schedule "$s" $sizes || echo "refused: $name"
  done
done
T=$U/two-stores-shared-f32.mlir
named_bundle two-stores-shared-f32 "$T"
for s in "$ROOT"/bench/unseen/random-schedules-2026-11-29/two-stores-shared-f32--rs*.json; do
  [ -e "$s" ] || continue
  bundle "$T" "$DEV/bundles/$(basename "$s" .json)" --schedule "$s" || echo "refused: $s"
done
# A control: the kernel of the same loop made wrong by 1e-3 (1.001 / (x^2 + 1.001)) against the
# right loop's reference: the reordered run must not hide it (verify_failed expected).
W=$DEV/ir/two-stores-shared-f32-wrong.mlir
sed 's/%k3 = arith.constant dense<1.0>/%k3 = arith.constant dense<1.001>/' "$T" > "$W"
bundle "$W" "$DEV/bundles/two-stores-shared-f32-wrong--control"
cp "$DEV/bundles/two-stores-shared-f32--default/reference.ptx" "$DEV/bundles/two-stores-shared-f32-wrong--control/"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
