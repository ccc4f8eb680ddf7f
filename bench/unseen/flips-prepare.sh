#!/usr/bin/env bash
# Build machine: flips near ties (docs/runner-protocol.md, verification) and the IR reference's
# watchdog allowance (reference.flops), by the compiler checked out now.
#   bash bench/unseen/flips-prepare.sh
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/flips OUT   (and .dev/flips2)
#             ROUNDS=1 RUN_ARGS="--watchdog 1" bash bench/timeline/run-bundles-on-gpu.sh .dev/flips-watchdog OUT2
# flips: the seventh sweep's row argmax (k30) at its default size and the tail that failed
# (M = 1000, N = 200, K = 136), a copy made wrong on purpose (its column indices from the row
# offset: must fail), and math.floor of a dot's sums.
# flips-watchdog: the fuzzer's persistent loop over M xor 128 row tiles at M = 256, N = K = 6144
# (384 row tiles, 3.7 TFLOP executed by the reference, 19 GFLOP useful) run with a 1 s
# watchdog: the useful count allowed 0.04 s more, the reference's own 7.4 s.
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev flips
K30=$ROOT/bench/unseen/sweep-2026-11-29/k30_gemm_row_argmax_epilogue.mlir
WRONG=$ROOT/bench/unseen/flips-2026-11-29/k30_wrong_column_offset.mlir
named_bundle k30 "$K30"
bundle "$K30" "$DEV/bundles/k30--tail" --size=M=1000 --size=N=200 --size=K=136
bundle "$K30" "$DEV/bundles/k30--tail4096" --size=M=4096 --size=N=200 --size=K=136
named_bundle k30-wrong "$WRONG" --size=M=1000 --size=N=200 --size=K=136
named_bundle floor "$ROOT/test/Inputs/unseen/floor.mlir"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
FLIPS=$DEV
fresh_dev flips-watchdog
named_bundle xor "$ROOT/test/Inputs/unseen/persistent-xor-tiles.mlir" --size=M=256 --size=N=6144 --size=K=6144
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$FLIPS" "$DEV"
# Second run: the size whose argmax missed on the H200 (bench/results/sweep7-h200-2026-11-29),
# and a wrong *kernel*: the wrong copy's bundle with the right IR's reference (same signature),
# so the kernel, not the IR, is wrong. The xor bundle is run by a runner built before
# reference.flops too (OLD_RUNNER: a copy of that stagecraft-run), for the comparison.
fresh_dev flips2
named_bundle k30 "$K30" --size=M=16368 --size=N=1008 --size=K=2032
bundle "$WRONG" "$DEV/bundles/k30-wrong-kernel--tail" --size=M=1000 --size=N=200 --size=K=136
cp "$FLIPS/bundles/k30--tail/reference.ptx" "$DEV/bundles/k30-wrong-kernel--tail/reference.ptx"
bundle "$WRONG" "$DEV/bundles/k30-wrong-kernel--default"
cp "$FLIPS/bundles/k30--default/reference.ptx" "$DEV/bundles/k30-wrong-kernel--default/reference.ptx"
# i32 outputs: the argmax stored as i32 (default and the sweep's size), column numbers (iota).
named_bundle argmax-i32 "$ROOT/test/Inputs/unseen/argmax-i32.mlir"
bundle "$ROOT/test/Inputs/unseen/argmax-i32.mlir" "$DEV/bundles/argmax-i32--tail" --size=M=16368 --size=N=1008 --size=K=2032
named_bundle i32-store "$ROOT/test/Inputs/unseen/i32-store.mlir"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
if [ -n "${OLD_RUNNER:-}" ]; then
  mkdir -p "$DEV/old/bundles" && cp -r "$ROOT/.dev/flips-watchdog/bundles/xor--default" "$DEV/old/bundles/"
  cp "$OLD_RUNNER" "$DEV/old/stagecraft-run"
fi
