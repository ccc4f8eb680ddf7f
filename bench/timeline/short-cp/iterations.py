#!/usr/bin/env python3
"""Where a launch's time goes, iteration by iteration: for each measured trace of OUT (from
traces-on-gpu.sh), per source iteration the median over the recording CTAs of consumer 0's
iteration (its first unit's start to its next) and of each unit's zone on consumer 0's row,
and the median recorded CTA's span (its first record to its last zone's end).

  bench/timeline/short-cp/iterations.py OUT [--round 1]
"""
import argparse
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import units  # noqa: E402


def describe(path, row="consumer 0"):
    t = units.load_json(path)
    _, rows = units.row_names(t)
    zones = [e for e in t["traceEvents"] if e.get("ph") == "X"]
    spans, per_it, per_unit = [], {}, {}
    names = []
    for pid in sorted({e["pid"] for e in zones}):
        mine = [e for e in zones if e["pid"] == pid]
        spans.append(max(e["ts"] + e["dur"] for e in mine) - min(e["ts"] for e in mine))
        row_zones = sorted((e for e in mine if rows.get((pid, e["tid"])) == row), key=lambda e: e["ts"])
        if not row_zones:
            continue
        first = min(row_zones, key=lambda e: (e["args"].get("iteration", 0), e["ts"]))["name"]
        starts = [e for e in row_zones if e["name"] == first]
        for a, b in zip(starts, starts[1:]):
            per_it.setdefault(a["args"]["iteration"], []).append(1000 * (b["ts"] - a["ts"]))
        for e in row_zones:
            if e["name"] not in names:
                names.append(e["name"])
            per_unit.setdefault((e["name"], e["args"].get("iteration", 0)), []).append(1000 * e["dur"])
    return spans, per_it, per_unit, names


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--round", default="1")
    ap.add_argument("--iterations", type=int, default=4, help="first and last iterations shown")
    a = ap.parse_args()
    traces = sorted(glob.glob(os.path.join(a.out, f"*-{a.round}.trace.json*")))
    if not traces:
        sys.exit(f"iterations.py: no *-{a.round}.trace.json[.xz] in {a.out}")
    for path in traces:
        spans, per_it, per_unit, names = describe(path)
        name = os.path.basename(path).split(".trace")[0]
        print(f"## {name}: {len(spans)} recording CTAs, CTA span median {statistics.median(spans):.2f} us\n")
        its = sorted(per_it)
        shown = its if len(its) <= 2 * a.iterations else its[:a.iterations] + its[-a.iterations:]
        print("| iteration | consumer 0's iteration | " + " | ".join(names) + " |")
        print("|---|---|" + "---|" * len(names))
        for it in shown:
            cells = [f"{statistics.median(per_unit[(n, it)]):.0f}" if (n, it) in per_unit else "-" for n in names]
            print(f"| {it} | {statistics.median(per_it[it]):.0f} ns | " + " | ".join(cells) + " |")
        mid = its[len(its) // 2]
        print(f"\n(median of iterations {its[0]}..{its[-1]}: "
              f"{statistics.median(v for it in its for v in per_it[it]):.0f} ns; iteration {mid}: "
              f"{statistics.median(per_it[mid]):.0f} ns)\n")


if __name__ == "__main__":
    main()
