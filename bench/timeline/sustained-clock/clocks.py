#!/usr/bin/env python3
"""The SM clock while each kernel ran back to back (the output of run-on-gpu.sh).

  python3 bench/timeline/sustained-clock/clocks.py OUT [--markdown FILE]

Per bundle: nvidia-smi's samples (every 20 ms) from 1 s after the kernel's phase began
(the first sample after the runner started drawing 50 W over the idle power before it)
to the end of its warm-up and timed launches (2 x reps x median, 90% of it): the median
SM clock, power and temperature, and the throttle reasons seen most; beside them the
verified burst run's median (the runner's defaults, as the calibration measured) and the
sustained run's, in TFLOP/s too.
"""
import argparse
import datetime
import glob
import json
import os
import statistics
from collections import Counter


def stamp(s):
    d = datetime.datetime.strptime(s.strip(), "%Y/%m/%d %H:%M:%S.%f")
    return d.replace(tzinfo=datetime.timezone.utc).timestamp()


def number(s):
    try:
        return float(s)
    except ValueError:
        return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    lines = ["| bundle | burst median | sustained median | sustained / burst | launches | SM clock (MHz) | "
             "power (W) | temperature (C) | throttle reasons | samples |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for wf in sorted(glob.glob(os.path.join(a.out, "*.window.json"))):
        w = json.load(open(wf))
        burst = json.load(open(os.path.join(a.out, w["bundle"] + ".verified.json")))
        sustained = json.load(open(os.path.join(a.out, w["bundle"] + ".json")))
        tf = lambda us: burst["flops"] / us / 1e6
        head = (f"| {w['bundle']} | {burst['median_us']:.1f} us ({tf(burst['median_us']):.0f} TFLOP/s) | "
                f"{sustained['median_us']:.1f} us ({tf(sustained['median_us']):.0f}; samples "
                f"{min(sustained['samples']):.0f}-{max(sustained['samples']):.0f}) | "
                f"{sustained['median_us'] / burst['median_us']:.3f}")
        rows = []
        for line in open(os.path.join(a.out, w["bundle"] + ".smi.csv")):
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 5:
                continue
            try:
                rows.append((stamp(parts[0]), number(parts[1]), number(parts[2]), number(parts[3]), parts[4]))
            except ValueError:
                continue
        # nvidia-smi's timestamp is local time; the GPU hosts run in UTC (checked below).
        before = [r for r in rows if r[0] < w["start"]]
        idle = statistics.median(r[2] for r in before) if before else min(r[2] for r in rows)
        after = [r for r in rows if r[0] >= w["start"]]
        begin = next((r[0] for r in after if r[2] > idle + 50), None)
        if begin is None:
            lines.append(f"{head} | {2 * w['reps']} | no phase found | | | | 0 |")
            continue
        length = 2 * w["reps"] * w["median_us"] * 1e-6 * 0.9
        window = [r for r in after if begin + 1.0 <= r[0] <= begin + length]
        if not window:
            lines.append(f"{head} | {2 * w['reps']} | phase too short | | | | 0 |")
            continue
        clock = statistics.median(r[1] for r in window)
        power = statistics.median(r[2] for r in window)
        temp = statistics.median(r[3] for r in window)
        reasons = Counter(r[4] for r in window).most_common(2)
        lines.append(f"{head} | {2 * w['reps']} | {clock:.0f} "
                     f"(min {min(r[1] for r in window):.0f}, max {max(r[1] for r in window):.0f}) | "
                     f"{power:.0f} | {temp:.0f} | {', '.join(f'{k} x{n}' for k, n in reasons)} | {len(window)} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.markdown:
        open(a.markdown, "w").write(text)


if __name__ == "__main__":
    main()
