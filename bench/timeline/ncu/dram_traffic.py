#!/usr/bin/env python3
"""The DRAM traffic the timeline model expects against what Nsight Compute counted, per kernel of
the ncu results folders, in bytes a flop (so a clock or a bound the model gets wrong does not
enter it).

  python3 bench/timeline/calibrate.py --rows /tmp/rows.jsonl          # the model's (pred_dram_tbps)
  python3 bench/timeline/ncu/dram_traffic.py /tmp/rows.jsonl bench/results/ncu-*-h100-*
  python3 bench/timeline/ncu/dram_traffic.py --launches bench/results/ncu-modes-h100-2026-11-27

--launches: every profiled launch of each bundle (ncu-on-gpu.sh with LAUNCHES=N): its time, SM
clock, tensor pipe, DRAM rate and DRAM bytes a kflop, beside the runner's median launch.

The model's traffic (Prediction::dramTBps) is the loop's loads at the first wave's miss fractions
(the boxes no other CTA of the first wave loads), at least the launch's distinct bytes: it knows
no L2 capacity and no drift of the CTAs sharing a box. The power clock (CostModel.h) takes its
DRAM share from it.
"""
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from power_clock import DRAM, DURATION, SM, TENSOR, match, seconds, tb_per_s  # noqa: E402
from summarize import read_tar  # noqa: E402


def launches(folder):
    runs = {}
    for line in open(os.path.join(folder, "results.jsonl")):
        r = json.loads(line)
        runs[os.path.basename(r["bundle"].rstrip("/"))] = r
    files = read_tar(os.path.join(folder, "ncu.tar.xz"))
    print("| bundle | the runner's median | launch | SM GHz | tensor pipe busy | DRAM TB/s | "
          "DRAM bytes a kflop |")
    print("|---|---|---|---|---|---|---|")
    for n in sorted(f for f in files if f.endswith(".raw.csv")):
        name = n[:-len(".raw.csv")]
        rows = list(csv.reader(io.StringIO(files[n])))
        hdr, units = rows[0], rows[1]
        run = runs.get(name, {})
        for i, vals in enumerate(rows[2:]):
            m = {}
            for h, u, v in zip(hdr, units, vals):
                m["unit:" + h] = u
                try:
                    m[h] = float(v.replace(",", ""))
                except ValueError:
                    m[h] = v
            s_ = seconds(m, DURATION)
            tbps = sum(tb_per_s(m, k) for k in DRAM)
            per_kflop = tbps * 1e12 * s_ / run["flops"] * 1e3 if run.get("flops") else 0.0
            print(f"| {name if i == 0 else ''} | {run.get('median_us', 0):.0f} us | {s_ * 1e6:.0f} us | "
                  f"{m.get(SM, 0):.3f} | {m.get(TENSOR, 0):.1f}% | {tbps:.2f} | {per_kflop:.2f} |")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--launches":
        return launches(sys.argv[2])
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = [json.loads(l) for l in open(sys.argv[1])]
    # ncu's profiled launch is one launch: where it ran much longer or shorter than the runner's
    # median (a kernel with two modes, the column rasters), its counts are that launch's.
    print("| kernel | TFLOP/s measured / predicted | ncu's launch / the runner's median | "
          "DRAM bytes a kflop: measured | predicted | ratio |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for r, m in match(rows, sys.argv[2:]):
        if not r.get("pred_dram_tbps"):
            continue
        run = m["run"]
        # ncu's launch: its DRAM rate over its own duration; flops from the runner.
        meas = m["dram"] * 1e12 * m["duration_s"] / run["flops"] * 1e3
        pred = r["pred_dram_tbps"] / r["pred_tflops"] * 1e3
        ratios.append(meas / pred)
        launch = m["duration_s"] * 1e6 / run["median_us"] if run.get("median_us") else float("nan")
        print(f"| {m['kernel']} | {r['measured_tflops']:.0f} / {r['pred_tflops']:.0f} | {launch:.2f} | {meas:.2f} | "
              f"{pred:.2f} | {meas / pred:.2f} |")
    if ratios:
        ratios.sort()
        print(f"\n{len(ratios)} kernels: measured over predicted bytes a flop, median "
              f"{ratios[len(ratios) // 2]:.2f}, {ratios[0]:.2f}-{ratios[-1]:.2f}")


if __name__ == "__main__":
    main()
