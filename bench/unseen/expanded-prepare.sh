#!/usr/bin/env bash
# Build machine: the ops both lowerings take expanded by MLIR's own patterns
# (passes/Lowering/Normalize.cpp: math.clampf, math.fpowi, math.sincos, arith.ceildivsi /
# floordivsi on tiles) and the integer bit counts (math.ctpop, ctlz, cttz, absi), verified on
# the GPU against the reference and predicted before the run:
#   gemm_relu6_sq.mlir  a 128x128 GEMM, clampf + fpowi epilogue (bf16) and sin + cos (f32);
#   ops_expanded.mlir   every one of them on one small kernel, clampf in the pipelined loop.
#   scalar_math.mlir    clampf, fpowi, sincos, ctpop, absi on scalars (a per-program factor).
#   bash bench/unseen/expanded-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-expanded OUT  (carry .dev/unseen-expanded)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-expanded
E=$ROOT/bench/unseen/expanded-2026-11-28
named_bundle relu6-sq-4096 "$E/gemm_relu6_sq.mlir" --size=M=4096 --size=N=4096 --size=K=4096
named_bundle relu6-sq-partial "$E/gemm_relu6_sq.mlir" --size=M=1000 --size=N=1048 --size=K=520
named_bundle ops-expanded "$E/ops_expanded.mlir"
named_bundle ops-expanded-partial "$E/ops_expanded.mlir" --size=N=1000
named_bundle scalar-math "$E/scalar_math.mlir" --size=N=1024
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
