#!/usr/bin/env bash
# On the build machine: the bundles that check rows swizzled by 64 and 32 bytes on a GPU
# (DescType::getLoadBoxShape, wgmma's 64B/32B layout types) into .dev/swizzle: the swizzle
# variants of test/variants/make_variants.py (K steps of 32 and 16, an N-major B and a stored
# tile of 96 columns, FP8 K steps of 64, attention head dims 96 and 32) at their partial-tile
# sizes, and, for speed, attention d96 at B4 H16 S8192 and the 128x256 GEMM with K steps of 32
# and 64 at 8192^3.
#   bench/swizzle/prepare.sh      then on the GPU host: bash bench/swizzle/run-on-gpu.sh OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/swizzle
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
source "$ROOT/bench/lib/bundle.sh"
python3 "$ROOT/test/variants/make_variants.py" "$WORK/ir" --set ci > /dev/null
for f in "$WORK"/ir/*_bk*.mlir "$WORK"/ir/attn_d96_*.mlir "$WORK"/ir/attn_d32_*.mlir "$WORK"/ir/*_128x96_*.mlir; do
  n=$(basename "$f" .mlir)
  case $n in
    gemm*) compile_bundle "$n" "$f" --size M=1000 --size N=1048 --size K=528 ;;
    *) compile_bundle "$n" "$f" --size B=2 --size H=8 --size S=1000 ;;
  esac
done
compile_bundle big-attn-d96 "$WORK/ir/attn_d96_bn128_bm128w2_bf16_bf16_none_default.mlir" \
  --size B=4 --size H=16 --size S=8192
compile_bundle big-gemm-bk32 "$WORK/ir/gemm_bf16_aK_bK_none_bf16_128x256_ws_ahead2_bk32.mlir" \
  --size M=8192 --size N=8192 --size K=8192
compile_bundle big-gemm-bk64 "$WORK/ir/gemm_bf16_aK_bK_none_bf16_128x256_ws_ahead2.mlir" \
  --size M=8192 --size N=8192 --size K=8192
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"; ls "$DEV/bundles" | wc -l
