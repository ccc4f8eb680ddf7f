#!/usr/bin/env bash
# On the GPU host (after bench/swizzle/prepare.sh; carry .dev/swizzle): every bundle verified
# against its IR reference, ROUNDS (default 3) rounds; OUT_DIR/results.jsonl and table.md.
#   bench/swizzle/run-on-gpu.sh OUT_DIR
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
exec bash "$ROOT/bench/lib/run-bundles.sh" "$ROOT/.dev/swizzle" "${1:?OUT_DIR}"
