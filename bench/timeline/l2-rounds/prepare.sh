#!/usr/bin/env bash
# Build machine: a held-out test of the timeline model's L2 rounds (CostModel.h,
# l2HitLoadBytesPerCycle): launches of several rounds of CTAs whose operands the L2 holds
# (after the first round every load hits) beside the same kernels at sizes whose operands it
# does not hold. None of these sizes was measured before the model's change (2026-11-28);
# the predictions (DEV/predicted.jsonl, bench/timeline/predict_bundles.py) were committed
# before the runs as predictions-DATE.jsonl beside this script (README.md).
#   bash bench/timeline/l2-rounds/prepare.sh                                    # .dev/l2-rounds
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/l2-rounds OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev l2-rounds
generate_variants
# The GEMM assets under bench/gemm/sweep.py's schedules: 16 MB of operands in 8 and 31
# rounds, 32 MB in 8, 64 MB (not held) in 8.
sweep_schedules gemm_128x128:3:1 gemm_128x128:4:0 gemm:2:0
for size in 4096x4096x1024 8192x8192x512 4096x4096x4096; do
  sweep_bundles "$DEV/bundles" "$size"
done
rm -r "$DEV/schedules"
sweep_schedules gemm:2:0 gemm:2:1
sweep_bundles "$DEV/bundles" 8192x8192x1024
# Generated variants (their own schedules) at sizes of several rounds.
for v in gemm_bf16_aK_bK_none_bf16_64x128_ws_ahead2 gemm_bf16_aK_bK_none_bf16_64x128_one_group \
         gemm_bf16_aK_bK_none_bf16_128x128_ws_ahead2 gemm_f16_aK_bK_none_bf16_64x256_one_group; do
  for size in 2048x2048x2048 4096x4096x1024; do
    IFS=x read -r M N K <<< "$size"
    bundle "$VARS/$v.mlir" "$DEV/bundles/$v--M$M-N$N-K$K" --size M="$M" --size N="$N" --size K="$K"
  done
done
for v in attn_d64_bn64_bm128w2_bf16_bf16_none_default attn_d128_bn64_bm128w2_bf16_bf16_none_default; do
  bundle "$VARS/$v.mlir" "$DEV/bundles/$v--B2-H8-S2048" --size B=2 --size H=8 --size S=2048
  bundle "$VARS/$v.mlir" "$DEV/bundles/$v--B4-H16-S4096" --size B=4 --size H=16 --size S=4096
done
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
