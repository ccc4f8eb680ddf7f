#!/usr/bin/env bash
# Build machine: the kernels whose epilogue divides (attention's O / l, the dual GEMM's SiLU) or
# takes square roots (sqrt-variant.py)
# compiled by this build's stagecraft-compile into .dev/div-full/bundles/NAME-SUFFIX (SUFFIX
# "new" by default). Run it once with the build of the commit before the division change
# (SUFFIX=old) and once with this one, then on the GPU host:
#   ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/div-full OUT
# A GEMM whose epilogue does not divide is the control.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/div-full
SUFFIX=${SUFFIX:-new}
mkdir -p "$DEV/bundles"
compile() {  # NAME IR SCHEDULE-or-- SIZES...
  local name=$1 ir=$2 sched=$3; shift 3
  local args=()
  [ "$sched" != - ] && args+=(--schedule "$sched")
  for s in "$@"; do args+=(--size "$s"); done
  "$ROOT/build/bin/stagecraft-compile" "$ir" "${args[@]}" -o "$DEV/bundles/$name-$SUFFIX" -q
  rm -rf "$DEV/bundles/$name-$SUFFIX/ir" "$DEV/bundles/$name-$SUFFIX"/*.ll
}
A=$ROOT/assets
compile attn_d128 "$A/attention_fwd_d128.mlir" - B=4 H=16 S=8192
compile attn_d128_cp1 "$A/attention_fwd_d128.mlir" "$A/schedules/attention_cp_dot1_s3.json" B=4 H=16 S=8192
compile attn_d64 "$A/attention_fwd_d64.mlir" - B=4 H=32 S=8192
compile attn_d64_cp1 "$A/attention_fwd_d64.mlir" "$A/schedules/attention_cp_dot1_s3.json" B=4 H=32 S=8192
compile pattn_d128 "$A/persistent_attention_fwd_d128.mlir" - B=4 H=16 S=8192
compile swiglu_partial "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" - M=1000 N=1048 K=528
compile swiglu_4096 "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" - M=4096 N=4096 K=4096
compile gemm "$A/gemm.mlir" - M=8192 N=8192 K=8192
# An epilogue of square roots (sqrt-variant.py): IEEE sqrt.rn before, sqrt.approx after.
python3 "$(dirname "$0")/sqrt-variant.py" "$DEV/sqrt_variant.mlir"
compile sqrt_partial "$DEV/sqrt_variant.mlir" - M=1000 N=1048 K=528
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
