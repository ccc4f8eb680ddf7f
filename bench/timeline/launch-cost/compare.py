#!/usr/bin/env python3
"""Measured against predicted times of the launch-cost runs (prepare.sh, run-on-gpu.sh).

    python3 bench/timeline/launch-cost/compare.py RESULTS.txt [--params P.json]

For every kernel and M: the median time of each K (verified runs only) beside the model's
(build/bin/stagecraft-timeline at the same sizes, .dev/launch-cost/mlir from prepare.sh),
and a least-squares line through each: the intercept is what a launch costs besides its
loop (set-up, fill, epilogue), the slope the loop's time per unit of K.
"""
import argparse, collections, json, os, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--params")
    a = ap.parse_args()
    meas = collections.defaultdict(list)
    for line in open(a.results):
        p = line.split()
        if len(p) == 6 and p[3] == "True":
            meas[p[1]].append(float(p[4]))
    series = collections.defaultdict(dict)
    for bundle, times in sorted(meas.items()):
        kernel, rest = bundle.split("--")
        m, k = (int(x[1:]) for x in rest.split("-"))
        cmd = [os.path.join(ROOT, "build/bin/stagecraft-timeline"),
               os.path.join(ROOT, ".dev/launch-cost/mlir", kernel + ".mlir"),
               f"--size=M={m}", "--size=N=1048", f"--size=K={k}", "--json"]
        if a.params:
            cmd.append("--params=" + a.params)
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"stagecraft-timeline failed for {bundle}: {out.stderr}")
        j = json.loads(out.stdout)
        series[(kernel, m)][k] = (statistics.median(times), j["total_us"], j["ctas"])
    print("| kernel | M | CTAs | K: measured / predicted us | measured: intercept + slope | predicted |")
    print("|---|---|---|---|---|---|")
    for (kernel, m), s in series.items():
        ks = sorted(s)
        fm = statistics.linear_regression(ks, [s[k][0] for k in ks])
        fp = statistics.linear_regression(ks, [s[k][1] for k in ks])
        cells = ", ".join(f"{k}: {s[k][0]:.2f} / {s[k][1]:.2f}" for k in ks)
        print(f"| {kernel} | {m} | {s[ks[0]][2]} | {cells} | {fm.intercept:.2f} us + {1000 * fm.slope:.2f} ns/K "
              f"| {fp.intercept:.2f} us + {1000 * fp.slope:.2f} ns/K |")


if __name__ == "__main__":
    main()
