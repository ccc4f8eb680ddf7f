#!/usr/bin/env bash
# Here (the build machine, with MLIR and ptxas): export the kernels that
# run-on-gpu.sh checks on a GPU host into .dev/export/ (carry that directory).
#   bench/export/make-packages.sh [BUILD_DIR]
#
#   attn        attention d128, the tuned schedule cp-dot1-s3 (the best measured)
#   attn_causal attention d128 causal, cp-dot1-s3
#   attn_d64    attention d64, the IR's default schedule
#   gemm        GEMM 128x256 tiles, the IR's default schedule
#   fp8_gemm    FP8 GEMM (e4m3 A and B, per-tensor scales, bf16 C), the IR's default schedule
#   fp8_out     FP8 GEMM with an e4m3 output (bench/unseen/fp8-out-2026-11-28)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
OUT=$ROOT/.dev/export
COMPILE=$BUILD/bin/stagecraft-compile
mkdir -p "$OUT"
S=$ROOT/assets/schedules/attention_cp_dot1_s3.json
"$COMPILE" -q "$ROOT/assets/attention_fwd_d128.mlir" --schedule "$S" --export "$OUT/attn"
"$COMPILE" -q "$ROOT/assets/attention_fwd_d128_causal.mlir" --schedule "$S" --export "$OUT/attn_causal"
"$COMPILE" -q "$ROOT/assets/attention_fwd_d64.mlir" --export "$OUT/attn_d64"
"$COMPILE" -q "$ROOT/assets/gemm.mlir" --export "$OUT/gemm"
"$COMPILE" -q "$ROOT/assets/fp8_gemm.mlir" --export "$OUT/fp8_gemm"
"$COMPILE" -q "$ROOT/bench/unseen/fp8-out-2026-11-28/fp8_gemm_e4m3_out.mlir" --export "$OUT/fp8_out"
for p in attn attn_causal attn_d64 gemm fp8_gemm fp8_out; do
  echo "$p: $(python3 -c "import json; print(json.load(open('$OUT/$p/signature.json'))['steady_state'])")"
done
echo "exported to $OUT; on the GPU host: bench/export/run-on-gpu.sh (carry .dev/export)"
