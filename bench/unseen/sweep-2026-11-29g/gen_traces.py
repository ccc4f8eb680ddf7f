#!/usr/bin/env python3
"""Odd measured traces for the app, derived from the committed H100 trace of gemm ws-ahead2-wait1
(bench/results/timeline-measured-h100-2026-11-23-run4/r1). Writes traces/*.json."""
import json, lzma, copy, os, math
R = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../bench/results/timeline-measured-h100-2026-11-23-run4/r1')
base = json.load(lzma.open(f'{R}/gemm--ws-ahead2-wait1.measured.json.xz'))
attn = json.load(lzma.open(f'{R}/attention_fwd_d128--default.measured.json.xz'))
OUT = os.environ.get('TRACES', '/tmp/g13/traces'); os.makedirs(OUT, exist_ok=True)
def w(name, obj, raw=None):
    with open(f'{OUT}/{name}.json', 'w') as f:
        f.write(raw if raw is not None else json.dumps(obj))
w('good_gemm', base)
w('other_kernel_attention', attn)
# the attention trace relabelled as gemm (kernel name matches, units do not)
a2 = copy.deepcopy(attn); a2['otherData']['kernel'] = 'gemm'; w('attention_named_gemm', a2)
s = json.dumps(base); w('truncated', None, s[: len(s) // 2])
z = copy.deepcopy(base); z['traceEvents'] = [e for e in z['traceEvents'] if e['ph'] == 'M']; w('zero_events', z)
w('empty_object', {}); w('empty_array', [])
w('bare_zero', {'traceEvents': []})
# a trace whose only CTA has only metadata, the others full
m = copy.deepcopy(base); m['traceEvents'] = [e for e in m['traceEvents'] if e['ph'] == 'M' or e['pid'] != 1]; w('cta0_empty', m)
# NaN / negative / huge
n = copy.deepcopy(base); xs = [e for e in n['traceEvents'] if e['ph'] == 'X']
xs[5]['dur'] = -3.0; xs[5]['args']['duration_ns'] = -3000
xs[7]['ts'] = 1e15; xs[7]['args']['start_ns'] = 1e18
w('negative_and_huge', n)
s2 = json.dumps(base).replace('"dur": 0.064', '"dur": NaN', 1); w('nan_dur', None, s2)
# iterations far past the trip count and a negative one
it = copy.deepcopy(base)
for e in it['traceEvents']:
    if e['ph'] == 'X' and e['args']['iteration'] == 3:
        e['args']['iteration'] = 2_000_000_000
    if e['ph'] == 'X' and e['args']['iteration'] == 4:
        e['args']['iteration'] = -5
w('odd_iterations', it)
# overlapping events on one warp group: every event doubled in length
ov = copy.deepcopy(base)
for e in ov['traceEvents']:
    if e['ph'] == 'X':
        e['dur'] *= 3; e['args']['duration_ns'] *= 3
w('overlapping', ov)
# unsorted and duplicated events
import random
du = copy.deepcopy(base); xs = [e for e in du['traceEvents'] if e['ph'] == 'X']; ms = [e for e in du['traceEvents'] if e['ph'] == 'M']
random.seed(1); random.shuffle(xs); du['traceEvents'] = xs + xs[:50] + ms; w('shuffled_dups', du)
# the runner's result JSON of a failed run, and a result whose trace is null
w('result_error', {'status': 'error', 'error': 'no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE'})
w('result_trace_null', {'status': 'ok', 'kernel': 'gemm', 'trace': None})
# the predicted trace of gemm (stagecraft-timeline --trace) is added by run.sh as traces/predicted_gemm.json
# a trace with 20000 iterations (many zones): repeat iteration block
big = copy.deepcopy(base); xs = [e for e in base['traceEvents'] if e['ph'] == 'X' and e['pid'] == 1]
span = max(e['ts'] + e['dur'] for e in xs) + 1
out = [e for e in base['traceEvents'] if e['ph'] == 'M']
for r in range(160):
    for e in xs:
        e2 = copy.deepcopy(e); e2['ts'] = round(e['ts'] + r * span, 3); e2['args']['start_ns'] = int(e2['ts'] * 1000)
        e2['args']['iteration'] = e['args']['iteration'] + r * 128; out.append(e2)
big['traceEvents'] = out; w('many_zones', big)
# unknown unit name
un = copy.deepcopy(base)
for e in un['traceEvents']:
    if e['ph'] == 'X' and e['name'] == 'MMA' and e['args']['iteration'] == 10:
        e['name'] = 'MMA_NOT_IN_LOOP'
w('unknown_unit', un)
# otherData with a schedule that differs (MMA stage 1)
sd = copy.deepcopy(base); sd['otherData']['schedule']['ops'][0]['stage'] = 1; w('other_schedule', sd)
