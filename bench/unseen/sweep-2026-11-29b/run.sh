#!/bin/bash
# Reruns every command of this sweep: ./run.sh  (summary.txt is rewritten; logs in logs/)
# Tools: /tmp/sweep8/bin (copies of build/bin). Bundles go to /tmp/sweep8b/out.
cd "$(dirname "$0")"
rm -f summary.txt
python3 gen_attn.py >/dev/null; python3 mk_a05.py; (cd bad && python3 mkbad.py >/dev/null); sed -i 's/()\[M, N, K\]/()[M, N, K, BK]/g' bad/z13_step_is_size.mlir
R=./one.sh; A=../../../assets/schedules
$R n01_rowtile_loop_over_ncols.mlir n01
$R n01_rowtile_loop_over_ncols.mlir n01_tails --size=M=1000 --size=N=1000 --size=K=1000
$R n01_rowtile_loop_over_ncols.mlir n01_pp --schedule=schedules/pingpong.json
$R n01_rowtile_loop_over_ncols.mlir n01_pp_tails --schedule=schedules/pingpong.json --size=M=1000 --size=N=1160 --size=K=1000
$R n01_rowtile_loop_over_ncols.mlir n01_pp_n1032 --schedule=schedules/pingpong.json --size=M=1000 --size=N=1032 --size=K=1000
$R n01_rowtile_loop_over_ncols.mlir n01_st --schedule=schedules/staggered.json --size=N=1160
for s in s1_deep_stage64 s2_all_group0 s3_regs_32_240 s3b_regs_24_256 s3c_regs_0_248 s4_loads_group7 s5_loads_split_stages s6_wait7_stage_close; do
  $R n01_rowtile_loop_over_ncols.mlir n01_$s --schedule=schedules/$s.json; done
