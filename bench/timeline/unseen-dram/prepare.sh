#!/usr/bin/env bash
# Build machine: a batched GEMM that no asset contains (bgemm.mlir: the batch on grid z, its
# own A and B per batch) at three shapes that read from DRAM more or less, compiled into
# .dev/unseen-dram/bundles with the runner, and the model's predictions beside them
# (predicted.txt). GPU host: bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-dram $OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/unseen-dram
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
: > "$DEV/predicted.txt"
for shape in "G=64 M=512 N=512 K=2048" "G=512 M=128 N=128 K=2048" "G=4 M=2048 N=2048 K=4096"; do
  args=() name=bgemm
  for kv in $shape; do args+=(--size "$kv"); name+="-${kv/=/}"; done
  "$(dirname "$0")/../compile-bundle.sh" "$(dirname "$0")/bgemm.mlir" "$DEV/bundles/$name" "${args[@]}"
  { echo "== $name"; "$ROOT/build/bin/stagecraft-timeline" "$(dirname "$0")/bgemm.mlir" "${args[@]}"; } >> "$DEV/predicted.txt"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
cat "$DEV/predicted.txt"
