#!/usr/bin/env bash
# Build machine: short launches (where a CTA's start-up is a large part of the time) and two long
# controls, compiled by this build's stagecraft-compile into .dev/tensormap-prefetch/bundles/
# NAME-SUFFIX (SUFFIX "new" by default). Run it once with a build whose lowering does not
# prefetch the tensor maps (SUFFIX=old: the commit before `prefetch.tensormap` in
# WarpGroupFrame::emitSetup) and once with this one, then on the GPU host:
#   ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/tensormap-prefetch OUT
# The rounds run every bundle in turn, the two builds of a kernel one after the other.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/tensormap-prefetch
SUFFIX=${SUFFIX:-new}
V=$(mktemp -d)  # the generated GEMM variants' IR (not carried)
trap 'rm -rf "$V"' EXIT
mkdir -p "$DEV/bundles"
python3 "$ROOT/test/variants/make_variants.py" "$V" --set all > /dev/null
compile() {  # NAME IR SIZES...
  local name=$1 ir=$2; shift 2
  local args=()
  for s in "$@"; do args+=(--size "$s"); done
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ir" "$DEV/bundles/$name-$SUFFIX" "${args[@]}"
}
A=$ROOT/assets
for k in gemm_bf16_aK_bK_none_bf16_64x128_one_group gemm_bf16_aK_bK_none_bf16_64x128_ws_ahead2 \
         gemm_bf16_aK_bK_none_bf16_128x128_ws_ahead2 gemm_bf16_aK_bK_none_bf16_128x256_ws_ahead2; do
  for kk in 64 528; do
    compile "${k#gemm_bf16_aK_bK_none_bf16_}-K$kk" "$V/$k.mlir" M=1000 N=1048 K=$kk
  done
done
compile attn_d64-S1000 "$A/attention_fwd_d64.mlir" B=2 H=8 S=1000
compile attn_d128-S1000 "$A/attention_fwd_d128.mlir" B=2 H=8 S=1000
compile sigmoid-S1000 "$ROOT/bench/unseen/sigmoid_attention.mlir" B=2 H=8 S=1000
compile pgemm-M1000 "$A/persistent_gemm.mlir" M=1000 N=1048 K=528
compile attn_d64-S8192 "$A/attention_fwd_d64.mlir" B=4 H=32 S=8192
compile gemm-8192 "$A/gemm.mlir" M=8192 N=8192 K=8192
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
