#!/usr/bin/env bash
# Build machine: a persistent kernel's zero-started accumulators defined at each tile's start
# (ConsumerLoop.cpp, emitKernelLoop; the fifth sweep's B3 spills): every bundled and held-out
# loop whose kernel.ptx it changes (all persistent), each compiled by the compiler checked out
# now as NAME--TAG, so that two compilers' bundles run side by side in one call (TAG before:
# STAGECRAFT_COMPILE=<a build of 7bfefd6> for the previous compiler).
#   bash bench/unseen/tile-acc-init-prepare.sh TAG [--fresh]
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/tile-acc-init OUT
#             (carry .dev/tile-acc-init)
set -euo pipefail
HERE=$(dirname "$0")
TAG=${1:?TAG}
FRESH=${2:-}
CHANGED=(
  assets/persistent_gemm.mlir
  assets/persistent_gemm_cluster.mlir
  assets/persistent_gemm_grouped.mlir
  assets/persistent_gemm_pingpong.mlir
  assets/persistent_gemm_pingpong_64x256.mlir
  test/Inputs/unseen/persistent-pingpong-residual.mlir
  test/Inputs/unseen/pingpong-colreduce.mlir
  bench/unseen/epilogue-panels-2026-11-28/pp_fp8_masked_residual.mlir
  bench/unseen/sweep-2026-11-28/p01_persistent_192x128_bias.mlir
  bench/unseen/sweep-2026-11-28b/g19_persistent_128x192_bias_silu.mlir
  bench/unseen/sweep-2026-11-28b/g20_pingpong_128x64_k128_f16.mlir
  bench/unseen/sweep-2026-11-28c/p01-pingpong-bias-silu-tails.mlir
  bench/unseen/sweep-2026-11-28c/p02b-pingpong-alpha-beta-s1.mlir
  bench/unseen/sweep-2026-11-28c/p05-persistent-amajor-bnmajor.mlir
  bench/unseen/sweep-2026-11-28d/p01_pers_128x128_res_tails.mlir
  bench/unseen/sweep-2026-11-28d/p02_pp_128x128_bias_silu_res.mlir
  bench/unseen/sweep-2026-11-28d/p04_pers_128x256_res_s1.mlir
  bench/unseen/sweep-2026-11-28d/p05_pp_128x128_two_out_f16.mlir
  bench/unseen/sweep-2026-11-28d/p06_pers_rowsum_ktail.mlir
  bench/unseen/sweep-2026-11-28d/p07_pers_staggered_128x256.mlir
  bench/unseen/sweep-2026-11-28d/p08_pp_128x64_res_f32.mlir
  bench/unseen/sweep-2026-11-28e/m_pp_acc_store_and_reduce.mlir
  bench/unseen/sweep-2026-11-28e/m_pp_store_and_reduce.mlir
  bench/unseen/sweep-2026-11-28e/p12_pers_128x24_narrow.mlir
  bench/unseen/sweep-2026-11-28e/s2_pers_128x256_gelu_and_rowsum.mlir
)
bash "$HERE/two-compilers-prepare.sh" tile-acc-init "$TAG" $FRESH "${CHANGED[@]}"
