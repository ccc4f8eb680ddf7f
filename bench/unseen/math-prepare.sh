#!/usr/bin/env bash
# Build machine: the math with no PTX instruction (libdevice: erf, erfc, sin, cos, tan, asin,
# acos, atan, atan2, sinh, cosh, asinh, acosh, atanh, expm1, log1p, log10, cbrt, powf, remf)
# and the exact ones added with it (copysign, roundeven, isnan), verified on the GPU against
# the reference (libdevice's f64 functions) and predicted before the run:
#   gemm_gelu_erf.mlir   the exact GELU (nn.GELU()'s default) after a 128x128 GEMM;
#   gemm_math_zoo.mlir   every function of the accumulator summed, f32 out;
#   gelu_attention.mlir  erf inside the pipelined loop (GELU attention, head dim 64);
#   test/Inputs/unseen/sin.mlir  sin of the accumulator every iteration (one CTA).
#   bash bench/unseen/math-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-math OUT  (carry .dev/unseen-math)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-math
mkdir -p "$DEV/ir"
M=$ROOT/bench/unseen/math-2026-11-28
named_bundle gelu-erf-4096 "$M/gemm_gelu_erf.mlir"
named_bundle gelu-erf-partial "$M/gemm_gelu_erf.mlir" --size=M=1000 --size=N=1048 --size=K=528
named_bundle math-zoo "$M/gemm_math_zoo.mlir" --size=M=2048 --size=N=2048 --size=K=1024
named_bundle gelu-attention "$M/gelu_attention.mlir" --size=B=4 --size=H=32 --size=S=4096
named_bundle gelu-attention-partial "$M/gelu_attention.mlir" --size=B=2 --size=H=4 --size=S=1000
named_bundle sin-in-loop "$ROOT/test/Inputs/unseen/sin.mlir"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
