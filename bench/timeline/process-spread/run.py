#!/usr/bin/env python3
"""The same bundles timed in several fresh runner processes each, in rotating order.

  bench/timeline/process-spread/run.py --runner BIN --out OUT [--processes N] BUNDLE...   # GPU host

Why: in the GEMM sweeps the model misses, schedules that it predicts alike are measured up to
15% apart in one call, and a later call measured the same two in the opposite order
(gemm single-ahead2 wait 0 / wait 1: 608 / 703 TFLOP/s in gemm-sweep3-h100-2026-11-23, 713 /
652 in timeline-overhead-h100-2026-11-25). Each bundle's runs are spread over N processes,
the bundles rotated so that none always runs first or after the same neighbour; a bundle
whose TFLOP/s moves between processes as much as it differs from its neighbours is ranked on
noise. Every run verifies the kernel's output (a TFLOP/s is kept only when it did).
Writes OUT/process-spread.jsonl (one line a run) and OUT/process-spread.md (the table).
"""
import argparse
import json
import os
import statistics
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--processes", type=int, default=6)
    ap.add_argument("bundles", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    runs = {b: [] for b in a.bundles}
    with open(os.path.join(a.out, "process-spread.jsonl"), "w") as log:
        for p in range(a.processes):
            order = a.bundles[p % len(a.bundles):] + a.bundles[:p % len(a.bundles)]
            if p % 2:
                order.reverse()
            for b in order:
                r = subprocess.run([a.runner, b], capture_output=True, text=True, timeout=300)
                try:
                    res = json.loads(r.stdout.strip().splitlines()[-1])
                except (IndexError, ValueError):
                    res = {"error": (r.stderr or r.stdout)[-300:]}
                tflops = res.get("tflops") if res.get("verified") else None
                runs[b].append(tflops)
                log.write(json.dumps({"process": p, "bundle": os.path.basename(b.rstrip("/")), "tflops": tflops,
                                      "verified": res.get("verified"), "error": res.get("error")}) + "\n")
                log.flush()
    lines = ["| bundle | processes | TFLOP/s (each process, in run order) | median | min-max spread |",
             "|---|---|---|---|---|"]
    for b, v in runs.items():
        ok = [x for x in v if x is not None]
        med = statistics.median(ok) if ok else None
        spread = (max(ok) - min(ok)) / med if ok else None
        lines.append(f"| {os.path.basename(b.rstrip('/'))} | {len(ok)} of {len(v)} verified | "
                     + ", ".join("-" if x is None else f"{x:.0f}" for x in v)
                     + f" | {'-' if med is None else f'{med:.0f}'} | {'-' if spread is None else f'{100 * spread:.1f}%'} |")
    open(os.path.join(a.out, "process-spread.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
