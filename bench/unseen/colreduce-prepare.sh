#!/usr/bin/env bash
# Build machine: reductions over rows (tile.reduce dim = 0, 2026-11-28) on the GPU against the IR
# reference, predicted before the run: a GEMM's column sums and maxima after the loop with C less
# its column mean (test/Inputs/unseen/colsum.mlir), and column sums carried through the loop
# (colsum-loop.mlir), each at 4096^3 and 1000x1048x528; column sums and maxima of a 40-column
# stream with no dot (colsum-stream.mlir: the full butterfly), at 2^20 rows and 1000003.
#   bash bench/unseen/colreduce-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/colreduce OUT  (carry .dev/colreduce)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev colreduce
mkdir -p "$DEV/ir"
U=$ROOT/test/Inputs/unseen
for k in colsum colsum-loop; do
  cp "$U/$k.mlir" "$DEV/ir/$k-4096.mlir"
  cp "$U/$k.mlir" "$DEV/ir/$k-partial.mlir"
  bundle "$U/$k.mlir" "$DEV/bundles/$k-4096--default"
  bundle "$U/$k.mlir" "$DEV/bundles/$k-partial--default" --size=M=1000 --size=N=1048 --size=K=528
done
for r in 1048576 1000003; do
  cp "$U/colsum-stream.mlir" "$DEV/ir/colsum-stream-$r.mlir"
  bundle "$U/colsum-stream.mlir" "$DEV/bundles/colsum-stream-$r--default" --size=R=$r
done
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
