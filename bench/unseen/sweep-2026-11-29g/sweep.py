#!/usr/bin/env python3
"""Predicted-timeline sweep: every kernel (and schedule) through stagecraft-timeline --json --trace,
the trace validated (vtrace.py) and checked against the prediction and the schedule.

usage: sweep.py OUTLOG [KERNEL.mlir[::SCHEDULE.json][::--size=..]]...   (no args: the default list)
"""
import json, math, os, subprocess, sys, glob, collections, tempfile

B = os.environ.get('B', '/tmp/sweep13/bin')
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
ROOT = os.path.abspath(os.path.join(HERE, '../../..'))


def default_list():
    ks = []
    ks += sorted(glob.glob(f'{ROOT}/assets/*.mlir'))
    ks += sorted(glob.glob(f'{ROOT}/test/Inputs/unseen/*.mlir'))
    ks += sorted(glob.glob(f'{ROOT}/bench/unseen/**/*.mlir', recursive=True))
    out = [k for k in ks]
    for a in glob.glob(f'{ROOT}/assets/attention_fwd*.mlir'):
        for s in sorted(glob.glob(f'{ROOT}/assets/schedules/attention_*.json')):
            out.append(a + '::' + s)
    for s in ('gemm-ahead1.json', 'gemm-ahead3.json', 'gemm-single-group.json', 'pingpong.json'):
        out.append(f'{ROOT}/assets/gemm.mlir::{ROOT}/test/Inputs/{s}')
    return out


