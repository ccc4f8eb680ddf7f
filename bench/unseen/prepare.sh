#!/usr/bin/env bash
# Loops none of the assets contains, through the tools a user runs: compiled here
# into .dev/unseen, verified and timed on the GPU host by bench/unseen/run-on-gpu.sh.
#   swiglu_dual_gemm.mlir: two dots sharing A (two accumulators), a SwiGLU epilogue
#   (exp, a divide) and a residual loaded before the loop; at a full and a partial size,
#   under the IR's schedule and with the first dot's group kept in flight (wait 1).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/unseen
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
U=$ROOT/bench/unseen
cat > "$WORK/wait1.json" <<'JSON'
{"kernel": "", "ops": [{"name": "gate", "stage": 2, "order": 0, "group": 1, "wait": 1},
                       {"name": "up", "stage": 2, "order": 1, "group": 1, "wait": 1}]}
JSON
source "$ROOT/bench/lib/bundle.sh"
bundle() { compile_bundle "$@"; } # name mlir [compile args...]
bundle swiglu-4096 "$U/swiglu_dual_gemm.mlir"
bundle swiglu-partial "$U/swiglu_dual_gemm.mlir" --size M=1000 --size N=1048 --size K=528
bundle swiglu-wait1-4096 "$U/swiglu_dual_gemm.mlir" --schedule "$WORK/wait1.json"
bundle swiglu-wait1-partial "$U/swiglu_dual_gemm.mlir" --schedule "$WORK/wait1.json" \
  --size M=1000 --size N=1048 --size K=528
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
ls "$DEV/bundles"
