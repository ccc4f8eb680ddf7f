#!/usr/bin/env python3
"""GEMM schedule sweep: compile here, run on the GPU host.

  bench/gemm/sweep.py compile [--out .dev/gemm]   # on the build machine (MLIR)
  bench/gemm/sweep.py run --bundles DIR --runner BIN --out DIR   # on the GPU host

`compile` writes one schedule per variant (loads 1 to 4 stages ahead of the
MMA, MMA wait depth 0 and 1, warp-specialized or not, plus the unpipelined
schedule) and compiles each with stagecraft-compile at 8192^3 and at
8000x8064x4000 (not tile multiples). Illegal schedules are refused by the
legality check and listed as such. `run` runs every bundle through
stagecraft-run (verified against cuBLAS, timed with CUPTI, cuBLAS timed in
the same process) and prints a table; JSON lines go to OUT/results.jsonl.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIZES = {"8192": {"M": 8192, "N": 8192, "K": 8192},
         "8000x8064x4000": {"M": 8000, "N": 8064, "K": 4000},
         # 2 K iterations: fewer than the stages of most schedules, so the
         # predicated prologue and epilogue overlap.
         "1024x2048x128": {"M": 1024, "N": 2048, "K": 128}}
# 128x256 tiles (gemm.mlir) fit loads up to 3 stages ahead; 128x128 tiles
# (gemm_128x128.mlir) up to 4 with MMA wait 1.
ASSETS = ["gemm", "gemm_128x128"]


def schedule(kernel, ahead, wait, specialized):
    load_group = 0 if specialized else 1
    # In one stage the loads must come first; across stages the MMA leads the
    # body (MMA(i) loadA(i+d) loadB(i+d)), as Triton orders it.
    mma_order = 2 if ahead == 0 else 0
    return {"format": "stagecraft-schedule", "version": 1, "kernel": kernel, "ops": [
        {"name": "MMA", "stage": ahead, "order": mma_order, "group": 1, "wait": wait},
        {"name": "loadA", "stage": 0, "order": 0 if ahead == 0 else 1, "group": load_group},
        {"name": "loadB", "stage": 0, "order": 1 if ahead == 0 else 2, "group": load_group}]}


def variants(kernel):
    yield "unpipelined", schedule(kernel, 0, 0, False)
    for specialized in (True, False):
        for ahead in (1, 2, 3, 4):
            for wait in (0, 1):
                name = f"{'ws' if specialized else 'single'}-ahead{ahead}-wait{wait}"
                yield name, schedule(kernel, ahead, wait, specialized)


def compile_all(out):
    os.makedirs(out, exist_ok=True)
    compiler = os.path.join(ROOT, "build", "bin", "stagecraft-compile")
    index = []
    for asset in ASSETS:
      for variant, sched in variants(asset):
        name = f"{asset}/{variant}"
        path = os.path.join(out, f"{asset}--{variant}.schedule.json")
        with open(path, "w") as f:
            json.dump(sched, f, indent=1)
        for size_name, sizes in SIZES.items():
            bundle = os.path.join(out, "bundles", f"{asset}--{variant}--{size_name}")
            cmd = [compiler, os.path.join(ROOT, "assets", asset + ".mlir"), "--schedule", path,
                   "-o", bundle] + [f"--size={k}={v}" for k, v in sizes.items()]
            p = subprocess.run(cmd, capture_output=True, text=True)
            entry = {"variant": name, "size": size_name, "bundle": os.path.relpath(bundle, out)}
            if p.returncode == 0:
                entry["compile"] = p.stdout.strip().splitlines()
                # The GPU host needs only what the runner reads: keep the
                # copy that travels small (the per-pass IR stays here).
                subprocess.run(["rm", "-rf", os.path.join(bundle, "ir"), os.path.join(bundle, "kernel.ll")])
            else:
                entry["refused"] = p.stderr.strip().splitlines()[:3]
            index.append(entry)
            print(name, size_name, "ok" if p.returncode == 0 else "REFUSED: " + entry["refused"][0][:160])
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)


def run_all(bundles_root, runner, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(bundles_root, "index.json")) as f:
        index = json.load(f)
    rows = []
    with open(os.path.join(out, "results.jsonl"), "w") as log:
        for entry in index:
            if "refused" in entry:
                rows.append((entry["variant"], entry["size"], "refused (illegal)", None))
                continue
            bundle = os.path.join(bundles_root, entry["bundle"])
            p = subprocess.run([runner, bundle, "--watchdog", "30", "--reps", "30"],
                               capture_output=True, text=True, timeout=300)
            try:
                r = json.loads(p.stdout.strip().splitlines()[-1])
            except Exception:
                r = {"status": "error", "error": (p.stdout + p.stderr)[-500:]}
            r["variant"], r["size"] = entry["variant"], entry["size"]
            log.write(json.dumps(r) + "\n")
            log.flush()
            rows.append((entry["variant"], entry["size"], r.get("status"), r))
            print(entry["variant"], entry["size"], r.get("status"), r.get("tflops"),
                  r.get("reference_tflops"), r.get("norm_rel_err"), (r.get("error") or "")[:200],
                  flush=True)
    lines = ["| schedule | size | status | verified | norm err | TFLOP/s | cuBLAS TFLOP/s | ratio |",
             "|---|---|---|---|---|---|---|---|"]
    for variant, size, status, r in rows:
        if r is None:
            lines.append(f"| {variant} | {size} | {status} | | | | | |")
            continue
        f = lambda k, fmt="{:.1f}": fmt.format(r[k]) if isinstance(r.get(k), (int, float)) else "-"
        lines.append(f"| {variant} | {size} | {status} | {r.get('verified')} | {f('norm_rel_err', '{:.2e}')} "
                     f"| {f('tflops')} | {f('reference_tflops')} | {f('ratio_to_reference', '{:.3f}')} |")
    table = "\n".join(lines)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(table + "\n")
    print(table)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["compile", "run"])
    ap.add_argument("--out", default=os.path.join(ROOT, ".dev", "gemm"))
    ap.add_argument("--bundles", default=os.path.join(ROOT, ".dev", "gemm"))
    ap.add_argument("--runner", default=os.path.join(ROOT, ".dev", "prebuilt", "stagecraft-run"))
    a = ap.parse_args()
    if a.mode == "compile":
        compile_all(a.out)
    else:
        run_all(a.bundles, a.runner, a.out)


if __name__ == "__main__":
    sys.exit(main())
