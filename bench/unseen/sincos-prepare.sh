#!/usr/bin/env bash
# Build machine: sin and cos of arguments up to 1e7 (test/Inputs/unseen/sincos-large.mlir, its
# input's range declared by tile.init), by the compiler checked out now, at its default size and
# a tail; and the first random-schedule batch's sin loop for comparison.
#   bash bench/unseen/sincos-prepare.sh
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/sincos OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev sincos
U=$ROOT/test/Inputs/unseen
named_bundle sincos-large "$U/sincos-large.mlir"
bundle "$U/sincos-large.mlir" "$DEV/bundles/sincos-large--tail" --size=R=65500
named_bundle sin "$U/sin.mlir"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
