#!/usr/bin/env python3
"""Every legal schedule of assets/gemm.mlir with up to 5 stages, on the GPU.

  bench/gemm/all_schedules.py compile [--out .dev/gemm-all]     # build machine
  bench/gemm/sweep.py run --bundles .dev/gemm-all --runner BIN --out DIR   # GPU host

The same enumeration as test/unit/GemmSchedulesTest.cpp (stages of loadA,
loadB and MMA in 0..4 without shifts, MMA wait 0/1, loads in the producer
warp group or the MMA's, MMA before or after the loads in the body). The
legality check refuses the illegal ones; every legal one is compiled at
2000x2304x1000 (partial tiles in M and K) for the runner to verify.
"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def schedules():
    for a in range(5):
        for b in range(5):
            for m in range(5):
                if min(a, b, m) != 0:
                    continue
                for wait in (0, 1):
                    for group in (0, 1):
                        for mma_first in (1, 0):
                            name = f"a{a}-b{b}-m{m}-w{wait}-{'ws' if group == 0 else 'single'}-{'mmafirst' if mma_first else 'loadsfirst'}"
                            yield name, {"kernel": "gemm", "ops": [
                                {"name": "MMA", "stage": m, "order": 0 if mma_first else 2, "group": 1, "wait": wait},
                                {"name": "loadA", "stage": a, "order": 1 if mma_first else 0, "group": group},
                                {"name": "loadB", "stage": b, "order": 2 if mma_first else 1, "group": group}]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["compile"])
    ap.add_argument("--out", default=os.path.join(ROOT, ".dev", "gemm-all"))
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "schedules"), exist_ok=True)
    compiler = os.path.join(ROOT, "build", "bin", "stagecraft-compile")
    index, legal = [], 0
    for name, sched in schedules():
        path = os.path.join(a.out, "schedules", name + ".json")
        with open(path, "w") as f:
            json.dump(sched, f)
        bundle = os.path.join(a.out, "bundles", name)
        p = subprocess.run([compiler, os.path.join(ROOT, "assets", "gemm.mlir"), "--schedule", path,
                            "--size=M=2000", "--size=N=2304", "--size=K=1000", "-o", bundle, "-q"],
                           capture_output=True, text=True)
        if p.returncode == 0:
            legal += 1
            subprocess.run(["rm", "-rf", os.path.join(bundle, "ir"), os.path.join(bundle, "kernel.ll")])
            index.append({"variant": name, "size": "2000x2304x1000", "bundle": os.path.relpath(bundle, a.out)})
        elif "illegal schedule" not in p.stderr:
            raise SystemExit(f"{name}: compile failed without a legality reason:\n{p.stderr}")
    with open(os.path.join(a.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
    print(f"{legal} legal schedules compiled into {a.out}")


if __name__ == "__main__":
    main()
