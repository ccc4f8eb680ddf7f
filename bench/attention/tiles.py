#!/usr/bin/env python3
"""Attention tile shapes: which (block of keys, rows per program, consumer warp groups)
is fastest at the issue's sizes? Compile here, run on the GPU host.

  bench/attention/tiles.py compile [--out .dev/attn-tiles]     # build machine (MLIR)
  bench/attention/tiles.py run --bundles DIR --runner BIN --out DIR   # GPU host

The kernels are test/variants/make_variants.py's attention generator (the same IR a
user writes, one program per `bm` query rows of a (batch, head), `wgs` consumer warp
groups) at B4 H16 S8192 D128 and B4 H32 S8192 D64, causal or not, under the default
and cp-dot1-s3 schedules, with cooperative and staggered consumers. Shapes the
lowering refuses (registers, shared memory) are listed with the reason.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "test", "variants"))
import make_variants  # noqa: E402

# Computation pipelining with each load one stage before its dot (two copies of K
# and of V instead of three: room for larger key blocks).
make_variants.ATTN_SCHEDULES.setdefault("cp_dot1_s3_near", {
    "MMA0": (2, 0, 1), "MMA1": (3, 1, 1), "Softmax": (2, 2, 1), "MUL": (2, 3, 1),
    "loadK": (1, 4, 0), "loadV": (2, 5, 0)})

# Sets of (d, keys per block bn, query rows bm, consumer warp groups) x schedules x
# consumer arrangements. FA3 uses 128x176 (d128 full), 128x128 (d128 causal), 192x128 (d64).
SETS = {
    # 2026-11-23 first run: every shape under the default and cp_dot1_s3, both arrangements.
    "shapes": ([(128, 128, 128, 2), (128, 176, 128, 2), (128, 192, 128, 2), (128, 64, 128, 2),
                (64, 128, 128, 2), (64, 128, 192, 3), (64, 192, 128, 2), (64, 64, 128, 2),
                (64, 128, 256, 4)], ["default", "cp_dot1_s3"], ["cooperative", "staggered"]),
    # Second: the near-load computation pipelining at larger key blocks, and more
    # schedules for the three-consumer head-dim-64 kernels.
    "near": ([(128, 128, 128, 2), (128, 176, 128, 2), (128, 192, 128, 2)],
             ["cp_dot1_s3", "cp_dot1_s3_near"], ["cooperative"]),
    "d64w3": ([(64, 128, 192, 3), (64, 64, 192, 3), (64, 96, 192, 3)],
              ["default", "ahead2", "cp_dot1_s3", "cp_dot1_s3_near"], ["cooperative"]),
    # Third: head dim 128, key blocks around FA3's 176, near-load pipelining, both arrangements.
    "d128keys": ([(128, 144, 128, 2), (128, 160, 128, 2), (128, 176, 128, 2), (128, 192, 128, 2)],
                 ["cp_dot1_s3_near"], ["cooperative", "staggered"]),
}
SIZES = {128: {"B": 4, "H": 16, "S": 8192}, 64: {"B": 4, "H": 32, "S": 8192}}


def compile_all(out, only, sets):
    os.makedirs(os.path.join(out, "bundles"), exist_ok=True)
    compiler = os.path.join(ROOT, "build", "bin", "stagecraft-compile")
    index = []
    combos = [(shape, sname, consumers) for name in sets for shape in SETS[name][0]
              for sname in SETS[name][1] for consumers in SETS[name][2]]
    for (d, bn, bm, wgs), sname, consumers in dict.fromkeys(combos):
        for mask in ("none", "causal"):
            if True:
                name, text = make_variants.attention(d=d, bn=bn, bm=bm, wgs=wgs, mask=mask,
                                                     schedule=sname)
                if only and only not in name:
                    continue
                src = os.path.join(out, name + ".mlir")
                with open(src, "w") as f:
                    f.write(text)
                if True:
                    tag = f"{name}--{consumers}"
                    sched = os.path.join(out, f"{consumers}.schedule.json")
                    with open(sched, "w") as f:
                        json.dump({"format": "stagecraft-schedule", "version": 1, "kernel": "",
                                   "consumers": consumers, "ops": []}, f)
                    bundle = os.path.join(out, "bundles", tag)
                    cmd = [compiler, src, "--schedule", sched, "-o", bundle, "-q"] + \
                          [f"--size={k}={v}" for k, v in SIZES[d].items()]
                    p = subprocess.run(cmd, capture_output=True, text=True)
                    entry = {"name": tag, "d": d, "bn": bn, "bm": bm, "wgs": wgs, "mask": mask,
                             "schedule": sname, "consumers": consumers,
                             "bundle": os.path.relpath(bundle, out)}
                    if p.returncode == 0:
                        subprocess.run(["rm", "-rf", os.path.join(bundle, "ir"),
                                        os.path.join(bundle, "kernel.ll")])
                        with open(os.path.join(bundle, "manifest.json")) as f:
                            m = json.load(f)
                        entry["registers"] = m.get("registers_per_thread") or m.get("ptxas", {}).get("registers")
                    else:
                        entry["refused"] = (p.stderr.strip().splitlines() or ["?"])[:2]
                    index.append(entry)
                    print(tag, "ok" if p.returncode == 0 else "REFUSED: " + entry["refused"][0][:240],
                          flush=True)
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)


def run_all(bundles_root, runner, out, reps):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(bundles_root, "index.json")) as f:
        index = json.load(f)
    rows = []
    with open(os.path.join(out, "results.jsonl"), "w") as log:
        for e in index:
            if "refused" in e:
                continue
            p = subprocess.run([runner, os.path.join(bundles_root, e["bundle"]), "--watchdog", "30",
                                "--reps", str(reps)], capture_output=True, text=True, timeout=400)
            try:
                r = json.loads(p.stdout.strip().splitlines()[-1])
            except Exception:
                r = {"status": "error", "error": (p.stdout + p.stderr)[-500:]}
            r.update({k: e[k] for k in ("name", "d", "bn", "bm", "wgs", "mask", "schedule", "consumers")})
            log.write(json.dumps(r) + "\n")
            log.flush()
            rows.append(r)
            print(e["name"], r.get("status"), r.get("verified"), r.get("tflops"),
                  r.get("registers_per_thread"), (r.get("error") or "")[:200], flush=True)
    lines = ["| d | mask | keys x rows / WGs | schedule | consumers | verified | regs | TFLOP/s |",
             "|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r["d"], r["mask"], -(r.get("tflops") or 0))):
        lines.append(f"| {r['d']} | {r['mask']} | {r['bn']} x {r['bm']} / {r['wgs']} | {r['schedule']} | "
                     f"{r['consumers']} | {r.get('verified')} | {r.get('registers_per_thread')} | "
                     f"{r.get('tflops')} |")
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["compile", "run"])
    ap.add_argument("--out", default=os.path.join(ROOT, ".dev", "attn-tiles"))
    ap.add_argument("--only", help="compile only the kernels whose name contains this")
    ap.add_argument("--sets", default="shapes", help="comma-separated: " + ", ".join(SETS))
    ap.add_argument("--bundles")
    ap.add_argument("--runner")
    ap.add_argument("--reps", type=int, default=20)
    a = ap.parse_args()
    if a.what == "compile":
        compile_all(a.out, a.only, a.sets.split(","))
    else:
        run_all(a.bundles, a.runner, a.out, a.reps)


if __name__ == "__main__":
    main()
