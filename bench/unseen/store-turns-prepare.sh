#!/usr/bin/env bash
# Build machine: stores with the same panels that share element-wise math stored panel by panel
# in turn (ConsumerLoop.cpp, emitStoreGroup; the fifth sweep's B2): every bundled and held-out
# loop whose kernel.ptx it changes, each compiled by the compiler checked out now as NAME--TAG,
# so that two compilers' bundles run side by side in one call (TAG before:
# STAGECRAFT_COMPILE=<a build of 96c3fd7> for the previous compiler).
#   bash bench/unseen/store-turns-prepare.sh TAG [--fresh]
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/store-turns OUT
#             (carry .dev/store-turns)
set -euo pipefail
HERE=$(dirname "$0")
TAG=${1:?TAG}
FRESH=${2:-}
CHANGED=(
  assets/fp8_gemm_promoted_split.mlir
  test/Inputs/unseen/two-stores-shared-exp.mlir
  test/Inputs/unseen/two-stores-shared.mlir
  bench/unseen/expanded-2026-11-28/ops_expanded.mlir
  bench/unseen/fp8-out-2026-11-28/fp8_store_small.mlir
  bench/unseen/sweep-2026-11-28d/e10_128x256_pre_and_gelu.mlir
  bench/unseen/sweep-2026-11-28d/p05_pp_128x128_two_out_f16.mlir
  bench/unseen/sweep-2026-11-28e/g23_128x256_two_chains_three_stores.mlir
  bench/unseen/sweep-2026-11-28e/g28_128x256_fp8_gemm_fp8_outs_amax.mlir
  bench/unseen/sweep-2026-11-28e/s1_control_sigmoid_twice_128x256.mlir
  bench/unseen/sweep-2026-11-28e/s1_sigmoid_and_sigmoid_tanh_128x256.mlir
  bench/unseen/sweep-2026-11-28e/x08_128x256_sigmoid_and_silu_shared.mlir
  bench/unseen/sweep-2026-11-28e/x08b_128x128_sigmoid_and_silu_shared.mlir
)
bash "$HERE/two-compilers-prepare.sh" store-turns "$TAG" $FRESH "${CHANGED[@]}"
