#!/usr/bin/env bash
# Build machine: a loop without a producer warp group that carries a value its body never reads
# (test/Inputs/unseen/unread-carry-nows.mlir; it crashed the consumer emitter before 2026-11-28),
# at 2^20 rows and 1000003, for the GPU against the IR reference.
#   bash bench/unseen/unread-carry-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unread-carry OUT  (carry .dev/unread-carry)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unread-carry
named_bundle unread-carry-1048576 "$ROOT/test/Inputs/unseen/unread-carry-nows.mlir"
named_bundle unread-carry-1000003 "$ROOT/test/Inputs/unseen/unread-carry-nows.mlir" --size=R=1000003
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
