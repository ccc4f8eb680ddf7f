#!/usr/bin/env bash
# Build machine: a store after the epilogue's first reads the loop's results through opaque
# copies (ConsumerLoop.cpp, readOpaque), so LLVM cannot merge its panel math with an earlier
# store's (the fifth sweep's B2 spills); and the store of a tile whose rows no swizzle divides
# (128x200 bf16) in 16-byte panels (the fifth sweep's g15f, wrong output).
# CHANGED: every bundled and held-out loop whose kernel.ptx the opaque reads change, each
# compiled by the compiler checked out now as NAME--TAG, so that two compilers' bundles run side
# by side in one call (TAG before: STAGECRAFT_COMPILE=<a build of c02c28a> for the previous
# compiler); NARROW (only with TAG != before): the sweep's narrow and partial-panel tiles.
#   bash bench/unseen/opaque-reads-prepare.sh TAG [--fresh]
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/opaque-reads OUT
#             (carry .dev/opaque-reads)
set -euo pipefail
HERE=$(dirname "$0")
TAG=${1:?TAG}
FRESH=${2:-}
E=bench/unseen/sweep-2026-11-28e
CHANGED=(assets/fp8_gemm_promoted_split.mlir
  bench/unseen/epilogue-panels-2026-11-28/n96_residual_gelu.mlir
  bench/unseen/epilogue-panels-2026-11-28/pp_fp8_masked_residual.mlir
  bench/unseen/epilogue-panels-2026-11-28/rowview_store.mlir
  bench/unseen/expanded-2026-11-28/gemm_relu6_sq.mlir
  bench/unseen/fp8-out-2026-11-28/fp8_store_small.mlir
  bench/unseen/sweep-2026-11-28c/g09b-residual-rmsnorm-n256-s1.mlir
  bench/unseen/sweep-2026-11-28c/x05-two-acc-different-n.mlir
  bench/unseen/sweep-2026-11-28d/e10_128x256_pre_and_gelu.mlir
  bench/unseen/sweep-2026-11-28d/e11_128x192_pre_f32_silu_f16.mlir
  bench/unseen/sweep-2026-11-28d/e13_64x256_f32res_f32out_2out.mlir
  bench/unseen/sweep-2026-11-28d/p05_pp_128x128_two_out_f16.mlir
  bench/unseen/sweep-2026-11-28d/x03_res_colmax_128x256.mlir
  $E/g23_128x256_two_chains_three_stores.mlir $E/g28_128x256_fp8_gemm_fp8_outs_amax.mlir
  $E/s1_control_sigmoid_twice_128x256.mlir $E/s1_sigmoid_and_sigmoid_tanh_128x256.mlir
  $E/x08_128x256_sigmoid_and_silu_shared.mlir $E/x08b_128x128_sigmoid_and_silu_shared.mlir
  test/Inputs/unseen/pingpong-colreduce.mlir
)
NARROW=($E/g15f_128x200_bf16.mlir $E/g15f_direct_bf16.mlir $E/g15f_direct_f32.mlir
  $E/g15_128x24_bf16_narrow.mlir $E/g15b_128x40_f16_narrow.mlir $E/g15c_64x56_bf16_narrow.mlir
  $E/g15d_128x24_f32_narrow.mlir $E/g15e_128x24_f32_direct.mlir $E/g15g_128x72_f32.mlir
  $E/p12_pers_128x24_narrow.mlir test/Inputs/unseen/partial-panel-store.mlir
  assets/gemm.mlir assets/attention_fwd_d128.mlir
)
[[ $TAG == before ]] || CHANGED+=("${NARROW[@]}")
bash "$HERE/two-compilers-prepare.sh" opaque-reads "$TAG" $FRESH "${CHANGED[@]}"
