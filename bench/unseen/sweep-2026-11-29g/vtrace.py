#!/usr/bin/env python3
"""Independent trace-event validator (Chrome trace-event format + what docs/timeline.md promises).

usage: vtrace.py TRACE.json [--kind predicted|measured] [--quiet]
Prints one line per problem class with a count and an example, then a summary line.
"""
import json, math, sys, collections

def main():
    path = sys.argv[1]
    quiet = '--quiet' in sys.argv
    probs = collections.OrderedDict()
    def bad(cls, ex):
        probs.setdefault(cls, [0, ex])
        probs[cls][0] += 1
    raw = open(path, 'rb').read()
    try:
        d = json.loads(raw, parse_constant=lambda c: (_ for _ in ()).throw(ValueError('non-JSON constant ' + c)))
    except Exception as e:
        print(f'{path}: INVALID JSON: {e}')
        return 2
    if isinstance(d, list):
        evs, other = d, {}
    elif isinstance(d, dict):
        evs = d.get('traceEvents')
        other = d.get('otherData', {})
        if not isinstance(evs, list):
            print(f'{path}: no traceEvents array'); return 2
        du = d.get('displayTimeUnit')
        if du is not None and du not in ('ms', 'ns'):
            bad('displayTimeUnit not ms/ns', du)
    else:
        print(f'{path}: top level not object/array'); return 2
    names = {}  # (pid,tid) -> name
    pnames = {}
    used = set()
    per_thread = collections.defaultdict(list)
    per_key = collections.Counter()
    nX = 0
    for i, e in enumerate(evs):
        if not isinstance(e, dict):
            bad('event not object', i); continue
        ph = e.get('ph')
        if ph not in ('X', 'M', 'B', 'E', 'i', 'I', 'C', 'b', 'e', 'n', 's', 't', 'f'):
            bad('bad ph', e); continue
        if 'name' not in e or not isinstance(e['name'], str) or e['name'] == '':
            bad('missing/empty name', e)
        for k in ('pid', 'tid'):
            v = e.get(k)
            if not isinstance(v, int) or isinstance(v, bool):
                bad(f'{k} not integer', e)
        if ph == 'M':
            a = e.get('args', {})
            if e.get('name') == 'thread_name':
                names[(e.get('pid'), e.get('tid'))] = a.get('name')
            elif e.get('name') == 'process_name':
                pnames[e.get('pid')] = a.get('name')
            elif e.get('name') not in ('process_sort_index', 'thread_sort_index', 'process_labels'):
                bad('unknown metadata name', e)
            continue
        for k in ('ts',) + (('dur',) if ph == 'X' else ()):
            v = e.get(k)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                bad(f'{k} not finite number', e); continue
            if v < 0:
                bad(f'{k} negative', e)
        if ph != 'X':
            bad('non-X data event', e); continue
        nX += 1
        used.add((e.get('pid'), e.get('tid')))
        ts, dur = e.get('ts'), e.get('dur')
        if isinstance(dur, (int, float)) and dur == 0:
            bad('zero dur', e)
        a = e.get('args', {})
        it = a.get('iteration')
        if it is None:
            bad('X without args.iteration', e)
        if isinstance(ts, (int, float)) and isinstance(dur, (int, float)):
            per_thread[(e['pid'], e['tid'])].append((ts, ts + dur, e['name'], it))
            sn, dn = a.get('start_ns'), a.get('duration_ns')
            if isinstance(sn, (int, float)) and abs(sn / 1000 - ts) > 0.0011:
                bad('ts != start_ns/1000', e)
            if isinstance(dn, (int, float)) and abs(dn / 1000 - dur) > 0.0021:
                bad('dur != duration_ns/1000', e)
            if isinstance(dn, (int, float)) and dn <= 0:
                bad('duration_ns <= 0', e)
        per_key[(e.get('pid'), e.get('tid'), e.get('name'), it)] += 1
    for k in used:
        if k not in names:
            bad('thread without thread_name', k)
        if k[0] not in pnames:
            bad('process without process_name', k)
    for k, c in per_key.items():
        if c > 1:
            bad('same unit+iteration twice on one thread', (k, c))
    overl = 0
    for k, lst in per_thread.items():
        lst.sort()
        for a, b in zip(lst, lst[1:]):
            if b[0] < a[1] - 1e-9:
                bad('overlap within a thread', (names.get(k), a, b))
    # non-finite in otherData
    def walk(x, p):
        if isinstance(x, float) and not math.isfinite(x):
            bad('non-finite in otherData', p)
        elif isinstance(x, dict):
            for kk, vv in x.items(): walk(vv, p + '.' + str(kk))
        elif isinstance(x, list):
            for ii, vv in enumerate(x): walk(vv, p + f'[{ii}]')
    walk(other, 'otherData')
    for cls, (n, ex) in probs.items():
        print(f'{path}: {cls}: {n} e.g. {str(ex)[:300]}')
    if not quiet or probs:
        print(f'{path}: {nX} X events, {len(used)} threads, {len(pnames)} processes, {len(probs)} problem classes')
    return 1 if probs else 0

if __name__ == '__main__':
    sys.exit(main())
