#!/usr/bin/env python3
"""Attention schedule sweep: compile here, run on the GPU host.

  bench/attention/sweep.py compile [--out .dev/attention] [--quick]   # build machine (MLIR)
  bench/attention/sweep.py run --bundles DIR --runner BIN --out DIR   # GPU host

`compile` compiles every schedule below for the four attention assets (head
dim 64 and 128, causal or not) at the issue's shapes and at a sequence
length that is not a multiple of the 128-row block. `run` runs each bundle
through stagecraft-run (checked against its fp32 attention reference, timed
with CUPTI) and prints a table; JSON lines go to OUT/results.jsonl. The
baselines (torch SDPA with cuDNN, a Triton kernel) are timed by
bench/attention/baselines.py in the same session on the same GPU.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sched(stages, groups=None):
    """stages: unit -> stage; order follows the list below; loads in group 0."""
    order = ["MMA0", "Softmax", "MUL", "MMA1", "loadK", "loadV"]
    return {"format": "stagecraft-schedule", "version": 1, "kernel": "", "ops": [
        {"name": n, "stage": stages[n], "order": i, "group": 0 if n.startswith("load") else 1}
        for i, n in enumerate(order)]}


def sched_ordered(stages, order):
    return {"format": "stagecraft-schedule", "version": 1, "kernel": "", "ops": [
        {"name": n, "stage": stages[n], "order": i, "group": 0 if n.startswith("load") else 1}
        for i, n in enumerate(order)]}


SCHEDULES = {
    # The asset's default: loads one stage ahead, the math in stage 1.
    "default": sched({"loadK": 0, "loadV": 0, "MMA0": 1, "Softmax": 1, "MUL": 1, "MMA1": 1}),
    # Loads two stages ahead.
    "loads-ahead2": sched({"loadK": 0, "loadV": 0, "MMA0": 2, "Softmax": 2, "MUL": 2, "MMA1": 2}),
    # Triton's computation pipelining: first dot in S2, the rest in S3.
    "cp-dot0-s2": sched({"loadK": 0, "loadV": 1, "MMA0": 2, "Softmax": 3, "MUL": 3, "MMA1": 3}),
    # ... or second dot in S3, the rest in S2.
    "cp-dot1-s3": sched_ordered({"loadK": 0, "loadV": 1, "MMA0": 2, "Softmax": 2, "MUL": 2, "MMA1": 3},
                                ["MMA0", "MMA1", "Softmax", "MUL", "loadK", "loadV"]),
}
# FlashAttention-3's order: MMA0(i+1), the rescale of O with MMA0 in flight, MMA1(i), the
# softmax of i+1 under MMA1 (assets/schedules/attention_cp_mul_early.json).
with open(os.path.join(ROOT, "assets", "schedules", "attention_cp_mul_early.json")) as _f:
    SCHEDULES["cp-mul-early"] = json.load(_f)
# FA3's warp-group ping-pong (consumers take turns at their MMAs each iteration;
# docs/schedule-format.md "consumers") on the default and the best schedule.
for _name in ("default", "cp-dot1-s3"):
    SCHEDULES[_name + "-staggered"] = dict(SCHEDULES[_name], consumers="staggered")

PROBLEMS = [
    # asset, sizes
    ("attention_fwd_d128", {"B": 4, "H": 16, "S": 8192}),
    ("attention_fwd_d128_causal", {"B": 4, "H": 16, "S": 8192}),
    ("attention_fwd_d64", {"B": 4, "H": 32, "S": 8192}),
    ("attention_fwd_d64_causal", {"B": 4, "H": 32, "S": 8192}),
    # Not a multiple of the block: the last key block is masked, the last
    # query block's rows past S are clipped by the TMA store.
    ("attention_fwd_d128", {"B": 4, "H": 16, "S": 8000}),
    ("attention_fwd_d128_causal", {"B": 4, "H": 16, "S": 8000}),
    ("attention_fwd_d64", {"B": 4, "H": 32, "S": 8000}),
    ("attention_fwd_d64_causal", {"B": 4, "H": 32, "S": 8000}),
    # Fewer key blocks than stages: prologue and epilogue overlap.
    ("attention_fwd_d128", {"B": 2, "H": 4, "S": 200}),
    ("attention_fwd_d128_causal", {"B": 2, "H": 4, "S": 300}),
]


def compile_all(out, quick):
    os.makedirs(out, exist_ok=True)
    compiler = os.path.join(ROOT, "build", "bin", "stagecraft-compile")
    index = []
    for sname, s in SCHEDULES.items():
        path = os.path.join(out, f"{sname}.schedule.json")
        with open(path, "w") as f:
            json.dump(s, f, indent=1)
        for asset, sizes in (PROBLEMS[:1] if quick else PROBLEMS):
            size = "x".join(f"{k}{v}" for k, v in sizes.items())
            bundle = os.path.join(out, "bundles", f"{asset}--{sname}--{size}")
            cmd = [compiler, os.path.join(ROOT, "assets", asset + ".mlir"), "--schedule", path,
                   "-o", bundle] + [f"--size={k}={v}" for k, v in sizes.items()]
            p = subprocess.run(cmd, capture_output=True, text=True)
            entry = {"asset": asset, "schedule": sname, "size": size,
                     "bundle": os.path.relpath(bundle, out)}
            if p.returncode == 0:
                entry["compile"] = p.stdout.strip().splitlines()
                subprocess.run(["rm", "-rf", os.path.join(bundle, "ir"), os.path.join(bundle, "kernel.ll")])
            else:
                entry["refused"] = p.stderr.strip().splitlines()[:3]
            index.append(entry)
            print(asset, sname, size, "ok " + entry["compile"][1] if p.returncode == 0
                  else "FAILED: " + entry["refused"][0][:200], flush=True)
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)


def run_all(bundles_root, runner, out, reps):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(bundles_root, "index.json")) as f:
        index = json.load(f)
    rows = []
    with open(os.path.join(out, "results.jsonl"), "w") as log:
        for entry in index:
            if "refused" in entry:
                rows.append((entry, {"status": "compile failed"}))
                continue
            bundle = os.path.join(bundles_root, entry["bundle"])
            p = subprocess.run([runner, bundle, "--watchdog", "30", "--reps", str(reps)],
                               capture_output=True, text=True, timeout=400)
            try:
                r = json.loads(p.stdout.strip().splitlines()[-1])
            except Exception:
                r = {"status": "error", "error": (p.stdout + p.stderr)[-500:]}
            r.update({k: entry[k] for k in ("asset", "schedule", "size")})
            log.write(json.dumps(r) + "\n")
            log.flush()
            rows.append((entry, r))
            print(entry["asset"], entry["schedule"], entry["size"], r.get("status"), r.get("verified"),
                  r.get("tflops"), r.get("max_abs_err"), r.get("norm_rel_err"),
                  (r.get("error") or "")[:300], flush=True)
    lines = ["| kernel | size | schedule | status | verified | max abs err | norm err | TFLOP/s |",
             "|---|---|---|---|---|---|---|---|"]
    for entry, r in rows:
        f = lambda k, fmt="{:.1f}": fmt.format(r[k]) if isinstance(r.get(k), (int, float)) else "-"
        lines.append(f"| {entry['asset']} | {entry['size']} | {entry['schedule']} | {r.get('status')} "
                     f"| {r.get('verified', '-')} | {f('max_abs_err', '{:.2e}')} | {f('norm_rel_err', '{:.2e}')} "
                     f"| {f('tflops')} |")
    table = "\n".join(lines)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(table + "\n")
    print(table)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["compile", "run"])
    ap.add_argument("--out", default=os.path.join(ROOT, ".dev", "attention"))
    ap.add_argument("--bundles", default=os.path.join(ROOT, ".dev", "attention"))
    ap.add_argument("--runner", default=os.path.join(ROOT, ".dev", "prebuilt", "stagecraft-run"))
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="compile the first problem only")
    a = ap.parse_args()
    if a.mode == "compile":
        compile_all(a.out, a.quick)
    else:
        run_all(a.bundles, a.runner, a.out, a.reps)


if __name__ == "__main__":
    sys.exit(main())
