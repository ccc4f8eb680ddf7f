#!/usr/bin/env bash
# On the GPU host (after bench/cluster/prepare.sh; carry .dev/cluster): ROUNDS (default 3)
# interleaved rounds of every bundle, each verified against its IR reference and timed beside
# cuBLAS in the same stagecraft-run process; OUT_DIR/results.jsonl and OUT_DIR/table.md.
#   bench/cluster/run-on-gpu.sh OUT_DIR
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
exec bash "$ROOT/bench/lib/run-bundles.sh" "$ROOT/.dev/cluster" "${1:?OUT_DIR}"
