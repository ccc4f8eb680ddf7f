#!/usr/bin/env python3
"""The timeline model's power clock, measured: the SM clock Nsight Compute saw against the
tensor pipe's busy fraction and the DRAM's traffic, over every kernel of the given ncu results
folders.

  python3 bench/timeline/ncu/power_clock.py bench/results/ncu-*-h100-*
  python3 bench/timeline/ncu/power_clock.py --rows ROWS.jsonl bench/results/ncu-*-h100-*

--rows: the clock the model picked for each profiled run (calibrate.py --rows: pred_clock_ghz,
from its own u and D) against the one Nsight Compute saw, instead of the fit.

Under the H100's 700 W cap the SM clock falls as the tensor pipe gets busier and as the DRAM moves
more bytes (the L2's clock stays put). The model (core/Timeline/CostModel.h: clock_max_ghz,
clock_full_tensor_ghz, tensor_busy_at_clock_max, clock_dram_power_per_tbps) takes the power as
f x (a + b u) + c D at a cap: f = min(f_max, (1 - c D) / (a + b u)), u the tensor pipe's busy
fraction, D the DRAM's TB/s (read and write). This script takes f_max as the median clock of the
kernels under half busy with little DRAM traffic, fits a, b and c by least squares (a grid,
refined), and prints the model's parameters and every kernel's clock beside the curve's.
"""
import csv
import io
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import raw_metrics, read_tar  # noqa: E402

TENSOR = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
SM = "sm__cycles_elapsed.avg.per_second"
L2 = "lts__cycles_elapsed.avg.per_second"
DRAM = ("dram__bytes_read.sum.per_second", "dram__bytes_write.sum.per_second")
DURATION = "gpu__time_duration.sum"


def tb_per_s(m, key):
    """ncu writes DRAM rates in the unit its second header row names (Tbyte/s, Gbyte/s, ...)."""
    v = m.get(key)
    if not isinstance(v, float):
        return 0.0
    unit = m.get("unit:" + key, "Tbyte/s")
    return v * {"Tbyte/s": 1, "Gbyte/s": 1e-3, "Mbyte/s": 1e-6}.get(unit, 1)


def seconds(m, key):
    v = m.get(key)
    if not isinstance(v, float):
        return 0.0
    return v * {"s": 1, "ms": 1e-3, "us": 1e-6, "usecond": 1e-6, "msecond": 1e-3, "nsecond": 1e-9,
                "ns": 1e-9}.get(m.get("unit:" + key, "ms"), 1e-3)


def points(folders):
    out = []
    for d in folders:
        files = read_tar(os.path.join(d, "ncu.tar.xz"))
        for n in sorted(files):
            if not n.endswith(".raw.csv"):
                continue
            m = raw_metrics(files[n])
            rows = list(csv.reader(io.StringIO(files[n])))  # the second row: the units
            for h, u in zip(rows[0], rows[1]):
                m["unit:" + h] = u
            if not isinstance(m.get(TENSOR), float) or not isinstance(m.get(SM), float):
                continue
            out.append({"kernel": f"{os.path.basename(d.rstrip('/'))}/{n[:-len('.raw.csv')]}",
                        "u": m[TENSOR] / 100, "f": m[SM], "l2": m.get(L2, 0.0),
                        "dram": sum(tb_per_s(m, k) for k in DRAM), "duration_s": seconds(m, DURATION)})
    return out


def curve(fmax, a, b, c, p):
    return min(fmax, (1 - c * p["dram"]) / (a + b * p["u"]))


def fit(pts):
    fmax = statistics.median(p["f"] for p in pts if p["u"] < 0.5 and p["dram"] < 0.5)
    err = lambda a, b, c: sum((curve(fmax, a, b, c, p) - p["f"]) ** 2 for p in pts)
    # A coarse grid, then two finer ones around its best.
    best = min(((a / 100, b / 100, c / 1000) for a in range(20, 60, 2) for b in range(5, 50, 2)
                for c in range(0, 100, 5)), key=lambda x: err(*x))
    for step in (0.01, 0.002):
        a0, b0, c0 = best
        best = min(((a0 + i * step, b0 + j * step, max(0.0, c0 + k * step / 4))
                    for i in range(-3, 4) for j in range(-3, 4) for k in range(-3, 4)),
                   key=lambda x: err(*x))
    return fmax, best, (err(*best) / len(pts)) ** 0.5


