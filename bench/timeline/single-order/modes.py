#!/usr/bin/env python3
"""Each recorded CTA's steady iteration, from a measured trace (the single-group order's modes).

    python3 modes.py RESULT.json TRACE.json LABEL

Per recorded CTA: consumer 1's mean time between its MMA units' starts over the loop's second
half (consumer 1 issues no loads in either order, so its units are the same). Prints
the run's verified TFLOP/s, the deciles of the CTAs' iterations, how many CTAs run slower than
800 ns an iteration, and the median iteration of those under and over it.
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import units  # noqa: E402  (bench/timeline/units.py: the traces' row names)

SLOW_NS = 800  # between the two modes the sampled CTAs showed (716-728 and 860-950 ns)


def main():
    result_path, trace_path, label = sys.argv[1:4]
    r = json.loads(open(result_path).read().strip().splitlines()[-1])
    t = json.load(open(trace_path))
    procs, threads = units.row_names(t)
    starts, spans = {}, {}
    for e in t["traceEvents"]:
        if e.get("ph") == "X":
            m = re.match(r"CTA (\d+)", procs.get(e["pid"], ""))
            if m:
                a, b = spans.get(int(m.group(1)), (e["ts"], e["ts"] + e["dur"]))
                spans[int(m.group(1))] = (min(a, e["ts"]), max(b, e["ts"] + e["dur"]))
        if e.get("ph") != "X" or e.get("name") != "MMA" or threads.get((e["pid"], e["tid"])) != "consumer 1":
            continue
        m = re.match(r"CTA (\d+)", procs.get(e["pid"], ""))
        if m:
            starts.setdefault(int(m.group(1)), {})[e["args"]["iteration"]] = e["ts"]
    per_cta = []
    for cta, s in sorted(starts.items()):
        # The mean, not the median gap: in the slow mode the iterations alternate long and
        # short, and the median picks one of them.
        its = sorted(i for i in s if i >= max(s) // 2)
        if len(its) > 1:
            per_cta.append((s[its[-1]] - s[its[0]]) * 1000 / (its[-1] - its[0]))
    tr = r.get("trace") or {}
    print(f"## {label}: verified {r.get('verified')}, {r.get('tflops') or 0:.1f} TFLOP/s "
          f"(median {r.get('median_us', 0):.0f} us), {len(per_cta)} recorded CTAs; instrumented "
          f"{tr.get('instrumented_median_us', 0):.0f} us (code {100 * (tr.get('code_overhead') or 0):+.1f}%, "
          f"records {100 * (tr.get('recording_overhead') or 0):+.1f}%)")
    if spans:
        q = statistics.quantiles([b - a for a, b in spans.values()], n=10) if len(spans) > 1 else [0] * 9
        print("recorded CTAs' spans, first record to last, deciles (us): " + " ".join(f"{x:.1f}" for x in q))
    if not per_cta:
        print("no consumer 1 MMA units in the trace")
        return
    q = statistics.quantiles(per_cta, n=10) if len(per_cta) > 1 else per_cta * 9
    print("consumer 1 iteration deciles (ns): " + " ".join(f"{x:.0f}" for x in q))
    slow = [x for x in per_cta if x > SLOW_NS]
    fast = [x for x in per_cta if x <= SLOW_NS]
    print(f"over {SLOW_NS} ns: {len(slow)} of {len(per_cta)} CTAs"
          + (f" (median {statistics.median(slow):.0f})" if slow else "")
          + (f"; the others' median {statistics.median(fast):.0f}" if fast else ""))
    # Each warp group's units over the loop's second half, every recorded CTA: the median
    # zone (a unit lasts until its warp group's next unit starts).
    rows = {}
    for e in t["traceEvents"]:
        if e.get("ph") == "X" and re.match(r"CTA \d+", procs.get(e["pid"], "")):
            rows.setdefault((e["pid"], e["tid"]), []).append(e)
    zones = {}
    for (pid, tid), es in rows.items():
        es.sort(key=lambda e: e["ts"])
        half = max(e["args"].get("iteration", 0) for e in es) // 2
        for a, b in zip(es, es[1:]):
            if a["args"].get("iteration", 0) >= half:
                zones.setdefault((threads.get((pid, tid), "?"), a["name"]), []).append((b["ts"] - a["ts"]) * 1000)
    print("unit zones, median ns: " + ", ".join(f"{wg} {unit} {statistics.median(v):.0f}"
                                               for (wg, unit), v in sorted(zones.items())))


if __name__ == "__main__":
    main()
