#!/usr/bin/env python3
"""Per unit and warp group: the predicted against the measured median duration.

  bench/timeline/units.py DIR [--markdown FILE] [--params P.json]

DIR holds the output of bench/timeline/run-assets-on-gpu.sh (NAME.measured.json and
NAME.predicted.json, Chrome traces, plain or .xz; the runs' results in NAME.result.json or
results.jsonl). The calibration (calibrate.py) compares TFLOP/s; this
compares the units themselves, so a miss can be traced to the unit whose cost the model has
wrong. Measured: every sampled CTA; predicted: the shown CTA. Only the rows of both traces'
warp groups (producer, consumer N) are compared: the prediction's extra rows (the TMA and
wgmma pipes) have no measured counterpart. A unit's duration runs from its start (before its
waits) to its warp group's next unit start (--span next-start, the default: what the
lowering's unit-start records measure; the predicted zones are read the same way), or is the
zone's own (--span recorded: the older interval records' end stamps, the model's last
instruction).

--params predicts again with other model parameters (stagecraft-timeline --trace, the
schedule from the measured trace, the sizes from NAME.result.json, the IR
assets/ASSET.mlir for NAME = ASSET--SCHEDULE), to see what a refit does to the units.
"""
import argparse
import glob
import json
import lzma
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import assets  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.environ.get("STAGECRAFT_TIMELINE") or os.path.join(ROOT, "build", "bin", "stagecraft-timeline")


def load_json(path):
    """A trace, plain or xz-compressed (as the results folders keep them)."""
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        return json.load(f)


def trace_path(directory, name, kind):
    """DIR/NAME.KIND.json, or its .xz."""
    p = os.path.join(directory, f"{name}.{kind}.json")
    return p if os.path.exists(p) or not os.path.exists(p + ".xz") else p + ".xz"


def run_result(directory, name):
    """The runner's result of NAME: NAME.result.json, or its line in results.jsonl."""
    p = os.path.join(directory, name + ".result.json")
    if os.path.exists(p):
        return json.loads(open(p).read().strip().splitlines()[-1])
    for line in open(os.path.join(directory, "results.jsonl")):
        r = json.loads(line)
        if os.path.basename((r.get("bundle") or "").rstrip("/")) == name:
            return r
    raise SystemExit(f"{directory}: no result of {name}")


def row_names(trace):
    """({pid: process name ("CTA 12 (SM 3)")}, {(pid, tid): thread name ("consumer 0")}) of a
    trace's metadata events."""
    procs, threads = {}, {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    return procs, threads


def unit_durations(path, span="next-start"):
    """{(warp group name, unit name): [durations in ns]} of one trace.

    span "next-start": a unit lasts from its start to the next start on its warp group's row
    (its own end for the row's last zone). That is what the lowering's unit-start records
    measure (`timeline.record = "unit_start"`: a unit ends where its warp group's next record
    is), and the predicted zones, which end at the unit's last instruction, are read the same
    way so that both sides count the gaps between units alike. span "recorded": each zone's
    own duration (the 24-byte interval records of older bundles had an end stamp).
    """
    t = load_json(path)
    names = row_names(t)[1]
    rows = {}
    for e in t["traceEvents"]:
        if e.get("ph") != "X":
            continue
        row = names.get((e["pid"], e["tid"]), str(e["tid"]))
        if row == "producer" or row.startswith("consumer"):
            rows.setdefault((e["pid"], e["tid"], row), []).append(e)
    out = {}
    for (_, _, row), events in rows.items():
        events.sort(key=lambda e: e["ts"])
        for i, e in enumerate(events):
            dur = e["dur"]
            if span == "next-start" and i + 1 < len(events):
                dur = events[i + 1]["ts"] - e["ts"]
            out.setdefault((row, e["name"]), []).append(1000.0 * dur)
    return out


def predict_again(directory, name, params, tmp):
    """The predicted trace of NAME under `params` (a path in tmp)."""
    measured = load_json(trace_path(directory, name, "measured"))
    result = run_result(directory, name)
    schedule = os.path.join(tmp, name + ".schedule.json")
    with open(schedule, "w") as f:
        json.dump(measured["otherData"]["schedule"], f)
    # The problem's sizes (not its kind or a persistent kernel's tile order).
    sizes = [f"--size={k}={v}" for k, v in result["problem"].items()
             if k != "kind" and isinstance(v, int)]
    out = os.path.join(tmp, name + ".predicted.json")
    ir = assets.bundle_ir(name)
    if ir is None:
        sys.exit(f"units.py: {name}: no IR for it here (not an asset, a loop bench/timeline/assets.py "
                 "names or a generated variant)")
    subprocess.run([TOOL, ir, "--schedule", schedule, "--params", params, "--trace", out] + sizes,
                   check=True, capture_output=True)
    return out


def compare(directory, params=None, tmp=None, span="next-start"):
    rows = []
    names = sorted({os.path.basename(p).split(".measured.json")[0]
                    for p in glob.glob(os.path.join(directory, "*.measured.json*"))})
    for name in names:
        measured = trace_path(directory, name, "measured")
        predicted = (predict_again(directory, name, params, tmp) if params
                     else trace_path(directory, name, "predicted"))
        if not os.path.exists(predicted):
            continue
        m, p = unit_durations(measured, span), unit_durations(predicted, span)
        for key in sorted(set(m) & set(p)):
            mm, pm = statistics.median(m[key]), statistics.median(p[key])
            rows.append((name, key[0], key[1], mm, pm, (pm / mm - 1) if mm > 0 else None))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--params", help="predict again with these model parameters (JSON)")
    ap.add_argument("--span", choices=["next-start", "recorded"], default="next-start",
                    help="a unit's duration: to its warp group's next unit start (default), or its zone's own")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = compare(a.dir, a.params, tmp, a.span)
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
