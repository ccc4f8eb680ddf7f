#!/usr/bin/env bash
# Build machine: the held-out loops the register model refused (or charged differently) before
# column vectors cost N / 4 registers a thread, sums of squares and splats nothing (docs/legality.md,
# Registers; n02, a17 and p03 are accepted since the GPU run of 2026-11-29 and not run yet), and
# the loop stores at i / 64 and i >> 6, compiled by the compiler checked out now,
# for their results and a check against their IR references.
#   bash bench/unseen/register-model-prepare.sh
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/register-model OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev register-model
F=$ROOT/bench/unseen/sweep-2026-11-28f
for k in n07_rmsnorm_stream_128x256_bf16_R1000 n07b_rmsnorm_stream_128x256_bf16_R1000_bcast_in_loop \
         n08_layernorm_stream_64x192_f16_to_f32 n08b_layernorm_stream_64x192_f16_to_f32_bcast_in_loop \
         n08c_layernorm_stream_64x192_f16_to_bf16 n12_rmsnorm_stream_192x128_bf16 \
         n12b_rmsnorm_stream_192x128_bf16_bcast_in_loop n13_colmax_colsum_64x96_f32_Rtail \
         n02_softmax_lse_row_64x256_f16_N3000_1wg a17_d128_bq192_bk64_window p03_pp_softmax_lse_128x128; do
  named_bundle "$k" "$F/$k.mlir" || echo "refused: $k"
done
for k in store-coord-div store-coord-shr colsum-loop; do
  named_bundle "$k" "$ROOT/test/Inputs/unseen/$k.mlir" || echo "refused: $k"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