def size_of(run):
    """A run's sizes as calibrate.py labels them (M8192xN8192xK8192, B4xH16xS8192), or None."""
    p = {k: v for k, v in (run.get("problem") or {}).items() if isinstance(v, int)}
    if not p:
        return None
    order = "MNKBHS"
    return "x".join(f"{k}{p[k]}" for k in sorted(p, key=lambda k: (order.index(k) if k in order else 6, k)))


def match(rows, folders):
    """(calibration row, ncu point) for every row of an ncu folder whose bundle was profiled:
    the bundle named as the row's variant, or ending in "--" + it, at the row's sizes."""
    measured = {p["kernel"]: p for p in points(folders)}
    runs = {}
    for d in folders:
        for line in open(os.path.join(d, "results.jsonl")):
            r = json.loads(line)
            runs[f"{os.path.basename(d.rstrip('/'))}/{os.path.basename(r['bundle'].rstrip('/'))}"] = r
    for r in rows:
        if not r["folder"].startswith("ncu-"):
            continue
        name = next((k for k in measured if k.split("/")[0] == r["folder"] and k in runs
                     and size_of(runs[k]) in (r["size"], None) and
                     (k.split("/")[1] == r["variant"] or
                      ("--" + r["variant"].replace(":", "")) in k.split("/")[1] and r["asset"] in k)),
                    None)
        if name:
            yield r, dict(measured[name], run=runs[name])


def predicted_against_measured(rows_file, folders):
    rows = [json.loads(l) for l in open(rows_file)]
    out = []
    for r, m in match(rows, folders):
        if r.get("pred_clock_ghz"):
            out.append((r["pred_clock_ghz"] - m["f"], m["kernel"], r["pred_clock_ghz"], m["f"]))
    if not out:
        sys.exit("no profiled run in the rows")
    out.sort(key=lambda x: abs(x[0]))
    errs = [abs(x[0]) for x in out]
    print(f"{len(out)} profiled runs: the model's clock within {statistics.median(errs):.3f} GHz of "
          f"ncu's at the median, {errs[int(0.9 * (len(errs) - 1))]:.3f} at the 90th percentile\n")
    print("| kernel | model GHz | ncu GHz |\n|---|---|---|")
    for _, k, p, f in out:
        print(f"| {k} | {p:.3f} | {f:.3f} |")


def main():
    args = sys.argv[1:]
    if args[:1] == ["--rows"] and len(args) > 2:
        return predicted_against_measured(args[1], args[2:])
    folders = [a for a in args if not a.startswith("-")]
    if not folders:
        sys.exit(__doc__)
    pts = points(folders)
    fmax, (a, b, c), rms = fit(pts)
    print(f"{len(pts)} kernels; L2 clock {min(p['l2'] for p in pts):.3f}-{max(p['l2'] for p in pts):.3f} GHz")
    print(f"f = min({fmax:.3f}, (1 - {c:.4f} D) / ({a:.3f} + {b:.3f} u)) GHz, {rms:.3f} GHz rms")
    print(f"clock_max_ghz {fmax:.3f}  clock_full_tensor_ghz {1 / (a + b):.3f}  "
          f"tensor_busy_at_clock_max {(1 / fmax - a) / b:.3f}  clock_dram_power_per_tbps {c:.4f}")
    print("\n| kernel | tensor busy | DRAM TB/s | SM GHz | curve |\n|---|---|---|---|---|")
    for p in sorted(pts, key=lambda p: p["u"]):
        print(f"| {p['kernel']} | {100 * p['u']:.1f}% | {p['dram']:.2f} | {p['f']:.3f} | "
              f"{curve(fmax, a, b, c, p):.3f} |")


if __name__ == "__main__":
    main()
