#!/bin/bash
# Reruns this sweep (no GPU needed). Tools: /tmp/sweep9/bin copies; one compile at a time.
# Usage: bash run.sh [exports|hostile|runner|app|extra|all]   (default all)
set -u
H=$(cd "$(dirname "$0")" && pwd); cd "$H"
A=/work/main/assets; S=$A/schedules; I=inputs; B=/tmp/sweep9/bin
what=${1:-all}
mkdir -p logs shots exports exports2 mock/compute
gcc -shared -fPIC -O1 -o mock/libcuda.so.1 /work/main/test/export/mock_libcuda.c
gcc -shared -fPIC -O2 -o mock/compute/libcuda.so.1 mock/mock_compute.c
strip_noise() { grep -v "^\s\|^/work\|^In file\|^[0-9]*$"; }

if [ $what = all ] || [ $what = exports ]; then {
tools/exp.sh gemm_base $A/gemm.mlir -- M=1000 N=1040 K=520
tools/exp.sh fp8gemm $A/fp8_gemm.mlir -- M=1024 N=512 K=384
tools/exp.sh fp8prom $A/fp8_gemm_promoted.mlir -- M=1024 N=512 K=384
tools/exp.sh fp8split $A/fp8_gemm_promoted_split.mlir -- M=1024 N=512 K=384
tools/exp.sh mxfp8 $A/mxfp8_gemm.mlir -- M=1024 N=512 K=512
tools/exp.sh mxfp8up $A/mxfp8_gemm_upcast.mlir -- M=1024 N=512 K=512
tools/exp.sh gemm128 $A/gemm_128x128.mlir -- M=1000 N=1000 K=1000
tools/exp.sh attn128 $A/attention_fwd_d128.mlir --schedule $S/attention_cp_dot1_s3.json -- B=1 H=2 S=384
tools/exp.sh attn128c $A/attention_fwd_d128_causal.mlir -- B=1 H=2 S=384
tools/exp.sh attn64c192 $A/attention_fwd_d64_causal_192rows.mlir -- B=1 H=2 S=384
tools/exp.sh attn128c176 $A/attention_fwd_d128_causal_176keys.mlir --schedule $S/attention_cp_dot1_s3_near.json -- B=1 H=2 S=352
tools/exp.sh pattn $A/persistent_attention_fwd_d128.mlir -- B=1 H=2 S=384
tools/exp.sh pgemm $A/persistent_gemm.mlir -- M=1024 N=768 K=512
tools/exp.sh pgemmcl $A/persistent_gemm_cluster.mlir -- M=1024 N=768 K=512
tools/exp.sh pgemmgr $A/persistent_gemm_grouped.mlir -- M=1024 N=768 K=512
tools/exp.sh pingpong $A/persistent_gemm_pingpong.mlir -- M=1024 N=768 K=512
tools/exp.sh pingpong64 $A/persistent_gemm_pingpong_64x256.mlir -- M=1024 N=768 K=512
tools/exp.sh k03 $I/k03_gemm_256x128_ta_nmajorB_4wg.mlir
tools/exp.sh k04 $I/k04_batched_gemm_gridz_shared_weight_bias.mlir -- BT=3 M=256 N=384 K=128
tools/exp.sh k05 $I/k05_splitk_partials_rowsum.mlir -- M=256 N=256 K=1024 KC=256 SPL=4
tools/exp.sh k14 $I/k14_moe_grouped_gemm_i32_tables.mlir
tools/exp.sh k15 $I/k15_fp8_e5m2xe4m3_rowcolscale_e5m2out.mlir
tools/exp.sh k16 $I/k16_cluster2_nonpersistent_shareB.mlir
tools/exp.sh k18 $I/k18_pers_pingpong_rowamax_e4m3out.mlir
tools/exp.sh k22 $I/k22_pers_pingpong_cluster2_colmajor.mlir
tools/exp.sh a09 $I/a09_swa_size_W_causal_softcap_lo.mlir -- B=1 H=2 S=512 W=128
tools/exp.sh a12 $I/a12_d256_bq192_bk64_causal_3wg.mlir
tools/exp.sh a15 $I/a15_fp8_e4m3_attention_vt_regA.mlir
tools/exp.sh k07 $I/k07_fused_mlp_gelu_two_dots.mlir
tools/exp.sh k36 $I/k36_regA_mmajor_relu_transpose_a.mlir
tools/exp.sh a08 $I/a08_cross_d32_f32bias_bk64.mlir -- B=1 H=2 SQ=256 SKV=384
tools/exp.sh v01 $I/v01_gemm_inout_accum_f32.mlir --size M=1000 --size N=1024 --size K=520 -- M=256 N=128 K=64
tools/exp.sh v02 $I/v02_gemm_f32out.mlir --size M=1000 --size N=1048 --size K=1032 -- M=130 N=260 K=72
tools/exp.sh v04 $I/v04_gemm_f16.mlir -- M=256 N=128 K=64
tools/exp.sh v05 $I/v05_gemm_bias_relu.mlir --size M=777 --size N=1000 --size K=4000 -- M=256 N=128 K=64
tools/exp.sh v06 $I/v06_packed_rows_gemm.mlir -- BT=2 M=256 N=128 K=64
tools/exp.sh v07 $I/v07_gemm_nn_bkn.mlir --size M=512 --size N=384 --size K=320 -- M=256 N=128 K=64
tools/exp.sh e01 $I/e01_kstart_size.mlir
tools/exp.sh twok_b $I/bad/two_kernels.mlir --kernel gemm_128x128_b -- M=256 N=128 K=64
tools/exp.sh cl2 $A/gemm.mlir --cluster 2 -- M=512 N=512 K=128
tools/exp.sh cl2odd $A/gemm.mlir --cluster 2 --size M=384 -- M=384 N=512 K=128
tools/exp.sh pgtile $A/persistent_gemm.mlir --tile-order grouped:4 -- M=1000 N=1000 K=1000
tools/exp.sh wtl $A/gemm_128x128.mlir --with-timeline -- M=256 N=128 K=64
for v in v08_names_out_stream_s v09_names_class_def_sizes v10_sizes_class_lambda_s v11_names_problem_maps_config v12_names_device_params_g v13_names_runtime_os_pM v14_names_params_limit_config; do
  tools/exp.sh ${v%%_*} $I/$v.mlir --; done   # B8
tools/exp.sh v15 $I/v15_weight_2N_upper_half.mlir -- M=256 N=128 K=64
for v in n26_rank5_stream n13_colmax_colsum_64x96_f32_Rtail p03_pp_softmax_lse_128x128; do tools/exp.sh ${v%%_*} $I/$v.mlir --; done
} 2>&1 | strip_noise | tee logs/exports-all.log
# cluster check at an odd tile count, Python (mock) and C++ check()
LD_LIBRARY_PATH=mock MOCK_CUDA_PARAMS=128,128,128,4,4,4 MOCK_CUDA_LOG=/tmp/cl2.log python3 tools/mockrun.py exports/cl2 M=384 N=512 K=128
# B4: --target sm_100a exported as an sm_90a package; B5: --measured of another run quoted
timeout 180 $B/stagecraft-compile $A/gemm_128x128.mlir -q --target sm_100a --export exports2/sm100; echo "sm100 export rc=$?"
grep -n "sm_90a" exports2/sm100/README.md | head -2; grep -n "target" exports2/sm100/kernel.ptx | head -1
for m in measured_other measured_other_sizes measured_garbage; do rm -rf exports2/meas_$m
  timeout 180 $B/stagecraft-compile $A/gemm_128x128.mlir -q --export exports2/meas_$m --measured $I/bad/$m.json; echo "--measured $m rc=$?"
  grep -A2 "## Measured" exports2/meas_$m/README.md 2>/dev/null | tail -1; done
