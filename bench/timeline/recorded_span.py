#!/usr/bin/env python3
"""How much longer the recording CTAs of a measured trace ran than the launch's CTAs do on
average: what the probe overhead (a launch's time, instrumented against plain) hides in a
launch of many waves, where a few slow CTAs barely move the launch.

    python3 bench/timeline/recorded_span.py [--summary] DIR...

For each BUNDLE.measured.json[.xz] with its BUNDLE.result.json in DIR: each recording CTA's
span (its first event's start to its last event's end) against the plain kernel's median time
per round of CTAs (the grid over 132 slots, rounded up: an estimate, the last round is partial
and the set-up is outside the spans), and the kernel-level overhead. --summary prints the
spans' 5th, 50th and 95th percentiles instead of each (traces of every CTA).
"""
import glob
import json
import lzma
import math
import os
import statistics
import sys

SLOTS = 132


def load(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main():
    args = sys.argv[1:]
    summary = "--summary" in args
    dirs = [a for a in args if a != "--summary"]
    print("| bundle | CTAs | plain time per round (us) | recording CTAs' spans (us, CTA) | span / round | overhead |")
    print("|---|---|---|---|---|---|")
    for d in dirs:
        for trace in sorted(glob.glob(os.path.join(d, "*.measured.json*"))):
            stem = trace.split(".measured.json")[0]
            if not os.path.exists(stem + ".result.json"):
                continue
            t, r = load(trace), load(stem + ".result.json")
            other = t.get("otherData", {})
            ctas = math.prod(r["grid"])
            plain = other.get("plain_median_us") or r["median_us"]
            per_round = plain / math.ceil(ctas / SLOTS)
            spans, names = {}, {}
            for e in t["traceEvents"]:
                if e.get("name") == "process_name":
                    names[e["pid"]] = e["args"]["name"].split(" (")[0].replace("CTA ", "")
                if e.get("ph") == "X":
                    lo, hi = spans.get(e["pid"], (e["ts"], e["ts"] + e["dur"]))
                    spans[e["pid"]] = (min(lo, e["ts"]), max(hi, e["ts"] + e["dur"]))
            s = [hi - lo for lo, hi in spans.values()]
            if summary and len(s) >= 20:
                q = statistics.quantiles(s, n=20)
                each = f"p5 {q[0]:.1f}, median {statistics.median(s):.1f}, p95 {q[-1]:.1f} ({len(s)} CTAs)"
            else:
                each = ", ".join(f"{hi - lo:.1f} (CTA {names.get(pid, '?')})" for pid, (lo, hi) in spans.items())
            print(f"| {os.path.basename(stem)} | {ctas} | {per_round:.1f} | "
                  f"{each} | {statistics.median(s) / per_round:.2f} | "
                  f"{100 * (other.get('overhead') or 0):+.1f}% |")


if __name__ == "__main__":
    main()
