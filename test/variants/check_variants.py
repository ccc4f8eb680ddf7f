#!/usr/bin/env python3
"""Compiles every generated kernel variant (make_variants.py) through the
whole pipeline, as a user's kernel: each must compile, assemble with ptxas
without spills and without ptxas serializing the wgmma pipeline, and carry
its reference kernel. Exit 0 when all pass.

  check_variants.py STAGECRAFT_COMPILE WORK_DIR [--set ci|gpu|all] [--jobs N]
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SERIALIZED = re.compile(r"\(C751[457]\)")


def check(compiler, work, v):
    out = os.path.join(work, "bundles", v["name"])
    cmd = [compiler, os.path.join(work, "ir", v["file"]), "-o", out, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return f"{v['name']}: compile failed:\n{p.stdout}{p.stderr}"
    problems = []
    for f in ("kernel.ptx", "reference.ptx", "manifest.json"):
        if not os.path.getsize(os.path.join(out, f)):
            problems.append(f"{f} is empty")
    ptxas_path = os.path.join(out, "ptxas.txt")
    if os.path.exists(ptxas_path) and os.path.exists(os.path.join(out, "kernel.cubin")):
        ptxas = open(ptxas_path).read()
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", ptxas)
        if not m or m.group(1) != "0" or m.group(2) != "0":
            problems.append("register spills: " + (m.group(0) if m else "no ptxas report"))
        if SERIALIZED.search(ptxas):
            problems.append("ptxas serializes the wgmma pipeline: " + SERIALIZED.search(ptxas).group(0))
    man = json.load(open(os.path.join(out, "manifest.json")))
    if man["reference"]["kind"] != "ir" or not man["reference"]["outputs"]:
        problems.append("the manifest names no IR reference")
    return f"{v['name']}: " + "; ".join(problems) if problems else None


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    compiler, work = sys.argv[1], sys.argv[2]
    which = sys.argv[sys.argv.index("--set") + 1] if "--set" in sys.argv else "ci"
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
    ir = os.path.join(work, "ir")
    subprocess.run([sys.executable, os.path.join(HERE, "make_variants.py"), ir, "--set", which],
                   check=True)
    variants = json.load(open(os.path.join(ir, "variants.json")))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        failures = [r for r in pool.map(lambda v: check(compiler, work, v), variants) if r]
    for f in failures:
        print("FAIL", f)
    print(f"{len(variants) - len(failures)} of {len(variants)} variants compile cleanly")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