fi

if [ $what = all ] || [ $what = hostile ]; then
  bash hostile/hostile.sh > logs/hostile.log 2>&1
  # accepted names whose header/example do not compile, or whose package Python cannot import
  mkdir -p hostile/work2
  for n in errno linux unix main NULL gc posix marshal EOF stdin stderr FILE CUDA_VERSION CUstream cuInit uint8_t int64_t size_t printf exit abs Tensor Check cu checkGemm fillUniform fromBits CUresult CUDA_SUCCESS INFINITY _Bool i386; do
    out=$(timeout 60 $B/stagecraft-compile $A/gemm_128x128.mlir -q --export hostile/work2/$n 2>&1); rc=$?
    if [ $rc -ne 0 ]; then echo "$n | refused: $(echo $out | cut -c1-110)"; continue; fi
    r1=$(g++ -std=c++17 -fsyntax-only -I/usr/local/cuda/include -Ihostile/work2/$n hostile/work2/$n/example.cpp 2>&1 | grep -m1 error | cut -c1-150)
    r2=$(g++ -std=gnu++17 -fsyntax-only -I/usr/local/cuda/include -Ihostile/work2/$n hostile/work2/$n/example.cpp 2>&1 | grep -m1 error| cut -c1-100)
    r3=$(cd hostile/work2 && PYTHONDONTWRITEBYTECODE=1 python3 -c "import $n; print($n.KERNEL)" 2>&1 | tail -1)
    echo "$n | c++17: ${r1:-ok} | gnu++17: ${r2:-ok} | python: $r3"
  done > logs/hostile-names2.log 2>&1
  rm -rf hostile/work hostile/work2
