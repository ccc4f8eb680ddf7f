#!/bin/bash
# Re-runs every kernel/schedule/size of this sweep (no GPU): compile with ptxas, timeline, verify.
# Output: logs/run-all.txt. Bundles go to /tmp/sw29j/out (not kept here).
cd "$(dirname "$0")"
S=schedules
{
for k in kernels/*.mlir; do t=$(basename $k .mlir); ./one.sh $k ${t%%_*}; done
./one.sh kernels/s04_staggered_colsum_after_dots.mlir s04_red_between --schedule=$S/s04_red_between_dots.json
./one.sh kernels/s01_staggered_colsum_between_dots.mlir s01_coop --schedule=$S/s01_cooperative.json
./one.sh kernels/s02_staggered_upcastB_between_dots.mlir s02_upfirst --schedule=$S/s02_upcast_first.json
./one.sh kernels/s02_staggered_upcastB_between_dots.mlir s02_upearly --schedule=$S/s02_upcast_early_stage.json
for s in c03_staggered_c4 c03_staggered_store_late c03_c1_pingpong; do ./one.sh kernels/c03_pers_cluster_loopstore_odd_trips.mlir $s --schedule=$S/$s.json; done
for s in d01_peek_stage1 d01_wait2_c2 d01_pingpong_wait0; do ./one.sh kernels/d01_pers_acc_read_by_rowmax.mlir $s --schedule=$S/$s.json; done
for s in p01_staggered p01_pp_wait2_regs; do ./one.sh kernels/p01_pingpong_klen_table_zero_trips.mlir $s --schedule=$S/$s.json; done
./one.sh kernels/c03_pers_cluster_loopstore_odd_trips.mlir c03_n0 --size=N=0
./one.sh kernels/c03_pers_cluster_loopstore_odd_trips.mlir c03_tail --size=M=1000 --size=N=128
./one.sh kernels/d01_pers_acc_read_by_rowmax.mlir d01_k0 --size=K=0
./one.sh kernels/d01_pers_acc_read_by_rowmax.mlir d01_tail --size=M=1000 --size=N=200 --size=K=64
./one.sh kernels/p01_pingpong_klen_table_zero_trips.mlir p01_tail --size=M=1000 --size=N=1000 --size=K=1000
./one.sh kernels/s03_staggered_noproducer_load_in_turn.mlir s03_small --size=S=128 --size=BH=4
for t in s01 s02 s04_red_between s04 s02_upfirst; do grep -n "bar\.sync\|bar\.arrive\|wgmma.commit\|^\$L__BB" /tmp/sw29j/out/$t/b/kernel.ptx > logs/ptx-barriers-$t.txt; done
} > logs/run-all.txt 2>&1
