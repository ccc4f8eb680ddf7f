#!/usr/bin/env bash
# Bundles whose SASS shows which register values the consumer's steady loop moves each
# iteration (the timeline model's carried moves, core/Timeline/SimPlan.cpp): the attention
# assets at head dims 64 and 128 under the default, cp-dot0-s2, cp-dot1-s3 and cp-mul-early
# schedules, and a generated 64-key-block variant under three of them.
#
#   here:  bash bench/timeline/carried-moves/prepare.sh [DIR]        (default .dev/sass-moves)
#   there: bash bench/timeline/sass-on-gpu.sh $OUT/sass DIR/*         (carry DIR)
#   here:  python3 bench/timeline/carried-moves/sass_loops.py SASS_DIR/*.kernel.sass
set -eu -o pipefail
. "$(dirname "$0")/../prepare-lib.sh"
cd "$ROOT"
DIR=${1:-.dev/sass-moves}
BIN=${STAGECRAFT_BIN:-build/bin}
rm -rf "$DIR" && mkdir -p "$DIR"
for d in d64 d128; do
  for s in default cp_dot0_s2 cp_dot1_s3 cp_mul_early; do
    sched=()
    [ "$s" = default ] || sched=(--schedule "assets/schedules/attention_$s.json")
    "$BIN/stagecraft-compile" "assets/attention_fwd_$d.mlir" "${sched[@]}" -o "$DIR/$d-$s" -q
  done
done
generate_variants
for s in default cp_dot0_s2 cp_dot1_s3; do
  "$BIN/stagecraft-compile" "$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none_$s.mlir" -o "$DIR/bn64-$s" -q
done
# Only the cubins travel.
for b in "$DIR"/*; do rm -rf "$b/ir" "$b/kernel.ll" "$b/reference.ptx"; done
echo "bundles in $DIR"
