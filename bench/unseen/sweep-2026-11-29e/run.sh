#!/bin/bash
# Reruns the whole sweep (no GPU): generators, then every kernel through compile (--no-cubin),
# the manifest's outputs, stagecraft-timeline, -tile-verify-schedule=summary and
# -tile-lower-reference (one.sh), the refusal checks (ex.sh), the schedule files and the timeline
# split experiment. Tools from B (default /tmp/sweep11/bin: copies of build/bin).
# Output: logs/run-all.txt.
cd "$(dirname "$0")"
export B=${B:-/tmp/sweep11/bin}
exec > >(tee logs/run-all.txt) 2>&1
python3 gen_extract.py >/dev/null; python3 gen_init.py >/dev/null; python3 gen_lmhead.py >/dev/null
echo "### 1-2: i32 outputs and flips"
./one.sh kernels/f01_moe_router_top1.mlir f01
./one.sh kernels/f01_moe_router_top1.mlir f01b --size=T=128 --size=K=64
./one.sh kernels/f02_col_argmin_rowcount.mlir f02
./one.sh kernels/f02_col_argmin_rowcount.mlir f02b --size=M=384 --size=N=256 --size=K=64
./one.sh kernels/f03_quantizer_rowscale.mlir f03
./one.sh kernels/f03_quantizer_rowscale.mlir f03s --size=K=256 --size=M=256 --size=N=256
./one.sh kernels/f04_masks_sign.mlir f04
./one.sh kernels/f05_count_over_columns.mlir f05
./one.sh kernels/f05_count_over_columns.mlir f05b --size=N=1024 --size=M=1024
./one.sh kernels/f06_running_argmax_loaded.mlir f06
./one.sh kernels/u01_i32_edge_semantics.mlir u01
echo "u01 kernel.ll shifts (0: folded away as poison):"; grep -c -E "ashr|shl i32 %[0-9]+, 33" /tmp/sweep11/out/u01/b/kernel.ll
echo "u01 reference.ptx variable shifts:"; grep -c -E "sh[lr]\.[bs]32[[:space:]]+%r[0-9]+, %r[0-9]+, %r[0-9]+;" /tmp/sweep11/out/u01/b/reference.ptx
echo "### 3: tensor.extract ranges"
for a in "kernels/e01_peak_midloop.mlir" "kernels/e01_peak_midloop.mlir --size=K=8192" \
  "kernels/e02_cyclic_mod40.mlir" "kernels/e02_cyclic_mod40.mlir --size=K=4096" "kernels/e02_cyclic_mod40.mlir --size=K=5120" \
  "kernels/e03_cyclic_mod32_ok.mlir" "kernels/e03_cyclic_mod32_ok.mlir --size=K=64" \
  "kernels/e04_pid_2d.mlir" "kernels/e04_pid_2d.mlir --size=N=2176" "kernels/e05_pid_minus_one.mlir" \
  "kernels/e06_size_based_rev.mlir" "kernels/e06_size_based_rev.mlir --size=K=2112" "kernels/e06_size_based_rev.mlir --size=K=32" \
  "kernels/e07_divsi_negative.mlir" "kernels/e08_2d_loopvar.mlir --size=K=2048" "kernels/e08_2d_loopvar.mlir --size=K=2112" \
  "kernels/e09_maxsi_pid.mlir --size=M=4992" "kernels/e09_maxsi_pid.mlir --size=M=5120" \
  "kernels/e10_pid_peak_bigrid.mlir --size=M=16384 --size=N=1024" "kernels/e10_pid_peak_bigrid.mlir --size=M=16384 --size=N=8192"; do ./ex.sh $a; done
echo "### 4: sizes 0"
for a in "" "--size=K0=0" "--size=K0=4096" "--size=K=0" "--size=M=0" "--size=N=0" "--size=K0=-1" "--size=K0=2147483648" "--size=K0=4"; do ./ex.sh kernels/z01_krange_offset.mlir $a; done
echo "### 5: tile.init"
for k in kernels/i*.mlir; do ./ex.sh $k; done; ./ex.sh kernels/i11_f16_map.mlir --size=M=128
echo "### 6: schedule JSON"
for s in schedules/s*.json; do echo "== $s"; timeout 180 $B/stagecraft-opt kernels/f03_quantizer_rowscale.mlir -tile-apply-schedule=file=$s -tile-verify-schedule=summary -o /dev/null 2>&1 | grep -E "error|steady" | cut -c1-300 | head -2; done
echo "### 7: timeline: zero trips, slices, split units"
for s in "--size=K0=4096" "--size=K0=4032" "--size=K=65536 --size=K0=65472" "--size=K=65536 --size=K0=65536"; do echo "== z01 $s"; timeout 180 $B/stagecraft-timeline kernels/z01_krange_offset.mlir $s | grep -E "iteration|CTA |DRAM band|no iterations"; done
for k in t01_lmhead_one_unit t02_lmhead_unit_per_op t03_lmhead_two_halves_loads_between; do ./one.sh kernels/$k.mlir $k; done
diff <(sed 's/t01_lmhead_one_unit/K/g' /tmp/sweep11/out/t01_lmhead_one_unit/b/kernel.ptx) <(sed 's/t02_lmhead_unit_per_op/K/g' /tmp/sweep11/out/t02_lmhead_unit_per_op/b/kernel.ptx) | grep "^[<>]" | sort | uniq -c
