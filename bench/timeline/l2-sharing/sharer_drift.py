#!/usr/bin/env python3
"""How far apart in K steps the CTAs that load the same box run, from a measured trace of every
CTA of a persistent GEMM (bench/timeline/cta-placement/traces-on-gpu.sh: 132 CTAs, their first
two tiles). For each group of sharers, the spread (latest - earliest) of their loadA issue times
at an iteration, in median K steps of CTA 0; printed per iteration as the groups' median.

    python3 bench/timeline/l2-sharing/sharer_drift.py TRACE.json[.xz] ORDER

ORDER names how the kernel's tiles (128x256, 64 x 32 of them at 8192^3) fall on the CTAs of a
round, i.e. which CTAs share A (a tile row) and B (a tile column): row-major (A: 32 consecutive
CTAs, B: 4 CTAs 32 apart) or grouped4 (A: every 4th CTA, B: 4 consecutive CTAs). The TPC pairs
(2k, 2k+1) and quads (4k..4k+3) are printed too.
"""
import json
import lzma
import statistics
import sys

ITERATIONS = (5, 32, 64, 127, 140, 200, 255)


def load(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        d = json.load(f)
    ev = d["traceEvents"]
    cta = {e["pid"]: int(e["args"]["name"].split()[1]) for e in ev if e.get("name") == "process_name"}
    t = {}
    for e in ev:
        if e.get("ph") == "X" and e["name"] == "loadA":
            t[(cta[e["pid"]], e["args"]["iteration"])] = e["args"]["start_ns"]
    return t


def main():
    path, order = sys.argv[1], sys.argv[2]
    t = load(path)
    n = max(c for c, _ in t) + 1
    step = statistics.median(t[(0, i + 1)] - t[(0, i)] for i in range(20, 120))
    sharers = {
        "row-major": {"A (32 consecutive)": [list(range(r, min(n, r + 32))) for r in range(0, n, 32)],
                      "B (4, 32 apart)": [[c + 32 * j for j in range(4) if c + 32 * j < n] for c in range(32)]},
        "grouped4": {"A (every 4th)": [list(range(r, 128, 4)) for r in range(4)],
                     "B (4 consecutive)": [[4 * k + j for j in range(4)] for k in range(n // 4)]},
    }[order]
    groups = {"TPC pairs (2k, 2k+1)": [[2 * k, 2 * k + 1] for k in range(n // 2)],
              "quads (4k..4k+3)": [[4 * k + j for j in range(4)] for k in range(n // 4)],
              "all CTAs": [list(range(n))], **{"sharers of " + k: v for k, v in sharers.items()}}
    print(f"{path}: {n} CTAs, median K step {step:.0f} ns; spread in K steps at iteration "
          + ", ".join(map(str, ITERATIONS)))
    for name, gs in groups.items():
        cells = []
        for i in ITERATIONS:
            s = [max(t[(c, i)] for c in g) - min(t[(c, i)] for c in g) for g in gs
                 if len(g) > 1 and all((c, i) in t for c in g)]
            cells.append(f"{statistics.median(s) / step:5.2f}")
        print(f"  {name:28s} " + " ".join(cells))


if __name__ == "__main__":
    main()
