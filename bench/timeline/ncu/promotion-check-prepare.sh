#!/usr/bin/env bash
# Build machine: 128B against 256B L2 promotion (bench/results/ncu-promotion-h100-2026-11-28) on
# the assets at their default sizes under their own schedules, every descriptor at 128B
# (NAME--l2-128B) and at 256B (NAME--l2-256B, what stagecraft-compile writes for these sizes,
# whose rows are multiples of 128 bytes apart); and the GEMMs at 8000x8064x4000 (8000-byte rows,
# where 256B cost 9-25%) with every descriptor at 128B (the compiler writes 128B for their
# operands, 256B for C's 16128-byte rows): bench/gemm/sweep.py's schedules (sweep-ASSET--NAME--
# 8000x8064x4000) and the persistent and scaled GEMMs (ASSET--8000x8064x4000).
#   bash bench/timeline/ncu/promotion-check-prepare.sh        # .dev/promotion-check, .dev/odd-sizes
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/promotion-check OUT1
#             ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/odd-sizes OUT2
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev promotion-check
for a in gemm gemm_128x128 fp8_gemm mxfp8_gemm persistent_gemm persistent_gemm_grouped \
         persistent_gemm_cluster persistent_gemm_pingpong attention_fwd_d64 attention_fwd_d128 \
         attention_fwd_d128_causal persistent_attention_fwd_d128; do
  bundle "$ROOT/assets/$a.mlir" "$DEV/$a"
  for p in 128B 256B; do with_promotion "$DEV/$a" "$DEV/bundles/$a--l2-$p" "$p"; done
  rm -rf "${DEV:?}/$a"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
fresh_dev odd-sizes
sweep_schedules gemm gemm_128x128
sweep_bundles "$DEV/bundles" 8000x8064x4000
for a in persistent_gemm persistent_gemm_grouped persistent_gemm_cluster persistent_gemm_pingpong \
         persistent_gemm_pingpong_64x256 fp8_gemm mxfp8_gemm; do
  bundle "$ROOT/assets/$a.mlir" "$DEV/bundles/$a--8000x8064x4000" --size M=8000 --size N=8064 --size K=4000
done
# As run: every descriptor at 128B (C too).
for b in "$DEV"/bundles/*; do
  with_promotion "$b" "$b.128B" 128B && rm -rf "$b" && mv "$b.128B" "$b"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$ROOT/.dev/promotion-check" "$DEV"
