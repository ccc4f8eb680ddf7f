#!/bin/bash
# For each (package, sizes): does the compiler take the kernel at those sizes (--no-cubin), and does
# the exported Python plan() (fake tensors of the natural shapes) accept them?
H=$(cd "$(dirname "$0")/.." && pwd); cd $H
E=${EXPORTS:-/tmp/sweep15/exports}; B=${STAGECRAFT_BIN:-/tmp/sweep15/bin}
F=/work/main/bench/unseen/sweep-2026-11-29f/kernels; Bk=/work/main/bench/unseen/sweep-2026-11-29b; Ek=/work/main/bench/unseen/sweep-2026-11-29e/kernels
one() { p=$1; src=$2; shift 2
  args=(); for s in "$@"; do args+=(--size "$s"); done
  c=$(timeout 180 $B/stagecraft-compile $src "${args[@]}" --no-cubin -q -o /tmp/sweep15/cc 2>&1); rc=$?
  c=$(echo "$c" | grep -m1 error | sed 's/.*error: //' | cut -c1-150)
  pl=$(PYTHONDONTWRITEBYTECODE=1 timeout 60 python3 tools/plan_at.py $E/$p "$@" 2>&1 | tail -1 | cut -c1-170)
  echo "$p $* | compile rc=$rc ${c} | python: $pl"
}
one l07 $F/l07_paged_retention_i32_pages.mlir T=4096
one l07 $F/l07_paged_retention_i32_pages.mlir T=4160
one l07 $F/l07_paged_retention_i32_pages.mlir T=8192 BH=2
one l02 $F/l02_retention_decay_inclusive.mlir T=8192 BH=2
one a03 $Bk/a03_bias_bucket_table_d64.mlir S=8192
one a03 $Bk/a03_bias_bucket_table_d64.mlir S=8320
one a03 $Bk/a03_bias_bucket_table_d64.mlir S=16384 B=1 H=2
one i01 $F/i01_block_sparse_attn_tables.mlir S=100000 B=1 H=1
one l01 $F/l01_linear_attn_exclusive.mlir T=1004 BH=2
one l01 $F/l01_linear_attn_exclusive.mlir T=8 BH=1
one l04 $F/l04_gla_colgate_f16_e4m3_outs.mlir T=1000 BH=3
one r01 $F/r01_linear_rnn_resident_w.mlir NS=100 T=3
one p01 $F/p01_w8a16_dequant_groupscale.mlir M=256 N=256 K=1000
one p01 $F/p01_w8a16_dequant_groupscale.mlir M=256 N=256 K=1100
one p01 $F/p01_w8a16_dequant_groupscale.mlir M=256 N=200 K=1024
one x01 $F/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir M=192 N=64 K=4000
one x01 $F/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir M=192 N=64 K=4096
one x01 $F/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir M=200 N=64 K=256
one u01 $F/u01_ops_in_odd_places.mlir M=200 N=136 K=64
one u01 $F/u01_ops_in_odd_places.mlir M=200 N=136 K=8
one p02 $F/p02_rope_q_attention_causal.mlir S=1000 B=1 H=3
one l03 $F/l03_gram_192_corr.mlir R=1 B=2
one n04 $Bk/n04_size_offsets_in_coords.mlir COFF=3
one n04 $Bk/n04_size_offsets_in_coords.mlir KS=2048
one n04 $Bk/n04_size_offsets_in_coords.mlir MV=5000
one n04 $Bk/n04_size_offsets_in_coords.mlir ROFF=0 COFF=0 KS=0
one z01 $Ek/z01_krange_offset.mlir K0=8192
one z01 $Ek/z01_krange_offset.mlir K0=4
one f01 $Ek/f01_moe_router_top1.mlir T=1000 K=4096
one f06 $Ek/f06_running_argmax_loaded.mlir M=100 N=100
one l06 $F/l06_linear_attn_persistent.mlir BH=1 T=64
