#!/usr/bin/env python3
"""The timeline model's power clock, measured: the SM clock Nsight Compute saw against the
tensor pipe's busy fraction, over every kernel of the given ncu results folders.

  python3 bench/timeline/ncu/power_clock.py bench/results/ncu-*-h100-*

Under the H100's 700 W cap the SM clock falls as the tensor pipe gets busier (the L2's clock
stays put). The model (core/Timeline/CostModel.h, clock_max_ghz, clock_full_tensor_ghz,
tensor_busy_at_clock_max) takes the power as f x (a + b u) at a cap: f = min(f_max, 1 / (a + b u)).
This script takes f_max as the median clock of the kernels under half busy, fits a and b by least
squares, and prints the three parameters and every kernel's clock beside the curve's (with its
DRAM traffic: what the curve leaves out).
"""
import csv
import io
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import raw_metrics, read_tar  # noqa: E402

TENSOR = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
SM = "sm__cycles_elapsed.avg.per_second"
L2 = "lts__cycles_elapsed.avg.per_second"
DRAM = ("dram__bytes_read.sum.per_second", "dram__bytes_write.sum.per_second")


def tb_per_s(m, key):
    """ncu writes DRAM rates in the unit its second header row names (Tbyte/s, Gbyte/s, ...)."""
    v = m.get(key)
    if not isinstance(v, float):
        return 0.0
    unit = m.get("unit:" + key, "Tbyte/s")
    return v * {"Tbyte/s": 1, "Gbyte/s": 1e-3, "Mbyte/s": 1e-6}.get(unit, 1)


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
                        "dram": sum(tb_per_s(m, k) for k in DRAM)})
    return out


def fit(pts):
    fmax = statistics.median(p["f"] for p in pts if p["u"] < 0.5)
    best = None
    for ai in range(2000, 5000, 2):
        a = ai / 10000
        for bi in range(500, 6000, 5):
            b = bi / 10000
            e = sum((min(fmax, 1 / (a + b * p["u"])) - p["f"]) ** 2 for p in pts)
            if best is None or e < best[0]:
                best = (e, a, b)
    _, a, b = best
    return fmax, a, b


def main():
    folders = [a for a in sys.argv[1:] if not a.startswith("-")]
    if not folders:
        sys.exit(__doc__)
    pts = points(folders)
    # The curve is the tensor pipe's: kernels whose DRAM traffic is far above the rest's (the
    # row-major persistent GEMM's 2.2 TB/s) are shown, not fitted.
    fitted = [p for p in pts if p["dram"] < 2.0]
    fmax, a, b = fit(fitted)
    print(f"{len(pts)} kernels ({len(pts) - len(fitted)} with over 2 TB/s of DRAM traffic not fitted); "
          f"L2 clock {min(p['l2'] for p in pts):.3f}-{max(p['l2'] for p in pts):.3f} GHz")
    print(f"clock_max_ghz {fmax:.3f}  clock_full_tensor_ghz {1 / (a + b):.3f}  "
          f"tensor_busy_at_clock_max {(1 / fmax - a) / b:.3f}")
    print("\n| kernel | tensor busy | SM GHz | curve | DRAM TB/s |\n|---|---|---|---|---|")
    for p in sorted(pts, key=lambda p: p["u"]):
        c = min(fmax, 1 / (a + b * p["u"]))
        print(f"| {p['kernel']} | {100 * p['u']:.1f}% | {p['f']:.3f} | {c:.3f} | {p['dram']:.2f} |")


if __name__ == "__main__":
    main()
