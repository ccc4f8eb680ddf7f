#!/usr/bin/env python3
"""Per unit and warp group: the predicted against the measured median duration.

  bench/timeline/units.py DIR [--markdown FILE] [--params P.json]

DIR holds the output of bench/timeline/run-assets-on-gpu.sh (NAME.measured.json and
NAME.predicted.json, Chrome traces). The calibration (calibrate.py) compares TFLOP/s; this
compares the units themselves, so a miss can be traced to the unit whose cost the model has
wrong. Measured: every sampled CTA; predicted: the shown CTA. Only the rows of both traces'
warp groups (producer, consumer N) are compared: the prediction's extra rows (the TMA and
wgmma pipes) have no measured counterpart. A measured zone runs from the unit's first
instruction to its last, waits included, as the model's does.

--params predicts again with other model parameters (stagecraft-timeline --trace, the
schedule from the measured trace, the sizes from NAME.result.json, the IR
assets/ASSET.mlir for NAME = ASSET--SCHEDULE), to see what a refit does to the units.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.environ.get("STAGECRAFT_TIMELINE") or os.path.join(ROOT, "build", "bin", "stagecraft-timeline")


def unit_durations(path):
    """{(warp group name, unit name): [durations in ns]} of one trace."""
    t = json.load(open(path))
    names = {}
    for e in t["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    out = {}
    for e in t["traceEvents"]:
        if e.get("ph") != "X":
            continue
        row = names.get((e["pid"], e["tid"]), str(e["tid"]))
        if row == "producer" or row.startswith("consumer"):
            out.setdefault((row, e["name"]), []).append(1000.0 * e["dur"])
    return out


def predict_again(directory, name, params, tmp):
    """The predicted trace of NAME under `params` (a path in tmp)."""
    measured = json.load(open(os.path.join(directory, name + ".measured.json")))
    result = json.loads(open(os.path.join(directory, name + ".result.json")).read().strip().splitlines()[-1])
    schedule = os.path.join(tmp, name + ".schedule.json")
    with open(schedule, "w") as f:
        json.dump(measured["otherData"]["schedule"], f)
    sizes = [f"--size={k}={v}" for k, v in result["problem"].items() if k != "kind"]
    out = os.path.join(tmp, name + ".predicted.json")
    ir = os.path.join(ROOT, "assets", name.split("--")[0] + ".mlir")
    subprocess.run([TOOL, ir, "--schedule", schedule, "--params", params, "--trace", out] + sizes,
                   check=True, capture_output=True)
    return out


def compare(directory, params=None, tmp=None):
    rows = []
    for measured in sorted(glob.glob(os.path.join(directory, "*.measured.json"))):
        name = os.path.basename(measured)[: -len(".measured.json")]
        predicted = (predict_again(directory, name, params, tmp) if params
                     else os.path.join(directory, name + ".predicted.json"))
        if not os.path.exists(predicted):
            continue
        m, p = unit_durations(measured), unit_durations(predicted)
        for key in sorted(set(m) & set(p)):
            mm, pm = statistics.median(m[key]), statistics.median(p[key])
            rows.append((name, key[0], key[1], mm, pm, (pm / mm - 1) if mm > 0 else None))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--params", help="predict again with these model parameters (JSON)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = compare(a.dir, a.params, tmp)
    if not rows:
        sys.exit(f"{a.dir}: no pair of NAME.measured.json and NAME.predicted.json")
    lines = ["| kernel--schedule | warp group | unit | measured median | predicted median | predicted / measured - 1 |",
             "|---|---|---|---|---|---|"]
    for name, wg, unit, mm, pm, rel in rows:
        r = f"{100 * rel:+.0f}%" if rel is not None else "-"
        lines.append(f"| {name} | {wg} | {unit} | {mm:.0f} ns | {pm:.0f} ns | {r} |")
    table = "\n".join(lines)
    print(table)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
