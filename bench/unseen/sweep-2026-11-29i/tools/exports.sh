#!/bin/bash
# every export of this sweep (into $EXPORTS, default /tmp/sweep15/exports)
H=$(cd "$(dirname "$0")/.." && pwd); cd $H
F=/work/main/bench/unseen/sweep-2026-11-29f/kernels
FS=/work/main/bench/unseen/sweep-2026-11-29f/schedules
Bk=/work/main/bench/unseen/sweep-2026-11-29b
Ek=/work/main/bench/unseen/sweep-2026-11-29e/kernels
X=tools/exp.sh
$X l01 $F/l01_linear_attn_exclusive.mlir --size BH=2 --size T=1000
$X l01s $F/l01_linear_attn_exclusive.mlir --schedule $FS/l01_a_mmaS_late.json
$X l02 $F/l02_retention_decay_inclusive.mlir
$X l03 $F/l03_gram_192_corr.mlir
$X l04 $F/l04_gla_colgate_f16_e4m3_outs.mlir
$X l05 $F/l05_retention_decay_table_in_loop.mlir
$X l05b $F/l05b_table_in_loop_extract_in_decay_unit.mlir
$X l06 $F/l06_linear_attn_persistent.mlir
$X l07 $F/l07_paged_retention_i32_pages.mlir
$X l08 $F/l08_persistent_retention_table_in_tile_loop.mlir
$X p01 $F/p01_w8a16_dequant_groupscale.mlir
$X p01odd $F/p01_w8a16_dequant_groupscale.mlir --size M=1000 --size N=384 --size K=1152
$X p02 $F/p02_rope_q_attention_causal.mlir
$X r01 $F/r01_linear_rnn_resident_w.mlir
$X r02 $F/r02_linear_rnn_bf16_carry.mlir
$X r03 $F/r03_linear_rnn_loaded_h0.mlir
$X i01 $F/i01_block_sparse_attn_tables.mlir
$X i02 $F/i02_block_sparse_zero_trips.mlir
$X x01 $F/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir
$X u01 $F/u01_ops_in_odd_places.mlir
$X n04 $Bk/n04_size_offsets_in_coords.mlir
$X n03 $Bk/n03_rowsum_colmax_two_outs.mlir
$X a03 $Bk/a03_bias_bucket_table_d64.mlir
$X f01 $Ek/f01_moe_router_top1.mlir
$X f02 $Ek/f02_col_argmin_rowcount.mlir
$X f03 $Ek/f03_quantizer_rowscale.mlir
$X f06 $Ek/f06_running_argmax_loaded.mlir
$X z01 $Ek/z01_krange_offset.mlir
$X u01e $Ek/u01_i32_edge_semantics.mlir
