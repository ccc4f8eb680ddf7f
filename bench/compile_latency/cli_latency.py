#!/usr/bin/env python3
"""Whole-process time of `stagecraft-compile IN.mlir -o DIR --no-cubin -q`.

    python3 bench/compile_latency/cli_latency.py [--runs 20] [--warmup 2]
        [--compile build/bin/stagecraft-compile] [--vs OTHER/stagecraft-compile]
        [IN.mlir ...]

Each run is a fresh process (start-up, shared-library loading and the bundle
written included). Prints the median, min and max wall time, and the median
CPU time of the process (user + system, all its threads) from the kernel's
accounting (os.wait4). With --vs, the two builds run in turn (A B A B ...)
and the median of the pairwise ratios A/B is printed too, which holds when
the machine's speed drifts. Also times `--help` (the process's floor).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_once(cmd):
    """(wall seconds, cpu seconds) of one run; raises when it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def summary(label, walls, cpus):
    ms = [w * 1e3 for w in walls]
    return (f"  {label:<10} wall median {statistics.median(ms):7.1f} ms  min {min(ms):7.1f}"
            f"  max {max(ms):7.1f}   cpu median {statistics.median(cpus) * 1e3:7.1f} ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--compile", default=os.path.join(ROOT, "build/bin/stagecraft-compile"))
    ap.add_argument("--vs", help="a second stagecraft-compile to compare with")
    ap.add_argument("inputs", nargs="*", default=[
        os.path.join(ROOT, "assets/attention_fwd_d128.mlir"),
        os.path.join(ROOT, "assets/gemm.mlir")])
    args = ap.parse_args()
    builds = [("A", args.compile)] + ([("B", args.vs)] if args.vs else [])
    with open("/proc/loadavg") as f:
        print(f"{args.runs} runs after {args.warmup} warm-up; load average {' '.join(f.read().split()[:3])}")
    for label, exe in builds:
        print(f"{label} = {exe}")
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("--help", lambda exe: [exe, "--help"])]
        for path in args.inputs:
            cases.append((os.path.basename(path), lambda exe, p=path: [
                exe, p, "-o", os.path.join(tmp, "bundle"), "--no-cubin", "-q"]))
        for name, make in cases:
            print(name)
            walls = {label: [] for label, _ in builds}
            cpus = {label: [] for label, _ in builds}
            for i in range(args.warmup + args.runs):
                for label, exe in builds:
                    wall, cpu = run_once(make(exe))
                    if i >= args.warmup:
                        walls[label].append(wall)
                        cpus[label].append(cpu)
            for label, _ in builds:
                print(summary(label, walls[label], cpus[label]))
            if args.vs:
                ratios = [a / b for a, b in zip(walls["A"], walls["B"])]
                print(f"  A/B wall   median {statistics.median(ratios):.3f}"
                      f"  min {min(ratios):.3f}  max {max(ratios):.3f}")
    with open("/proc/loadavg") as f:
        print(f"load average after: {' '.join(f.read().split()[:3])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