def check_semantics(trace, pred, problems):
    """Checks on the predicted trace that need no model: counts, order, bound vs utilization."""
    ev = [e for e in trace['traceEvents'] if e.get('ph') == 'X']
    tn = {e['tid']: e['args']['name'] for e in trace['traceEvents']
          if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
    wg = {t for t, n in tn.items() if n == 'producer' or n.startswith('consumer') or n.startswith('team')
          or n.startswith('warp group')}
    per = collections.defaultdict(set)
    for e in ev:
        if e['tid'] in wg:
            per[(e['tid'], e['name'])].add(e['args'].get('iteration'))
    # bound named as a pipe must be busy
    b = pred.get('bound')
    ut = pred.get('utilization', {}) or {}
    if b in ut and ut[b] < 0.85:
        problems.append(f'bound "{b}" but its utilization is {ut[b]:.2f}')
    if b == 'latency' and any(v >= 0.85 for v in ut.values()):
        problems.append(f'bound latency but utilization {ut}')
    for k in ('iteration_ns', 'tflops', 'cta_us', 'total_us'):
        v = pred.get(k)
        if isinstance(v, (int, float)) and (not math.isfinite(v) or v < 0):
            problems.append(f'{k} = {v}')
        if isinstance(v, (int, float)) and v == 0 and pred.get('trip', 0) > 0:
            problems.append(f'{k} = 0 with trip {pred.get("trip")}')
    # waits before what they wait for: a wgmma pipe event must not start before the CTA's first load lands
    loads = sorted(e['ts'] + e['dur'] for e in ev if 'pipe' in e.get('cat', '') and 'load' in e.get('cat', ''))
    dots = sorted(e['ts'] for e in ev if 'pipe' in e.get('cat', '') and 'dot' in e.get('cat', ''))
    if loads and dots and dots[0] < loads[0] - 1e-6:
        problems.append(f'first wgmma at {dots[0]} before the first load lands at {loads[0]}')
    # units per warp group: the iteration numbers should be contiguous
    for (t, n), its in per.items():
        its = sorted(i for i in its if isinstance(i, int))
        if its and len(its) != its[-1] - its[0] + 1 and n != 'epilogue':
            problems.append(f'{tn[t]}/{n}: iterations not contiguous ({len(its)} of {its[0]}..{its[-1]})')
    # causality: a pipe event (transfer / wgmma group) never starts before its warp group's zone
    # of the same unit and iteration starts; the ring: load L of iteration i starts its transfer
    # only after some dot of iteration i - copies(L) has finished (the buffer's reader retired).
    zone = collections.defaultdict(list)
    for e in ev:
        if e['tid'] in wg:
            zone[(e['name'], e['args'].get('iteration'))].append((e['ts'], tn[e['tid']]))
    for e in ev:
        c = e.get('cat', '')
        if 'pipe' not in c or ('load' not in c and 'dot' not in c):
            continue
        zs = zone.get((e['name'], e['args'].get('iteration')))
        if not zs:
            problems.append(f'pipe event {e["name"]}({e["args"].get("iteration")}) on {tn.get(e["tid"])} has no warp-group zone')
            continue
        if e['ts'] < min(z[0] for z in zs) - 0.0011:
            problems.append(f'pipe {tn.get(e["tid"])} {e["name"]}({e["args"].get("iteration")}) starts {e["ts"]} before its issue zone {min(z[0] for z in zs)}')
    copies = pred.get('_copies') or {}
    dot_end = collections.defaultdict(list)
    for e in ev:
        if 'pipe' in e.get('cat', '') and 'dot' in e.get('cat', ''):
            dot_end[e['args'].get('iteration')].append(e['ts'] + e['dur'])
    nring = 0
    for e in ev:
        c = e.get('cat', '')
        if 'pipe' in c and 'load' in c and e['name'] in copies and dot_end:
            i = e['args'].get('iteration'); C = copies[e['name']]
            d = dot_end.get(i - C)
            if d and e['ts'] < min(d) - 0.0011:
                nring += 1
                if nring <= 2:
                    problems.append(f'ring: {e["name"]}({i}) transfer at {e["ts"]} before any dot of iteration {i-C} finished ({min(d)}), copies {C}')
    if nring > 2:
        problems.append(f'ring: {nring} such transfers in all')
    return per


def copies_of(k, sched):
    args = ['timeout', '120', f'{B}/stagecraft-opt', k, '-tile-verify-schedule=summary', '-o', '/dev/null']
    if sched:
        args[3:3] = [f'-tile-apply-schedule=file={sched}']
    r = subprocess.run(args, capture_output=True, text=True)
    out = {}
    for line in r.stderr.splitlines():
        if line.startswith('buffer '):
            name, rest = line[7:].split(': ', 1)
            try:
                out[name] = int(rest.split(' x ')[0])
            except ValueError:
                pass
    return out


def run_one(spec, log):
    parts = spec.split('::')
    k = parts[0]
    args = [f'{B}/stagecraft-timeline', k, '--json']
    tag = os.path.relpath(k, ROOT)
    for p in parts[1:]:
        if p.endswith('.json'):
            args.append(f'--schedule={p}')
            tag += ' + ' + os.path.basename(p)
        else:
            args.append(p)
            tag += ' ' + p
    tr = tempfile.mktemp(suffix='.json', dir='/tmp/g13')
    args.append(f'--trace={tr}')
    try:
        r = subprocess.run(['timeout', '180'] + args, capture_output=True, text=True)
    except Exception as e:
        log.write(f'{tag}: RUN FAILED {e}\n'); return
    problems = []
    if r.returncode not in (0, 1):
        problems.append(f'rc={r.returncode} stderr={r.stderr[-300:]!r}')
    pred = None
    try:
        pred = json.loads(r.stdout) if r.stdout.strip() else None
    except Exception as e:
        problems.append(f'--json output not JSON: {e}: {r.stdout[:200]!r}')
    if pred is None:
        log.write(f'{tag}: rc={r.returncode} no prediction: {(r.stderr or r.stdout).strip()[:250]!r}\n')
        return
    pred['_copies'] = copies_of(k, next((p for p in parts[1:] if p.endswith('.json')), None)) if not any(p.startswith('--size') for p in parts[1:]) else {}
    summ = (f"buildable={pred.get('buildable')} it={pred.get('iteration_ns')} bound={pred.get('bound')} "
            f"tflops={pred.get('tflops')} trip={pred.get('trip')} ctas={pred.get('ctas')}")
    if os.path.exists(tr):
        v = subprocess.run(['python3', f'{HERE}/vtrace.py', tr, '--quiet'], capture_output=True, text=True)
        for line in v.stdout.splitlines():
            if 'same unit+iteration twice' in line and "'epilogue'" in line and ', 5, ' in line:
                continue  # the TMA-stores pipe has a panel per event (noted once in REPORT)
            if 'problem classes' in line:
                continue
            problems.append('vtrace: ' + line.split(': ', 1)[1][:300])
        try:
            t = json.load(open(tr))
            check_semantics(t, pred, problems)
        except Exception as e:
            problems.append(f'trace unreadable by json: {e}')
        os.unlink(tr)
    else:
        problems.append('no trace file written')
    log.write(f'{tag}: rc={r.returncode} {summ}\n')
    for p in problems:
        log.write(f'    PROBLEM {p}\n')
    log.flush()


def main():
    out = sys.argv[1]
    specs = sys.argv[2:] or default_list()
    os.makedirs('/tmp/g13', exist_ok=True)
    with open(out, 'w') as log:
        for s in specs:
            run_one(s, log)


if __name__ == '__main__':
    main()
