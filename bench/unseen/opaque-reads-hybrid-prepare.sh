#!/usr/bin/env bash
# Build machine: the rule kept after bench/results/opaque-reads-h200-2026-11-28 (opaque reads
# unless a later store shares transcendental math with an earlier one) on the loops it decides
# differently, NAME--TAG side by side with the compiler before opaque reads (TAG before:
# STAGECRAFT_COMPILE=<a build of c02c28a>); and (TAG != before) the two persistent
# store-and-reduce loops that still spill (the fifth sweep's B3), for their SASS.
#   bash bench/unseen/opaque-reads-hybrid-prepare.sh TAG [--fresh]
#   GPU host (.dev/opaque-hybrid carried):
#     ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/opaque-hybrid OUT
#     bash bench/timeline/sass-on-gpu.sh OUT/sass .dev/opaque-hybrid/sass/*
set -euo pipefail
HERE=$(dirname "$0")
TAG=${1:?TAG}
E=bench/unseen/sweep-2026-11-28e
bash "$HERE/two-compilers-prepare.sh" opaque-hybrid "$TAG" ${2:-} \
  $E/g23_128x256_two_chains_three_stores.mlir $E/g28_128x256_fp8_gemm_fp8_outs_amax.mlir \
  $E/s1_sigmoid_and_sigmoid_tanh_128x256.mlir $E/x08_128x256_sigmoid_and_silu_shared.mlir \
  $E/x08b_128x128_sigmoid_and_silu_shared.mlir
if [[ $TAG != before ]]; then
  . "$HERE/../timeline/prepare-lib.sh"
  for k in m_pp_store_and_reduce s2_pers_128x256_gelu_and_rowsum \
           s2_control_nonpers_128x256_gelu_and_rowsum; do
    bundle "$ROOT/$E/$k.mlir" "$ROOT/.dev/opaque-hybrid/sass/$k"
  done
fi
