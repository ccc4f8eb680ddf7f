#!/usr/bin/env bash
# Build machine: one consumer against two, for Nsight Compute. Generated attention variants
# (test/variants/make_variants.py) with 64 query rows in one consumer warp group (bm64w1) and
# 128 rows in two (bm128w2), 128-key blocks, default schedule: head dim 64 without a mask,
# soft-capped, causal, and head dim 128; B4 H32 S8192 (head dim 128: H16). What
# it is for: a softmax's pace alone and what a second consumer adds, per kind of score math
# (bench/results/ncu-attention-h100-2026-11-27 has it for one kind in 64-key blocks).
#   bash bench/timeline/ncu/consumers-prepare.sh                        # .dev/ncu-consumers
#   GPU host: bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-consumers OUT   (carry it)
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-consumers
generate_variants
for kind in d64_bn128_@_bf16_bf16_none d64_bn128_@_bf16_bf16_softcap \
            d64_bn128_@_bf16_bf16_causal d128_bn128_@_bf16_bf16_none; do
  heads=32
  [ "${kind#d128}" != "$kind" ] && heads=16
  for rows in bm64w1 bm128w2; do
    v=attn_${kind/@/$rows}_default
    bundle "$VARS/$v.mlir" "$DEV/bundles/$v--big" --size=B=4 --size=H=$heads --size=S=8192
  done
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
