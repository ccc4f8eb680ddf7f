#!/bin/bash
# Reruns the whole sweep (no GPU): every kernel and schedule through one.sh (compile --no-cubin, the
# manifest's outputs and tolerances, stagecraft-timeline, -tile-verify-schedule=summary,
# -tile-lower-reference), the refusals through bad.sh, then gpu-check.sh (ptxas on every gpu-list line).
# Tools from B (default /tmp/sweep12/bin: copies of build/bin). One compile at a time.
cd "$(dirname "$0")"
export B=${B:-/tmp/sweep12/bin}
mkdir -p /tmp/sweep12/out
python3 gen_mx.py . ; python3 mkbad.py
exec > >(tee logs/run-all.txt) 2>&1
K=kernels; S=schedules
./one.sh $K/l01_linear_attn_exclusive.mlir l01
for s in a_mmaS_late b_wait1 c_nows; do ./one.sh $K/l01_linear_attn_exclusive.mlir l01$s --schedule=$S/l01_$s.json; done
./one.sh $K/l01_linear_attn_exclusive.mlir l01t1 --size=T=8 --size=BH=1
./one.sh $K/l01_linear_attn_exclusive.mlir l01big --size=T=2097152 --size=BH=2
./one.sh $K/l02_retention_decay_inclusive.mlir l02
for s in a_split b_3wg_loadsq_early; do ./one.sh $K/l02_retention_decay_inclusive.mlir l02$s --schedule=$S/l02_$s.json; done
./one.sh $K/l02_retention_decay_inclusive.mlir l02stag --schedule=$S/staggered.json
./one.sh $K/l02_retention_decay_inclusive.mlir l02t --size=T=1000 --size=BH=3
./bad.sh $K/l02_retention_decay_inclusive.mlir --size=T=8192
./bad.sh $K/l02_retention_decay_inclusive.mlir --size=T=1004 --size=BH=3
./one.sh $K/l03_gram_192_corr.mlir l03
./one.sh $K/l03_gram_192_corr.mlir l03a --schedule=$S/l03_a_deep_wait1.json
./one.sh $K/l03_gram_192_corr.mlir l03r1 --size=R=1 --size=B=2
./one.sh $K/l04_gla_colgate_f16_e4m3_outs.mlir l04
./one.sh $K/l05_retention_decay_table_in_loop.mlir l05
./one.sh $K/l05b_table_in_loop_extract_in_decay_unit.mlir l05b
./one.sh $K/l06_linear_attn_persistent.mlir l06
./bad.sh $K/l06_linear_attn_persistent.mlir --schedule=$S/l06_pingpong.json
./one.sh $K/l07_paged_retention_i32_pages.mlir l07
./one.sh $K/l08_persistent_retention_table_in_tile_loop.mlir l08
./one.sh $K/r01_linear_rnn_resident_w.mlir r01
./one.sh $K/r01_linear_rnn_resident_w.mlir r01a --schedule=$S/r01_a_store_late.json
./one.sh $K/r01_linear_rnn_resident_w.mlir r01stag --schedule=$S/staggered.json
./one.sh $K/r02_linear_rnn_bf16_carry.mlir r02
./one.sh $K/r03_linear_rnn_loaded_h0.mlir r03
./one.sh $K/p01_w8a16_dequant_groupscale.mlir p01
./one.sh $K/p01_w8a16_dequant_groupscale.mlir p01a --schedule=$S/p01_a_dequant_ahead.json
./one.sh $K/p02_rope_q_attention_causal.mlir p02
for s in a_cp_dot0 b_split_mma0 c_wait1; do ./one.sh $K/p02_rope_q_attention_causal.mlir p02$s --schedule=$S/p02_$s.json; done
./one.sh $K/i01_block_sparse_attn_tables.mlir i01
./one.sh $K/i01_block_sparse_attn_tables.mlir i01a --schedule=$S/i01_a_cp_dot0_s2.json
./one.sh $K/i02_block_sparse_zero_trips.mlir i02
./one.sh $K/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir x01
./one.sh $K/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir x01a --schedule=$S/x01_a_upcast_ahead.json
./one.sh $K/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir x01b --schedule=$S/x01_b_wait1.json
./one.sh $K/u01_ops_in_odd_places.mlir u01
echo "### refusals"
for f in bad/*.mlir; do ./bad.sh $f; done
for s in bad/s*.json; do ./bad.sh $K/l01_linear_attn_exclusive.mlir --schedule=$s; done
echo "### stale bundle after a failed compile into the same directory"
O=/tmp/sweep12/out/stale; rm -rf $O
$B/stagecraft-compile $K/l01_linear_attn_exclusive.mlir --no-cubin -q -o $O; $B/stagecraft-compile bad/b01_register_a_transposed.mlir --no-cubin -q -o $O; echo "rc=$? left: $(ls $O | tr '\n' ' ')"
echo "### extract_0 in the exported schedule of l05"
$B/stagecraft-opt $K/l05_retention_decay_table_in_loop.mlir -tile-export-schedule -o /dev/null 2>&1 | grep extract
echo "### ptxas on the gpu list"
./gpu-check.sh