$R n01_rowtile_loop_over_ncols.mlir n01_m_2p32 --size=M=4294967296 --size=N=128 --size=K=64
$R n02_4d_batch_head_grid3d.mlir n02
$R n02_4d_batch_head_grid3d.mlir n02_tails --size=B=3 --size=H=5 --size=M=129 --size=N=136 --size=K=72
$R n02_4d_batch_head_grid3d.mlir n02_m1 --size=B=1 --size=H=1 --size=M=1 --size=N=8 --size=K=8
$R n02_4d_batch_head_grid3d.mlir n02_m4097 --size=B=1 --size=H=3 --size=M=4097 --size=N=1000 --size=K=4104
$R n02_4d_batch_head_grid3d.mlir n02_gridy_huge --size=B=1 --size=H=70000 --size=M=128 --size=N=128 --size=K=64
$R n02_4d_batch_head_grid3d.mlir n02_k_2p31 --size=B=1 --size=H=1 --size=M=128 --size=N=128 --size=K=2147483712
$R n03_rowsum_colmax_two_outs.mlir n03
$R n03_rowsum_colmax_two_outs.mlir n03_tails --size=M=1000 --size=N=1000 --size=K=1000
$R n03_rowsum_colmax_two_outs.mlir n03_tiny --size=M=8 --size=N=8 --size=K=8
$R n03_rowsum_colmax_two_outs.mlir n03_m127 --size=M=127 --size=N=1000 --size=K=4104
$R n03_rowsum_colmax_two_outs.mlir n03_m4104 --size=M=4104 --size=N=136 --size=K=8
$R n04_size_offsets_in_coords.mlir n04
$R n04_size_offsets_in_coords.mlir n04_coff7 --size=COFF=7
$R n04_size_offsets_in_coords.mlir n04_coff4 --size=COFF=4 --size=N=1020 --size=MV=1
$R n04_size_offsets_in_coords.mlir n04_coff2 --size=COFF=2 --size=N=1022
$R n04_size_offsets_in_coords.mlir n04_ks_gt_k --size=KS=2048
$R n04_size_offsets_in_coords.mlir n04_ks_odd --size=KS=100
$R n04_size_offsets_in_coords.mlir n04_m7 --size=M=7 --size=MV=5 --size=N=124 --size=COFF=4 --size=ROFF=1 --size=KS=8 --size=K=8
$R n04_size_offsets_in_coords.mlir n04_m4097 --size=M=4097 --size=MV=4097 --size=N=4092 --size=COFF=4 --size=ROFF=1 --size=KS=64 --size=K=4104
$R n04_size_offsets_in_coords.mlir n04_ks0 --size=KS=0
$R n05_fp8_e5m2_e5m2_f16out.mlir n05
$R n05_fp8_e5m2_e5m2_f16out.mlir n05_tails --size=M=1 --size=N=1000 --size=K=4112
$R n06_mx_e5m2xe4m3_bk256_n64.mlir n06
$R n06_mx_e5m2xe4m3_bk256_n64.mlir n06_tails --size=M=1000 --size=N=1000 --size=K=800
$R n06_mx_e5m2xe4m3_bk256_n64.mlir n06_k32 --size=M=128 --size=N=64 --size=K=32
$R n06_mx_e5m2xe4m3_bk256_n64.mlir n06_mma_wait1 --schedule=schedules/n06_wait1.json
$R n07_flat_rows_coord_overflow.mlir n07
$R n07_flat_rows_coord_overflow.mlir n07_m1000 --size=BT=3 --size=M=1000 --size=N=72 --size=K=72
$R n07_flat_rows_coord_overflow.mlir n07_big --size=BT=3 --size=M=1073741824 --size=N=8 --size=K=8
$R n07_flat_rows_coord_overflow.mlir n07_big2 --size=BT=2 --size=M=2147483520 --size=N=8 --size=K=8
$R n08_pers_cluster_colbias_krange.mlir n08
$R n08_pers_cluster_colbias_krange.mlir n08_c4_tails --cluster=4 --size=M=1000 --size=N=1000 --size=K=1000 --size=K0=8 --size=K1=1000
$R n08_pers_cluster_colbias_krange.mlir n08_pp_c4 --cluster=4 --schedule=schedules/pingpong.json --size=M=1000 --size=N=1000 --size=K=1000 --size=K0=8 --size=K1=1000
$R n08_pers_cluster_colbias_krange.mlir n08_st_c2 --schedule=schedules/staggered.json --size=M=1000 --size=N=1000 --size=K=1000 --size=K0=8 --size=K1=1000
$R n08_pers_cluster_colbias_krange.mlir n08_c1_zero_trip --cluster=1 --size=K0=3584 --size=K1=512
$R n09_trmm_lower_loop_to_diag.mlir n09
$R n09_trmm_lower_loop_to_diag.mlir n09_band --size=W=256 --size=M=1000 --size=N=1000 --size=K=1000
$R n09_trmm_lower_loop_to_diag.mlir n09_w1 --size=W=1 --size=M=129 --size=N=8 --size=K=136
for f in a01_d112 a01b_d112_bk64 a02_fp8qk_bf16v_descale a03_bias_bucket_table_d64 a04_4d_grid3d_gqa_size_d64 a05_every_op_own_unit; do $R $f.mlir $f; done
$R a01_d112.mlir a01_cp_dot1_s3 --schedule=$A/attention_cp_dot1_s3.json --size=S=1000
$R a02_fp8qk_bf16v_descale.mlir a02_cp_dot0_s2 --schedule=$A/attention_cp_dot0_s2.json --size=S=1000 --size=B=1 --size=H=3
$R a03_bias_bucket_table_d64.mlir a03_S16384 --size=S=16384 --size=B=1 --size=H=2
$R a03_bias_bucket_table_d64.mlir a03_S1000 --size=S=1000 --size=NBK=3
$R a04_4d_grid3d_gqa_size_d64.mlir a04_tails --size=S=1000 --size=H=6 --size=G=3 --size=B=3
$R a04_4d_grid3d_gqa_size_d64.mlir a04_g_not_div --size=S=256 --size=H=5 --size=G=2 --size=B=1
# wrong / odd kernels
for f in bad/y01_tensor_concat_in_loop.mlir bad/z*.mlir; do $R $f $(basename $f .mlir); done
$R bad/z13_step_is_size.mlir z13_bk32 --size=BK=32
$R bad/z13_step_is_size.mlir z13_bk128 --size=BK=128
# odd schedule files on bad/base.mlir
rm -f bad/js-results.txt
for j in bad/js/*.json; do t=$(basename $j .json); printf '%s: ' $t
  timeout 60 /tmp/sweep8/bin/stagecraft-compile bad/base.mlir --schedule=$j -o /tmp/sweep8b/out/$t --no-cubin -q > logs/$t.nc 2>&1; rc=$?
  timeout 60 /tmp/sweep8/bin/stagecraft-timeline bad/base.mlir --schedule=$j > logs/$t.timeline 2>&1; trc=$?
  timeout 60 /tmp/sweep8/bin/stagecraft-opt bad/base.mlir -tile-apply-schedule=file=$j -tile-verify-schedule=summary -o /dev/null > logs/$t.verify 2>&1; vrc=$?
  echo "compile=$rc timeline=$trc verify=$vrc half=$( [ $rc -ne 0 ] && [ -e /tmp/sweep8b/out/$t ] && echo YES)"
  grep -m1 -E 'error|warning' logs/$t.nc | cut -c1-250
done 2>&1 | tee bad/js-results.txt
# --size parsing and --tile-order
for a in "--size=K=512 --size=K=1024" "--size=K=1e3" "--size=K=0x400" "--size=K=-64" "--size==5" "--size=K" "--size=K=1024junk"; do echo "== $a"
  timeout 60 /tmp/sweep8/bin/stagecraft-compile bad/base.mlir $a -o /tmp/sweep8b/out/sz --no-cubin -q 2>&1 | head -2 | cut -c1-250; echo "rc=${PIPESTATUS[0]}"; rm -rf /tmp/sweep8b/out/sz; done > logs/size-args.txt 2>&1
for f in n01_rowtile_loop_over_ncols n08_pers_cluster_colbias_krange; do for o in grouped:8 column-major; do echo "== $f $o"
  timeout 60 /tmp/sweep8/bin/stagecraft-compile $f.mlir --tile-order=$o -o /tmp/sweep8b/out/to --no-cubin -q 2>&1 | head -3 | cut -c1-400; echo "rc=${PIPESTATUS[0]}"; rm -rf /tmp/sweep8b/out/to; done; done > logs/tile-order.txt 2>&1
