#!/usr/bin/env python3
"""Per round of a launch, how long its sampled CTAs ran, from a measured trace of CTAs spread
over the whole grid (--timeline-ctas: CTA s * stride records).

    python3 wave_spans.py RESULT.json TRACE.json LABEL

A CTA's round is its linear id // 132 (the GPU starts CTAs in id order as SMs free up, one
CTA per SM for these kernels). Prints the run's verified TFLOP/s and median, the
instrumented launch's time (the trace's span), and per round: the sampled CTAs' median start,
span (first record to last), and consumer iteration (the median gap between a consumer warp
group's successive iterations).
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import units  # noqa: E402  (bench/timeline/units.py: the traces' row names)

SLOTS = 132


def main():
    result_path, trace_path, label = sys.argv[1:4]
    r = json.loads(open(result_path).read().strip().splitlines()[-1])
    t = json.load(open(trace_path))
    procs, threads = units.row_names(t)
    ctas = {}
    for e in t["traceEvents"]:
        if e.get("ph") != "X":
            continue
        m = re.match(r"CTA (\d+)", procs.get(e["pid"], ""))
        if not m:
            continue
        c = ctas.setdefault(int(m.group(1)), {"start": e["ts"], "end": e["ts"] + e["dur"], "iters": {}})
        c["start"] = min(c["start"], e["ts"])
        c["end"] = max(c["end"], e["ts"] + e["dur"])
        row = threads.get((e["pid"], e["tid"]), "")
        if row.startswith("consumer"):
            it = e["args"]["iteration"]
            starts = c["iters"].setdefault(row, {})
            starts[it] = min(starts.get(it, e["ts"]), e["ts"])
    rounds = {}
    for cta, c in ctas.items():
        gaps = []
        for starts in c["iters"].values():
            its = sorted(starts)
            gaps += [(starts[b] - starts[a]) / (b - a) for a, b in zip(its, its[1:])]
        rounds.setdefault(cta // SLOTS, []).append((c["start"], c["end"] - c["start"],
                                                      statistics.median(gaps) if gaps else 0))
    tr = r.get("trace") or {}
    launch = max(c["end"] for c in ctas.values()) - min(c["start"] for c in ctas.values()) if ctas else 0
    print(f"## {label}: verified {r.get('verified')}, {r.get('tflops') or 0:.1f} TFLOP/s, median "
          f"{r.get('median_us', 0):.0f} us (samples {min(r.get('samples') or [0]):.0f}-{max(r.get('samples') or [0]):.0f}), "
          f"instrumented {tr.get('instrumented_median_us', 0):.0f} us; the traced launch's CTAs span {launch:.0f} us")
    print("round | CTAs | median start (us) | median span (us) | median iteration (ns)")
    for k in sorted(rounds):
        v = rounds[k]
        print(f"{k} | {len(v)} | {statistics.median(x[0] for x in v):.1f} | {statistics.median(x[1] for x in v):.1f} | "
              f"{1000 * statistics.median(x[2] for x in v):.0f}")


if __name__ == "__main__":
    main()
