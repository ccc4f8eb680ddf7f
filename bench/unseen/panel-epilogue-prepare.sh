#!/usr/bin/env bash
# Build machine: the epilogue made a store panel at a time (ConsumerLoop.cpp, findPanelOps):
# the kernels whose epilogue spilled when it was evaluated whole (ptxas at their defaults,
# 2026-11-28), each compiled by the compiler checked out now as NAME--TAG, so that bundles of
# two compilers (TAG before / panel) run side by side in one call, each verified against its
# IR reference (and cuBLAS where a GEMM has one); and (COVER) other epilogue forms the change
# touches, for their results: FP8 and f32 outputs, 1-d stores (LSE), stores in the loop,
# reductions after the loop beside element-wise ops (RMS norm, column sums), an accumulator
# started from a loaded tile, two outputs, row and column biases, a gathered residual.
#   bash bench/unseen/panel-epilogue-prepare.sh TAG [--fresh]
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/panel-epilogue OUT
#             (carry .dev/panel-epilogue)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
TAG=${1:?TAG}
DEV=$ROOT/.dev/panel-epilogue
if [[ ${2:-} == --fresh ]]; then rm -rf "$DEV"; fi
mkdir -p "$DEV/bundles" "$DEV/ir"
U=$ROOT/bench/unseen
KERNELS=(test/Inputs/unseen/persistent-pingpong-residual.mlir
  bench/unseen/epilogue-loads-2026-11-28/gemm_residual_gate.mlir
  bench/unseen/expanded-2026-11-28/gemm_relu6_sq.mlir
  bench/unseen/expanded-2026-11-28/ops_expanded.mlir
  bench/unseen/sweep-2026-11-28b/g19_persistent_128x192_bias_silu.mlir
  bench/unseen/sweep-2026-11-28c/p01-pingpong-bias-silu-tails.mlir
  bench/unseen/sweep-2026-11-28c/p02b-pingpong-alpha-beta-s1.mlir
  bench/unseen/sweep-2026-11-28d/e02_256_f16_res_gate.mlir
  bench/unseen/sweep-2026-11-28d/e12_128x256_3tiles_f16.mlir
  bench/unseen/sweep-2026-11-28d/e13_64x256_f32res_f32out_2out.mlir
  bench/unseen/sweep-2026-11-28d/g04_128x256_bk128_res_gate_3st.mlir
  bench/unseen/sweep-2026-11-28d/p02_pp_128x128_bias_silu_res.mlir
  bench/unseen/sweep-2026-11-28d/p04_pers_128x256_res_s1.mlir
  bench/unseen/sweep-2026-11-28d/p05_pp_128x128_two_out_f16.mlir
  bench/unseen/sweep-2026-11-28d/p07_pers_staggered_128x256.mlir
  assets/gemm.mlir assets/attention_fwd_d128.mlir)
COVER=(bench/unseen/fp8-out-2026-11-28/fp8_gemm_e4m3_out.mlir
  bench/unseen/fp8-out-2026-11-28/gemm_e5m2_out.mlir
  bench/unseen/fp8-out-2026-11-28/attention_e4m3_out.mlir
  bench/unseen/fp8-out-2026-11-28/group_quant_e4m3.mlir
  bench/unseen/sweep-2026-11-28d/a03_d128_bk64_gqa8_lse_f32out.mlir
  bench/unseen/sweep-2026-11-28d/a05_d128_res_lse_bf16.mlir
  bench/unseen/sweep-2026-11-28d/e05_128_rowbias_colbias_res.mlir
  bench/unseen/sweep-2026-11-28d/e14_128x128_res_f32out_rms.mlir
  bench/unseen/sweep-2026-11-28d/e15b_128x128_res_and_loopstore.mlir
  bench/unseen/sweep-2026-11-28c/g09b-residual-rmsnorm-n256-s1.mlir
  bench/unseen/sweep-2026-11-28c/x01-acc-init-load.mlir
  test/Inputs/unseen/colsum.mlir test/Inputs/unseen/store-in-loop.mlir
  test/Inputs/unseen/lora-up.mlir test/Inputs/unseen/gathered-residual.mlir
  test/Inputs/unseen/residual-epilogue.mlir test/Inputs/unseen/sincos-after.mlir
  assets/persistent_gemm_pingpong.mlir assets/fp8_gemm_promoted_split.mlir)
[[ $TAG == before ]] || KERNELS+=("${COVER[@]}")
tagged_bundles "$TAG" "${KERNELS[@]}"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