fi

if [ $what = all ] || [ $what = runner ]; then
  (cd runner && rm -rf base attn && timeout 180 $B/stagecraft-compile $A/gemm_128x128.mlir --size M=256 --size N=256 --size K=128 -o base -q \
     && timeout 180 $B/stagecraft-compile $A/attention_fwd_d64.mlir --size B=1 --size H=1 --size S=256 -o attn -q \
     && rm -rf base/ir attn/ir base/kernel.ll attn/kernel.ll && python3 mkbad.py > /dev/null && ./runbad.sh > ../logs/runner-bad.log 2>&1 \
     && python3 mkreq.py && for mode in "--dry-run" ""; do timeout 60 $B/stagecraft-run --serve $mode < upl.jsonl > upl$mode.out 2>/dev/null; done; \
     for mode in "" "--dry-run"; do timeout 60 $B/stagecraft-run --serve $mode < requests.jsonl > serve$mode.out 2>serve$mode.err; echo "serve $mode rc=$?"; done; rm -rf bad)
  LD_LIBRARY_PATH=mock timeout 60 $B/stagecraft-run runner/base | python3 runner/summ.py
fi

if [ $what = all ] || [ $what = app ]; then
  for f in syntax_error unknown_op empty binary illegal_sched_in_ir no_kernel no_sched long_names two_kernels; do tools/shot.sh bad_$f $I/bad/$f.mlir; done
  tools/shot.sh v05_bias_relu $I/v05_gemm_bias_relu.mlir
  tools/shot.sh sched_mismatch $A/gemm_128x128.mlir --schedule $S/attention_cp_dot0_s2.json
  tools/shot.sh sched_illegal_attn $A/attention_fwd_d128.mlir --schedule $S/attention_illegal_loadK_late.json
  tools/shot.sh sched_garbage $A/gemm_128x128.mlir --schedule $I/bad/bad_sched_garbage.json
  tools/shot.sh sched_syntax $A/gemm_128x128.mlir --schedule $I/bad/bad_sched_syntax.json
  tools/shot.sh sched_other_kernel_same_units $A/gemm_128x128.mlir --schedule exports/gemm_base/schedule.json
  for s in pingpong_on_nonpersistent registers_512 cluster3 group7 wait99 stage64; do tools/shot.sh sched_$s $A/gemm_128x128.mlir --schedule $I/sched_$s.json; done
  for l in 1 2 3 4 5 6 7 0 abc; do HOME=/tmp/apphome9 timeout 120 xvfb-run -a -s "-screen 0 1720x1040x24" $B/stagecraft --no-runner --no-restore --lesson $l --screenshot shots/lesson_$l.png > logs/app-lesson_$l.log 2>&1; echo "[lesson $l] rc=$? $(tail -1 logs/app-lesson_$l.log)"; done
  T=/work/main/test/Inputs/traces
  tools/shot.sh tl_k07 $I/k07_fused_mlp_gelu_two_dots.mlir --panel timeline
  tools/shot.sh tl_a08 $I/a08_cross_d32_f32bias_bk64.mlir --panel timeline --select MMA1
  tools/shot.sh trace_mismatch $A/attention_fwd_d128.mlir --trace $T/gemm-ws-h100.trace.json
  tools/shot.sh trace_garbage $A/gemm.mlir --trace $I/bad/trace_garbage.json
  tools/shot.sh trace_result_json $A/gemm.mlir --trace $T/gemm-single-h100.result.json
  tools/shot.sh select_missing $A/gemm.mlir --select NOPE
  tools/shot.sh small_320 $A/attention_fwd_d128.mlir --size 320x240
  tools/shot.sh small_800 $I/k07_fused_mlp_gelu_two_dots.mlir --size 800x600
  tools/shot.sh n25 $I/n25_math_zoo_stream_64x64.mlir
  tools/shot.sh a08_allcons $I/a08_cross_d32_f32bias_bk64.mlir --schedule $I/sched_a08_all_in_consumers.json
  tools/shot.sh combo_gemm_lesson3 $A/gemm.mlir --lesson 3
  python3 tools/mktraces.py
  for t in negative_dur huge_iters 200k_events unknown_pid no_events iter_string; do tools/shot.sh trace_$t $A/gemm.mlir --trace $I/bad/trace_$t.json --panel timeline; done
  rm -f $I/bad/trace_200k_events.json
  # B3: a trace or lesson file that is a device: unbounded read (bounded here by ulimit -v)
  for args in "$A/gemm.mlir --trace /dev/zero" "$A/gemm.mlir --schedule /dev/zero" "/dev/zero" "--lesson $H/inputs/bad/lesson_devzero"; do
    ( ulimit -v 4000000; HOME=/tmp/apphome9 timeout 60 xvfb-run -a -s "-screen 0 1720x1040x24" $B/stagecraft $args --no-runner --no-restore --screenshot /tmp/devzero.png > /tmp/dz.log 2>&1 < /dev/null; echo "[$args] rc=$? $(grep -v xvfb-run /tmp/dz.log | tail -c 200 | tr '\n' ' ')" )
  done 2>&1 | tee logs/app-devzero.log
  (cd /work/main/build && timeout 900 /work/main/build/bin/app_tests --gtest_brief=1 > $H/logs/app_tests.log 2>&1; echo "app_tests rc=$?")
