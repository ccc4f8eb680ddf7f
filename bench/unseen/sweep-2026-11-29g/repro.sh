#!/bin/bash
# The findings of REPORT.md, one command each (from the repository root). Output: logs/repro.txt
B=${B:-/tmp/sweep13/bin}; G=bench/unseen/sweep-2026-11-29g; T=/tmp/g13; mkdir -p $T
cd /work/main
t() { echo "\$ $*"; timeout 180 "$@" 2>&1; echo "[rc=$?]"; }
echo "### B1 mxfp8_gemm_upcast: FLOPs counted 1024x low (timeline, compile summary, manifest)"
t $B/stagecraft-timeline assets/mxfp8_gemm_upcast.mlir
$B/stagecraft-timeline assets/mxfp8_gemm_upcast.mlir --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("flops", d["flops"], "2MNK", 2*8192**3, "ratio", 2*8192**3/d["flops"])'
rm -rf $T/mxu; t $B/stagecraft-compile assets/mxfp8_gemm_upcast.mlir --no-cubin -o $T/mxu
python3 -c "import json; print('manifest flops', json.load(open('$T/mxu/manifest.json'))['flops'])"
t $B/stagecraft-timeline bench/unseen/sweep-2026-11-28/u01_mx_upcast_f16_gelu.mlir
echo "### B2 predicted lanes stop at iteration 255 for longer loops (no epilogue, trip_count_shown says all)"
for K in 16384 16448 1048576; do $B/stagecraft-timeline assets/gemm.mlir --size K=$K --trace $T/long.json > /dev/null
python3 -c "
import json; d=json.load(open('$T/long.json')); o=d['otherData']; ev=[e for e in d['traceEvents'] if e['ph']=='X']
its=[e['args']['iteration'] for e in ev]
print('K=$K trip_count_shown', o['trip_count_shown'], 'iterations in trace', min(its), '..', max(its), 'epilogue events', sum(e['name']=='epilogue' for e in ev), 'trace ends %.1f us, cta_us %.1f' % (max(e['ts']+e['dur'] for e in ev), o['cta_us']), 'notes', [v for k,v in o.items() if k.startswith('note')])"; done
echo "### B3 DRAM-bound streams: a second full round of CTAs runs ~1.7x faster than the first (3.2 TB/s > the model's 2.58)"
for M in 16896 33792 50688 135168; do $B/stagecraft-timeline bench/unseen/sweep-2026-11-28/r01_rownorm_stream.mlir --size M=$M --json | python3 -c "
import json,sys; d=json.load(sys.stdin); print('r01 M=$M ctas', d['ctas'], 'waves', round(d['waves'],2), 'cta_us', round(d['cta_us'],1), 'total_us', round(d['total_us'],1), 'TB/s', round(d['dram_tbps'],2), 'bound', d['bound'])"; done
t $B/stagecraft-timeline test/Inputs/unseen/stream-store.mlir
$B/stagecraft-timeline test/Inputs/unseen/stream-store.mlir --trace $T/ss.json > /dev/null
python3 -c "
import json; d=json.load(open('$T/ss.json')); tn={e['tid']:e['args']['name'] for e in d['traceEvents'] if e['ph']=='M' and e['name']=='thread_name'}
ev=[e for e in d['traceEvents'] if e['ph']=='X']; print('threads', sorted(tn.values()))
for e in ev:
  if e['args']['iteration'] in (10,11): print(' ', tn[e['tid']], e['name'], e['cat'], round(e['args']['start_ns'],1), round(e['args']['duration_ns'],1))"
echo "### M: one-trip loop reported as a steady-state iteration"
t $B/stagecraft-timeline assets/gemm.mlir --size K=64
echo "### M: timeline-iterations past the loop silently ignored; traces with overlapping / duplicate zones / iterations past the trip count accepted"
for it in 1000000:1000001 16382:16384; do HOME=/tmp/apphome13 timeout 180 xvfb-run -a -s "-screen 0 1720x1040x24" $B/stagecraft $G/kernels/gemm_k1m.mlir --no-runner --no-restore --panel timeline --timeline-iterations $it --screenshot $T/ti.png 2>&1 | tail -1; done
echo "### M: stagecraft-run --trace does not check the trace path or the bundle's instrumented kernel before the run"
rm -rf $T/gemm_tl; $B/stagecraft-compile assets/gemm.mlir --no-cubin --with-timeline -o $T/gemm_tl > /dev/null 2>&1
t $B/stagecraft-run $T/mxu --trace /nonexistent/dir/x.json
t $B/stagecraft-run $T/gemm_tl --trace $T
echo "### M: --with-timeline at 16384 iterations: 3 records/iteration > capacity 8192, no compile-time word"
rm -rf $T/k1m_tl; t $B/stagecraft-compile $G/kernels/gemm_k1m.mlir --no-cubin --with-timeline -o $T/k1m_tl
echo "### hand cases (one 8 KiB load + one 64x64x64 dot, 1 CTA)"
for f in $G/kernels/h1_*.mlir; do printf '%s: ' $(basename $f .mlir); $B/stagecraft-timeline $f | head -1; done
