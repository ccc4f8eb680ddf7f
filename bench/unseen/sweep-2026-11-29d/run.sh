#!/bin/bash
# sweep-2026-11-29d: reruns this sweep's checks (no GPU). Tools: copies in $B (default /tmp/sweep10/bin,
# made with: mkdir -p /tmp/sweep10/bin && cp /work/main/build/bin/stagecraft* /tmp/sweep10/bin/).
# Usage: bash run.sh [blocks|neg|sched|legality|lessons|timeline|export|runner|app|all]  -> logs/*.log
set -u
H=$(cd "$(dirname "$0")" && pwd); M=/work/main; export B=${B:-/tmp/sweep10/bin}
W=${W:-/tmp/sweep10/work}; mkdir -p $W $H/logs; what=${1:-all}
O=$B/stagecraft-opt; T="timeout 180"
V() { $T $O "$@" -tile-verify-schedule -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep -v '^ \|^$\|^\^\|^%\|^}\|see current'; }
on() { [ $what = all ] || [ $what = $1 ]; }
cd $M
if on blocks; then {   # every ```mlir block of the docs through stagecraft-opt; excerpts compared with their files
  python3 $H/tools/extract_blocks.py $H/inputs/blocks README.md docs/{tutorial,app,ir-reference,schedule-format,legality,timeline,export,running-on-a-gpu,bundle-format,runner-protocol,testing}.md assets/lessons/*/lesson.md
  for f in $H/inputs/blocks/*.mlir; do echo "[$(basename $f)] $($T $O $f -o /dev/null 2>&1 | head -1 | cut -c1-200)"; done
  $T $O $H/inputs/iota-wrapped.mlir -o /dev/null && echo "[iota-wrapped] parses"
  for p in "ir-reference-688 assets/gemm.mlir" "ir-reference-776 assets/attention_fwd_d128.mlir" "ir-reference-752 assets/fp8_gemm_promoted.mlir" "ir-reference-730 assets/fp8_gemm.mlir" "ir-reference-163 assets/gemm.mlir" "ir-reference-30 test/Schedule/materialize.mlir"; do set -- $p; python3 $H/tools/excerpt_in.py $H/inputs/blocks/$1.mlir $2; done
  $T $O assets/gemm.mlir -tile-verify-schedule -o /dev/null 2>&1 | head -8 | diff - $H/inputs/blocks/ir-reference-705.txt && echo "gemm remark = ir-reference.md:704"
} > $H/logs/blocks.log 2>&1; fi
if on neg; then $H/tools/neg.sh $H/inputs/neg/*.mlir > $H/logs/neg.log 2>&1; fi
if on sched; then {   # schedule-format.md: materialize, export, round trip, error table
  $T $O test/Schedule/materialize.mlir -tile-materialize-schedule 2>&1 | grep tile.sched
  $T $O $H/inputs/partly-scheduled.mlir -tile-export-schedule -o /dev/null
  $T $O assets/gemm.mlir -tile-export-schedule -o /dev/null | diff - $H/inputs/blocks/schedule-format-118.json && echo "gemm export = schedule-format.md:117"
  ( cd $W && rm -f a.json b.json c.json && cp -r $M/assets . 2>/dev/null
    $O assets/attention_fwd_d128.mlir -tile-apply-schedule=file=assets/schedules/attention_cp_dot1_s3.json -tile-export-schedule=file=a.json -o a.mlir
    $O a.mlir -tile-export-schedule=file=b.json -o /dev/null
    $O assets/attention_fwd_d128.mlir -tile-apply-schedule=file=a.json -tile-export-schedule=file=c.json -o /dev/null
    cmp a.json b.json && cmp a.json c.json && echo "round trip: identical"; diff a.json $H/inputs/blocks/schedule-format-180.json && echo "a.json = doc" )
  python3 -c "open('$W/big.json','w').write('{\"kernel\": \"' + 'x'*(17*1024*1024) + '\", \"ops\": []}')"
  for f in nope.json $(ls $H/inputs/schederr) $W/big.json; do p=$H/inputs/schederr/$f; [ -e "$p" ] || p=$f; echo "[$f] $($T $O assets/gemm.mlir -tile-apply-schedule=file=$p -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | head -1 | sed "s|$H/inputs/schederr/||")"; done
  echo "[allow-illegal unknown] $($O assets/gemm.mlir "-tile-apply-schedule=file=$H/inputs/schederr/unknown-name.json allow-illegal=true" -o /dev/null 2>&1 | head -1)"
  echo '{"kernel": "", "registers": [40, 232], "ops": []}' > $W/budgets.json
  V assets/gemm.mlir -tile-apply-schedule=file=$W/budgets.json | grep "warp group"
  $T $B/stagecraft-compile assets/gemm.mlir --schedule $W/budgets.json -o $W/gemm-budgets -q && grep setmaxnreg $W/gemm-budgets/kernel.ptx
} > $H/logs/sched.log 2>&1; fi
if on legality; then ( cd $H/inputs/legality   # legality.md's toy loop, GEMM and attention examples
  V toy.mlir
  for j in same_stage_bad same_stage_ok same_order_bad same_order_ok lc_dist_bad lc_order_bad lc_order_ok lc_late_bad cross_bad cross_ok wait_bad wait_ok unknown_bad; do echo "== $j"; V toy.mlir -tile-apply-schedule=file=$j.json; done
  for j in gemm_wait0 gemm_stage0 gemm_smem_bad gemm_wait3 gemm_onegroup regs_41_232 regs_32_240 regs_200_232 regs_0_0_40 regs_24_152 regs_40 pp cl2; do echo "== gemm $j"; V gemm.mlir -tile-apply-schedule=file=$j.json; done
  echo "== gemm_wg2 onegroup"; V gemm_wg2.mlir -tile-apply-schedule=file=gemm_onegroup.json
  echo "== attn_v_early"; V attn.mlir -tile-apply-schedule=file=$M/assets/schedules/attention_cp_dot0_s2.json -tile-apply-schedule=file=attn_v_early.json
  echo "== attn_regs_bad"; V attn.mlir -tile-apply-schedule=file=attn_regs_bad.json
  echo "== verify-illegal.mlir"; $O $M/test/Schedule/verify-illegal.mlir --split-input-file -tile-verify-schedule -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep "error: illegal\|error: kernel\|error: ops"
  for k in attention_fwd_d128 attention_fwd_d64; do for s in none attention_cp_dot0_s2 attention_cp_dot1_s3; do a=""; [ $s != none ] && a="-tile-apply-schedule=file=$M/assets/schedules/$s.json"; echo "$k $s: $(V $M/assets/$k.mlir $a | grep 'shared memory\|warp group 1' | tr '\n' ' ')"; done; done
) > $H/logs/legality.log 2>&1; fi
if on lessons; then {   # the tutorial's and lessons' numbers
  for l in assets/lessons/*/; do echo "== $l"; V $l/kernel.mlir; done
  V assets/lessons/01*/kernel.mlir -tile-apply-schedule=file=docs/tutorial/lesson1-mma-in-stage-1.json
  V assets/lessons/01*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson1-mma-left.json
  V assets/lessons/02*/kernel.mlir -tile-apply-schedule=file=docs/tutorial/lesson2-mma-in-stage-3.json
  V assets/lessons/02*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson2-mma-in-stage-4.json
  V assets/lessons/03*/kernel.mlir -tile-apply-schedule=file=docs/tutorial/lesson3-wait-1.json
  V assets/lessons/03*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson3-wait1-ahead3.json
  V assets/lessons/04*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson4-loads-new-group.json
  V assets/lessons/05*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson5-triton-a.json
  V assets/lessons/05*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson5-triton-b.json
  V assets/lessons/06*/kernel.mlir -tile-apply-schedule=file=$H/inputs/lesson6-pingpong.json
  V assets/persistent_gemm_grouped.mlir -tile-apply-schedule=file=$H/inputs/consumers_pingpong.json
} > $H/logs/lessons.log 2>&1; fi
if on timeline; then {
  $T $B/stagecraft-timeline assets/gemm.mlir | head -1
  $T $B/stagecraft-timeline assets/gemm.mlir --schedule bench/timeline/schedules/gemm--single-ahead1-wait0.json | head -1
  $T $B/stagecraft-timeline assets/attention_fwd_d128.mlir | head -1
  $T $B/stagecraft-timeline assets/attention_fwd_d128.mlir --schedule assets/schedules/attention_cp_dot1_s3.json | head -1
  $T $B/stagecraft-timeline assets/gemm.mlir --cluster 2 --size M=16768 | grep note | head -1
  STAGECRAFT_TIMELINE=$B/stagecraft-timeline $T python3 bench/timeline/calibrate.py --table $W/calib.md --rows $W/calib-rows.jsonl > $W/calib.log 2>&1
  grep "^- current lowering" $W/calib.md
} > $H/logs/timeline.log 2>&1; fi
if on export; then ( cd $W && rm -rf exported
  $T $B/stagecraft-compile assets/attention_fwd_d128.mlir --schedule assets/schedules/attention_cp_dot1_s3.json --export exported/attn; echo rc=$?
  for n in attn-v2 ctypes; do $T $B/stagecraft-compile assets/attention_fwd_d128.mlir -q --export exported/$n; echo rc=$?; done
  g++ -std=c++17 -fsyntax-only -I/usr/local/cuda/include -Iexported/attn exported/attn/example.cpp && echo "example.cpp: syntax ok"
  ( cd exported/attn && /usr/local/cuda/bin/nvcc -std=c++17 -O2 -o example example.cpp -lcuda && echo "example.cpp: nvcc ok" )
) > $H/logs/export.log 2>&1; fi
if on runner; then ( cd $W; R=$B/stagecraft-run
  $T $B/stagecraft-compile assets/gemm.mlir -o gemm-b -q; $T $B/stagecraft-compile assets/attention_fwd_d128.mlir -o attn-tl --with-timeline -q
  $R gemm-b 2>/dev/null | cut -c1-200; echo "rc=${PIPESTATUS[0]}"
  printf '{"id": 1, "cmd": "ping"}\n{"id": 7, "cmd": "check", "bundle": "%s/gemm-b"}\n' $W | $R --serve 2>/dev/null | cut -c1-160; echo "rc=${PIPESTATUS[1]}"
  printf '{"id": 1, "cmd": "ping"}\n{"id": 2, "bundle": "%s/gemm-b"}\n{"id": 3, "bogus": 1}\n' $W | $R --serve --dry-run 2>/dev/null | cut -c1-200; echo "rc=${PIPESTATUS[1]}"
  python3 -c "import json; m=json.load(open('attn-tl/manifest.json')); s=json.load(open('attn-tl/signature.json')); print(sorted(m)); print(json.dumps(m['timeline'])[:300]); print('smem_bytes_estimate', s['smem_bytes_estimate'])"
) > $H/logs/runner.log 2>&1; fi
if on app; then { S=$W/shots; mkdir -p $S
  sh() { out=$1; shift; HOME=$W/apphome timeout 120 xvfb-run -a -s "-screen 0 1920x1200x24" $B/stagecraft "$@" --no-runner --no-restore --screenshot $S/$out.png > $S/$out.log 2>&1; echo "$out rc=$? :: $(tail -2 $S/$out.log | tr '\n' ' ' | cut -c1-300)"; }
  sh l1 --lesson 1; sh l1b --lesson 1 --schedule docs/tutorial/lesson1-mma-in-stage-1.json
  sh l2b --lesson 2 --schedule docs/tutorial/lesson2-mma-in-stage-3.json; sh l3b --lesson 3 --schedule docs/tutorial/lesson3-wait-1.json
  sh les4b --lesson 4 --schedule $H/inputs/lesson4-loads-new-group.json; sh les6b --lesson 6 --schedule $H/inputs/lesson6-pingpong.json; sh les99 --lesson 99
  sh app-default --size 1600x960 --select Softmax --schedule assets/schedules/attention_cp_dot1_s3.json
  R=bench/results/timeline-measured-h100-2026-11-23-run4/r1
  sh tl-literal assets/gemm.mlir --trace $R/gemm--ws-ahead2-wait1.measured.json --panel timeline --size 1600x480
  xz -dc $R/gemm--ws-ahead2-wait1.measured.json.xz > $W/gemm--ws-ahead2-wait1.measured.json
  sh tl-gemm assets/gemm.mlir --trace $W/gemm--ws-ahead2-wait1.measured.json --panel timeline --size 1600x480
  sh tl-wrong assets/attention_fwd_d128.mlir --trace $W/gemm--ws-ahead2-wait1.measured.json
  sh schedwrong assets/gemm.mlir --schedule assets/schedules/attention_cp_dot1_s3.json
  sh selbad assets/gemm.mlir --select Nope; sh pgemm assets/persistent_gemm.mlir; sh pp assets/persistent_gemm_pingpong.mlir
  sh tli assets/gemm.mlir --panel timeline --timeline-iterations 126:128 --size 1600x480
} > $H/logs/app.log 2>&1; fi
echo "logs in $H/logs"
