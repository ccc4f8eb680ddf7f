#!/usr/bin/env bash
# Build machine: tile.store in the pipelined loop (2026-11-28) on the GPU against the IR
# reference, predicted before the run: a SiLU stream storing a tile and its row sums every
# iteration (test/Inputs/unseen/stream-store.mlir) at 2^20 rows and 1000003, and a low-rank
# up-projection looping over Y's columns, a K = 64 dot and a store each (lora-up.mlir) at
# 16384x8192 and 1000x1048.
#   bash bench/unseen/loop-store-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/loop-store OUT  (carry .dev/loop-store)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev loop-store
mkdir -p "$DEV/ir"
U=$ROOT/test/Inputs/unseen
named_bundle stream-store-1048576 "$U/stream-store.mlir"
named_bundle stream-store-1000003 "$U/stream-store.mlir" --size=R=1000003
named_bundle lora-up-16384 "$U/lora-up.mlir"
named_bundle lora-up-partial "$U/lora-up.mlir" --size=M=1000 --size=N=1048
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
