#!/usr/bin/env bash
# Build machine: the sixth held-out sweep's loops most likely to hide wrong output (its README,
# section 4) and its FP8 in-loop stores (B1: the compiler crashed on them; fixed), each compiled by
# the compiler checked out now as DEV/bundles/NAME--default (with a schedule or sizes: NAME--LABEL),
# for their results and a check against their IR references.
#   bash bench/unseen/sweep-f-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/sweep-f OUT  (carry .dev/sweep-f)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev sweep-f
F=$ROOT/bench/unseen/sweep-2026-11-28f
for k in a20_d80_bk64 a23_d16_bk128 a13_d192_bq128 a13b_d192_bq64_1wg a14_d256_bq128_bk64 \
         a12_d96_alibi_softcap_lse a15_d128_gqa8_causal_iota_lse a11_d64_window_iota_S1000 \
         a11b_d64_window_bounded_loop n01_softmax_lse_row_128x128_bf16_N1000 \
         n09_softmax_stream_128x200_bf16 n14_row_scan_128x64_bf16_store_cols \
         n15_axpby_three_outs_128x64 n13_colmax_colsum_64x96_f32_Rtail n16_maxpool_depth_2d_carry \
         n20_col_center_per_block g07_bf16A_to_f16_regA_128x128 g15_128x256_ta_bnmajor_f16_tails \
         g02_ta_bnmajor_bf16_128x256_K1000 g09b_128x128_bk128_bnmajor_f16out_s1 \
         n11b_layernorm_stream_128x24_bf16_bcast_in_loop p01_pers_softmax_lse_128x128_N1000 \
         p02_pers_softmax_lse_and_copy_128x64 p05_pp_softmax_lse_64x128 n26_rank5_stream \
         g16_128x48_e4m3_out g16_128x144_e4m3_out g16_128x208_e4m3_out \
         n10_softmax_stream_128x96_f16_e4m3 p04_pers_e4m3_copy_in_loop n18_colsum_per_block_store_in_loop; do
  named_bundle "$k" "$F/$k.mlir" || echo "refused: $k"
done
for k in fp8_stream_128x16_e4m3 fp8_stream_128x96_e4m3 fp8_stream_128x96_e5m2 fp8_stream_64x96_e4m3 \
         fp8_stream_128x256_e4m3 is_128x136_bf16 store_coord_i_plus_0; do
  named_bundle "$k" "$F/bugs/$k.mlir" || echo "refused: $k"
done
bundle "$F/a12_d96_alibi_softcap_lse.mlir" "$DEV/bundles/a12_d96_alibi_softcap_lse--at05" \
  --schedule "$F/schedules/at05_mma1_wait1.json"
bundle "$F/g04_64x128_M17_N40_K40.mlir" "$DEV/bundles/g04_64x128_M17_N40_K40--M7N16K24" \
  --size=M=7 --size=N=16 --size=K=24
bundle "$F/g07_bf16A_to_f16_regA_128x128.mlir" "$DEV/bundles/g07_bf16A_to_f16_regA_128x128--gm08" \
  --schedule "$F/schedules/gm08_cvt_own_stage.json"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
