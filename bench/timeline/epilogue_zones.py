#!/usr/bin/env python3
"""The epilogue's zones, measured against the model's, per kernel.

  bench/timeline/epilogue_zones.py DIR... [--set NAME=VALUE ...] [--markdown FILE]

Each DIR holds the output of bench/timeline/run-assets-on-gpu.sh (NAME.measured.json[.xz] and
NAME.result.json or results.jsonl). Every kernel is predicted again with the model's parameters
(bench/timeline/params.json, changed by --set, e.g. --set epilogue_panel_cycles=150), from the
schedule its measured trace carries and the sizes of its run: assets/ASSET.mlir for NAME =
ASSET--SCHEDULE, or a generated variant of test/variants/make_variants.py ("variant:" kernels of
assets.py). Per kernel it compares the medians of the consumers' epilogue zones (every sampled
CTA, every tile): "longest" the consumer whose loop ended first, "shortest" the other (its
epilogue proper: the math and the panels; both consumers leave together). One consumer: one row.
Prints a markdown table and the median of |predicted / measured - 1| and of its sign.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import units  # noqa: E402
import assets  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def kernels(directory):
    names = set()
    for f in os.listdir(directory):
        if ".measured.json" in f:
            names.add(f.split(".measured.json")[0])
    return sorted(names)


def epilogues(path):
    """{consumer row: median epilogue duration (ns)} of a trace."""
    rows = {}
    for (row, unit), durations in units.unit_durations(path, "recorded").items():
        if row.startswith("consumer") and unit.startswith("epilogue"):
            rows[row] = statistics.median(durations)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a model parameter for the predictions (repeatable)")
    ap.add_argument("--markdown", help="also write the table here")
    a = ap.parse_args()
    with open(os.path.join(HERE, "params.json")) as f:
        params = json.load(f)
    for s in a.set:
        k, _, v = s.partition("=")
        if k not in params:
            sys.exit(f"--set {s}: no model parameter {k!r} in params.json")
        params[k] = float(v)
    lines = ["| kernel--schedule | consumer | measured | predicted | predicted / measured - 1 |",
             "|---|---|---|---|---|"]
    errors = []
    seen = set()
    with tempfile.TemporaryDirectory() as tmp:
        pfile = os.path.join(tmp, "params.json")
        with open(pfile, "w") as f:
            json.dump(params, f)
        measured = {}
        for d in a.dirs:
            if not os.path.isdir(d):
                sys.exit(f"epilogue_zones.py: {d}: not a directory (a run-assets-on-gpu.sh output)")
        for d in a.dirs:
            for name in kernels(d):
                if assets.bundle_ir(name) is None:
                    print(f"{d}: {name}: no IR for it here, left out", file=sys.stderr)
                    continue
                for row, m in epilogues(units.trace_path(d, name, "measured")).items():
                    measured.setdefault(name, {}).setdefault(row, []).append(m)
        for d in a.dirs:
            for name in kernels(d):
                if name in seen or name not in measured:
                    continue
                seen.add(name)
                p = epilogues(units.predict_again(d, name, pfile, tmp))
                m = {row: statistics.median(v) for row, v in measured[name].items()}
                if not p:
                    lines.append(f"| {name} | - | - | no epilogue predicted | - |")
                    continue
                pairs = [("one consumer", max)] if len(m) == 1 else [("longest", max), ("shortest", min)]
                for what, pick in pairs:
                    mm, pm = pick(m.values()), pick(p.values())
                    errors.append(pm / mm - 1)
                    lines.append(f"| {name} | {what} | {mm:.0f} ns | {pm:.0f} ns | {100 * (pm / mm - 1):+.0f}% |")
    if not errors:
        sys.exit("no kernel with measured and predicted epilogue zones")
    table = "\n".join(lines)
    print(table)
    print(f"\nmedian |predicted / measured - 1| {100 * statistics.median(abs(e) for e in errors):.1f}%, "
          f"median {100 * statistics.median(errors):+.1f}% ({len(errors)} rows)")
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
