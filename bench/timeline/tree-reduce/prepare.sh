#!/usr/bin/env bash
# Build machine: the attention consumers' row reductions pairwise (ReduceBroadcast.cpp) against
# one after another, A/B in one GPU call. "new-*": this tree's compiler with the patch in
# bench/results/tree-reduce-h100-2026-11-27/README.md applied (not on main: it lost); "old-*": the bundles of
# bench/timeline/ncu/prepare.sh built by a compiler before the change (commit 0421083), copied
# from OLD_DEV (default .dev/ncu, which that script fills).
#   bash bench/timeline/tree-reduce/prepare.sh [OLD_DEV]        # .dev/tree-reduce
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/tree-reduce OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
OLD=${1:-$ROOT/.dev/ncu}
NAMES=(bn64-default bn64-cp_dot1_s3-hold bn64-w1-default d64-default d64-cp_dot1_s3 d128-default
       d128-cp_dot1_s3)
for n in "${NAMES[@]}"; do
  [ -d "$OLD/bundles/$n" ] || { echo "no $OLD/bundles/$n (run bench/timeline/ncu/prepare.sh at 0421083)" >&2; exit 1; }
done
fresh_dev tree-reduce
generate_variants
v=$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none
bundle "${v}_default.mlir" "$DEV/bundles/new-bn64-default" "${BIG[@]}"
bundle "${v}_cp_dot1_s3.mlir" "$DEV/bundles/new-bn64-cp_dot1_s3-hold" "${BIG[@]}" --schedule "$HOLD"
bundle "$VARS/attn_d64_bn64_bm64w1_bf16_bf16_none_default.mlir" "$DEV/bundles/new-bn64-w1-default" "${BIG[@]}"
bundle "$ROOT/assets/attention_fwd_d64.mlir" "$DEV/bundles/new-d64-default"
bundle "$ROOT/assets/attention_fwd_d64.mlir" "$DEV/bundles/new-d64-cp_dot1_s3" --schedule "$S/attention_cp_dot1_s3.json"
bundle "$ROOT/assets/attention_fwd_d128.mlir" "$DEV/bundles/new-d128-default"
bundle "$ROOT/assets/attention_fwd_d128.mlir" "$DEV/bundles/new-d128-cp_dot1_s3" --schedule "$S/attention_cp_dot1_s3.json"
for n in "${NAMES[@]}"; do cp -r "$OLD/bundles/$n" "$DEV/bundles/old-$n"; done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
