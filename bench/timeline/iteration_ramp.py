#!/usr/bin/env python3
"""How a launch's iterations speed up: per source iteration, the median over the recorded CTAs
of one warp group's iteration (from one unit's start to its next start) and of one unit's zone.

  bench/timeline/iteration_ramp.py TRACE [--row "consumer 0"] [--unit MMA0] [--zone Sigmoid]

TRACE: a measured trace (stagecraft-run --trace; plain or .xz), best with every CTA of a wave
recording (--timeline-ctas), so that the medians are over the launch's CTAs and not four.
--unit defaults to the row's first unit of an iteration; --zone to none.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import units  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--row", default="consumer 0")
    ap.add_argument("--unit")
    ap.add_argument("--zone")
    a = ap.parse_args()
    if not os.path.isfile(a.trace):
        sys.exit(f"iteration_ramp.py: {a.trace}: no such file")
    t = units.load_json(a.trace)
    _, rows = units.row_names(t)
    zones = [e for e in t["traceEvents"] if e.get("ph") == "X" and rows.get((e["pid"], e["tid"])) == a.row]
    if not zones:
        sys.exit(f"iteration_ramp.py: {a.trace}: no zones on a row named {a.row!r} "
                 f"(rows: {', '.join(sorted(set(rows.values())))})")
    unit = a.unit or min(zones, key=lambda e: (e["args"].get("iteration", 0), e["ts"]))["name"]
    starts, lengths = {}, {}
    for pid in sorted({e["pid"] for e in zones}):
        mine = sorted((e for e in zones if e["pid"] == pid and e["name"] == unit), key=lambda e: e["ts"])
        for e, nxt in zip(mine, mine[1:]):
            starts.setdefault(e["args"]["iteration"], []).append(1000 * (nxt["ts"] - e["ts"]))
        for e in zones:
            if e["pid"] == pid and a.zone and e["name"] == a.zone:
                lengths.setdefault(e["args"]["iteration"], []).append(1000 * e["dur"])
    if not starts:
        sys.exit(f"iteration_ramp.py: no unit {unit!r} twice on a row {a.row!r}")
    print(f"| iteration | {a.row}: {unit} to {unit} | CTAs |" + (f" {a.zone} zone |" if a.zone else ""))
    print("|---|---|---|" + ("---|" if a.zone else ""))
    for it in sorted(starts):
        line = f"| {it} | {statistics.median(starts[it]):.0f} ns | {len(starts[it])} |"
        if a.zone:
            line += f" {statistics.median(lengths[it]):.0f} ns |" if it in lengths else " - |"
        print(line)


if __name__ == "__main__":
    main()
