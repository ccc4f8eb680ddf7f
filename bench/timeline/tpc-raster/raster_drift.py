#!/usr/bin/env python3
"""Which CTAs load the same box at the same time, from a measured trace of every CTA of the
non-persistent 128x256 GEMM at 8192^3 (64 tile rows x 32 tile columns, 128 K steps a tile) in
one of the rasters of raster-ir.sh. The L2 -> SM path serves a box once to requests that meet
in flight (bench/results/l2-lag-h100-2026-11-26: a sharer one 32 KB copy behind gains little),
so what a raster's sharing is worth is how many sharers are in step, not how many there are.

    python3 raster_drift.py TRACE.json RASTER CTAS.csv

Prints, for the first wave (the first 132 CTAs to start) and the later ones:
  - in-step sharers: for each load of a box (A: its tile row, B: its tile column) at K step k,
    how many other CTAs issue the same box's load at step k within W ns (W = 100 to 1000);
  - the TPC partner in step: how often the CTA on the other SM of its TPC (SM id xor 1) is one
    of those sharers;
  - who the TPC partner is: the CTA on SM xor 1 overlapping it longest; how often that is
    CTA c xor 1, and how often it shares the A or B box at all.
Writes each CTA's SM, span and tile to CTAS.csv.
"""
import bisect
import json
import statistics
import sys

ROWS, COLS, SLOTS = 64, 32, 132
WINDOWS = (100, 250, 500, 1000)


def tile_of(raster, c):
    if raster == "rows":
        return c % ROWS, c // ROWS
    if raster == "columns":
        return c // COLS, c % COLS
    if raster == "apart":
        r = c % ROWS
        return r, (c // ROWS + 16 * (r % 2)) % COLS
    raise SystemExit(f"unknown raster {raster}")


def main():
    path, raster, csv_path = sys.argv[1:4]
    with open(path) as f:
        ev = json.load(f)["traceEvents"]
    cta, sm = {}, {}
    for e in ev:
        if e.get("name") == "process_name":
            words = e["args"]["name"].replace("(", " ").replace(")", " ").split()
            cta[e["pid"]] = int(words[1])
            sm[int(words[1])] = int(words[3])
    loads = {"loadA": {}, "loadB": {}}
    span = {}
    for e in ev:
        if e.get("ph") != "X":
            continue
        c = cta[e["pid"]]
        s, d = e["args"]["start_ns"], e["args"]["duration_ns"]
        lo, hi = span.get(c, (s, s + d))
        span[c] = (min(lo, s), max(hi, s + d))
        if e["name"] in loads:
            loads[e["name"]][(c, e["args"]["iteration"])] = s
    ctas = sorted(span)
    order = sorted(ctas, key=lambda c: span[c][0])
    wave = {c: i // SLOTS for i, c in enumerate(order)}
    steps = [loads["loadA"][(order[0], k + 1)] - loads["loadA"][(order[0], k)] for k in range(20, 120)]
    step = statistics.median(steps)
    print(f"== {raster}: {len(ctas)} CTAs on {len(set(sm.values()))} SMs, K step {step:.0f} ns "
          f"(the first CTA's median), launch {(max(h for _, h in span.values()) - span[order[0]][0]) / 1e3:.0f} us")

    with open(csv_path, "w") as f:
        f.write("cta,sm,start_ns,end_ns,wave,row,col\n")
        for c in ctas:
            r, col = tile_of(raster, c)
            f.write(f"{c},{sm[c]},{span[c][0]},{span[c][1]},{wave[c]},{r},{col}\n")

    # Who shares a TPC with whom, and when.
    by_sm = {}
    for c in ctas:
        by_sm.setdefault(sm[c], []).append(c)
    partner = {}
    for c in ctas:
        best, overlap = None, 0
        for o in by_sm.get(sm[c] ^ 1, []):
            ov = min(span[c][1], span[o][1]) - max(span[c][0], span[o][0])
            if ov > overlap:
                best, overlap = o, ov
        partner[c] = best
    for name, sel in (("first wave", lambda c: wave[c] == 0), ("later waves", lambda c: wave[c] > 0)):
        cs = [c for c in ctas if sel(c) and partner[c] is not None]
        if not cs:
            continue
        xor = sum(partner[c] == c ^ 1 for c in cs) / len(cs)
        same_a = sum(tile_of(raster, partner[c])[0] == tile_of(raster, c)[0] for c in cs) / len(cs)
        same_b = sum(tile_of(raster, partner[c])[1] == tile_of(raster, c)[1] for c in cs) / len(cs)
        print(f"  {name}: TPC partner is CTA c^1 for {100 * xor:.0f}%, shares the A box (row) "
              f"{100 * same_a:.0f}%, the B box (column) {100 * same_b:.0f}%")

    # In-step sharers per load.
    for unit, axis in (("loadA", 0), ("loadB", 1)):
        groups = {}
        for (c, k), t in loads[unit].items():
            groups.setdefault((tile_of(raster, c)[axis], k), []).append((t, c))
        stats = {w: {"first wave": [], "later waves": []} for w in WINDOWS}
        tpc = {w: {"first wave": [], "later waves": []} for w in WINDOWS}
        sharers = []
        for g in groups.values():
            g.sort()
            times = [t for t, _ in g]
            sharers.append(len(g))
            for t, c in g:
                part = "first wave" if wave[c] == 0 else "later waves"
                for w in WINDOWS:
                    lo, hi = bisect.bisect_left(times, t - w), bisect.bisect_right(times, t + w)
                    stats[w][part].append(hi - lo - 1)
                    tpc[w][part].append(any(sm[o] == sm[c] ^ 1 for _, o in g[lo:hi] if o != c))
        print(f"  {unit}: {statistics.mean(sharers):.0f} CTAs load each box at each K step")
        for part in ("first wave", "later waves"):
            if not stats[WINDOWS[0]][part]:
                continue
            cells = ", ".join(f"{w} ns: {statistics.mean(stats[w][part]):5.1f} "
                              f"(TPC partner {100 * statistics.mean(tpc[w][part]):3.0f}%)"
                              for w in WINDOWS if stats[w][part])
            print(f"    {part:11s} in-step sharers within {cells}")


if __name__ == "__main__":
    main()