fi

if [ $what = all ] || [ $what = extra ]; then
  # B9: clang++ on every example.cpp
  for p in exports/*/; do n=$(basename $p); out=$(clang++ -std=c++17 -Wall -Wextra -fsyntax-only -I/usr/local/cuda/include -I$p $p/example.cpp 2>&1)
    echo "$out" | grep -q error && echo "$n: $(echo "$out" | grep -m1 error | sed 's|.*exports/||' | cut -c1-150)"; done > logs/clang-examples.log 2>&1
  tools/compute_examples.sh | tee logs/compute-examples.log          # B2
  for p in exports/*/; do n=$(basename $p); [ -x /tmp/ckbuild/$n/example_mock ] || { echo "$n: not built"; continue; }
    ps=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(",".join("128" if p["kind"]=="tensormap" else ("8" if p["kind"]=="pointer" or p.get("dtype")=="i64" else "4") for p in m["params"]))' $p/manifest.json)
    rm -f /tmp/cpp-$n.log; (cd /tmp/ckbuild/$n && LD_LIBRARY_PATH=$H/mock MOCK_CUDA_PARAMS=$ps MOCK_CUDA_LOG=/tmp/cpp-$n.log timeout 300 ./example_mock > /dev/null 2>&1)
    echo "$n: $(python3 tools/cpp_vs_manifest.py $p /tmp/cpp-$n.log 2>&1 | tail -1)"; done > logs/cpp-vs-manifest.log
  python3 tools/plan_v06_big.py                                      # M3
  g++ -std=c++17 -I/usr/local/cuda/include -Iexports/v06 tools/v06big.cpp -o /tmp/v06big -L/usr/local/cuda/lib64/stubs -lcuda && /tmp/v06big
  (cd /work/main/test/export && STAGECRAFT_COMPILE=$B/stagecraft-compile STAGECRAFT_ASSETS=$A MOCK_CUDA_DIR=$H/mock \
     CUDA_INCLUDE_DIR=/usr/local/cuda/include NVCC=/usr/local/cuda/bin/nvcc CXX=g++ PYTHONDONTWRITEBYTECODE=1 \
     timeout 900 python3 -m unittest test_export > $H/logs/test_export.log 2>&1; echo "test_export rc=$?")
fi
