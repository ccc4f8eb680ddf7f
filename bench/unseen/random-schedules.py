#!/usr/bin/env python3
"""Random legal schedules of every loop we have, compiled for the GPU: "any legal schedule runs
and verifies", tried beyond the schedules anyone wrote by hand.

  python3 bench/unseen/random-schedules.py compile --out .dev/random-sched [--per-loop 2] [--seed 1]
  GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/random-sched OUT  (carry it)

For each loop (assets/, test/Inputs/unseen/, bench/unseen/ and its sweeps) the default schedule
is read (stagecraft-opt -tile-materialize-schedule -tile-export-schedule), then moved by one to
three random moves the board allows (a unit's stage, its order, its group, a dot's wait, the
consumers' arrangement, register budgets, a cluster), and compiled. The compiler refuses the illegal ones (that is its job:
those attempts are dropped); a legal one whose PTX differs from the default's and from every one
kept before is kept as DEV/bundles/LOOP--rsN, its schedule copied beside the generator's log
(DEV/schedules/LOOP--rsN.json) so that a run can be repeated. Sizes stay the loop's defaults,
except that with probability 1/3 every size is lowered by a small odd amount (tails), which the
compiler may refuse too (then the defaults are kept).
"""
import argparse
import glob
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# STAGECRAFT_BIN: a copy of build/bin, so that a long batch survives a rebuild.
BIN = os.environ.get("STAGECRAFT_BIN", os.path.join(ROOT, "build", "bin"))
KEEP = ("manifest.json", "kernel.cubin", "kernel.ptx", "reference.ptx", "schedule.json")


def loops():
    pats = ["assets/*.mlir", "test/Inputs/unseen/*.mlir", "bench/unseen/*.mlir", "bench/unseen/*/*.mlir",
            "bench/unseen/*/kernels/*.mlir"]
    out = []
    for p in pats:
        out += sorted(glob.glob(os.path.join(ROOT, p)))
    return out


def default_schedule(ir):
    r = subprocess.run([os.path.join(BIN, "stagecraft-opt"), ir, "-tile-materialize-schedule",
                        "-tile-export-schedule", "-o", os.devnull],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return None
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return None


def sizes_of(ir):
    m = re.search(r"tile\.defaults\s*=\s*\{([^}]*)\}", open(ir).read())
    if not m:
        return {}
    return {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(-?\d+)\s*:\s*i64", m.group(1))}


def mutate(sched, rng):
    s = json.loads(json.dumps(sched))
    ops = s["ops"]
    if not ops:
        return s, "none"
    groups = sorted({o["group"] for o in ops} | {0})
    moves = []
    for _ in range(rng.randint(1, 3)):
        o = rng.choice(ops)
        kind = rng.choice(["stage", "stage", "order", "group", "wait", "consumers", "registers",
                           "cluster"])
        if kind == "stage":
            o["stage"] = max(0, o["stage"] + rng.choice([-2, -1, 1, 1, 2]))
            moves.append(f"{o['name']} stage {o['stage']}")
        elif kind == "order":
            o["order"] = rng.randint(0, len(ops) + 1)
            moves.append(f"{o['name']} order {o['order']}")
        elif kind == "group":
            o["group"] = rng.choice(groups)
            moves.append(f"{o['name']} group {o['group']}")
        elif kind == "wait":
            # A wait applies to dots only: a unit that has one, or is named like one.
            dots = [d for d in ops if "wait" in d or re.search("mma|dot|gemm", d["name"], re.I)]
            if not dots:
                continue
            o = rng.choice(dots)
            o["wait"] = rng.choice([0, 1, 2])
            moves.append(f"{o['name']} wait {o['wait']}")
        elif kind == "registers":
            # setmaxnreg counts per group (0: the default share); the legality check refuses
            # budgets the block cannot hold.
            s["registers"] = [rng.choice([0, 24, 40, 56]) if g == 0 else
                              rng.choice([0, 160, 192, 216, 232, 240]) for g in groups]
            moves.append(f"registers {s['registers']}")
        elif kind == "cluster":
            s["cluster"] = rng.choice([2, 4])
            moves.append(f"cluster {s['cluster']}")
        else:
            s["consumers"] = rng.choice(["pingpong", "staggered", "cooperative"])
            moves.append(f"consumers {s['consumers']}")
    low = min(o["stage"] for o in ops)
    for o in ops:
        o["stage"] -= low
    return s, "; ".join(moves)


def compile_bundle(ir, schedule_path, sizes, dest):
    work = tempfile.mkdtemp()
    try:
        cmd = [os.path.join(BIN, "stagecraft-compile"), ir, "-o", os.path.join(work, "b"), "-q"]
        if schedule_path:
            cmd += ["--schedule", schedule_path]
        for k, v in sizes.items():
            cmd.append(f"--size={k}={v}")
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            return None, (r.stderr.strip().splitlines() or ["?"])[0]
        os.makedirs(dest, exist_ok=True)
        for f in KEEP:
            src = os.path.join(work, "b", f)
            if os.path.exists(src):
                shutil.copy(src, dest)
        return hashlib.sha1(open(os.path.join(dest, "kernel.ptx"), "rb").read()).hexdigest(), ""
    except subprocess.TimeoutExpired:
        return None, "compile timed out"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_compile(args):
    rng = random.Random(args.seed)
    dev = os.path.abspath(args.out)
    if os.path.exists(dev):
        shutil.rmtree(dev)
    os.makedirs(os.path.join(dev, "bundles"))
    os.makedirs(os.path.join(dev, "schedules"))
    log = open(os.path.join(dev, "generate.log"), "w")
    kept = 0
    chosen = loops()
    if args.match:
        chosen = [p for p in chosen if re.search(args.match, p)]
    stems = [os.path.basename(ir)[:-5] for ir in chosen]
    for ir in chosen:
        stem = os.path.basename(ir)[:-5]
        if stems.count(stem) > 1:  # the same file name in two sweeps: keep both bundles
            stem = os.path.basename(os.path.dirname(ir)) + "-" + stem
        base = default_schedule(ir)
        if base is None:
            print(f"{stem}: no default schedule (refused)", file=log, flush=True)
            continue
        defaults = sizes_of(ir)
        tmp = tempfile.mkdtemp()
        seen = set()
        ref, why = compile_bundle(ir, None, {}, os.path.join(tmp, "default"))
        if ref is None:
            print(f"{stem}: the default does not compile: {why}", file=log, flush=True)
            shutil.rmtree(tmp, ignore_errors=True)
            continue
        seen.add(ref)
        n = 0
        for attempt in range(args.attempts):
            if n >= args.per_loop:
                break
            sched, moves = mutate(base, rng)
            sizes = {}
            if defaults and rng.random() < 1 / 3:
                sizes = {k: max(1, v - rng.choice([1, 3, 7, 17, 37])) for k, v in defaults.items()}
            name = f"{stem}--rs{n}"
            spath = os.path.join(dev, "schedules", name + ".json")
            with open(spath, "w") as f:
                json.dump(sched, f, indent=1)
            dest = os.path.join(dev, "bundles", name)
            h, why = compile_bundle(ir, spath, sizes, dest)
            if h is None and sizes:
                sizes = {}
                h, why = compile_bundle(ir, spath, sizes, dest)
            status = "refused" if h is None else ("same PTX" if h in seen else "kept")
            print(f"{stem} attempt {attempt}: {moves} sizes={sizes or 'defaults'}: {status}"
                  + (f" ({why})" if why else ""), file=log, flush=True)
            if h is None or h in seen:
                shutil.rmtree(dest, ignore_errors=True)
                os.remove(spath)
                continue
            seen.add(h)
            with open(os.path.join(dev, "schedules", name + ".txt"), "w") as f:
                f.write(f"{os.path.relpath(ir, ROOT)}\nmoves: {moves}\nsizes: {sizes or 'defaults'}\n")
            n += 1
            kept += 1
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"{stem}: kept {n}", flush=True)
    shutil.copy(os.path.join(BIN, "stagecraft-run"), dev)
    print(f"kept {kept} bundles in {dev}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile")
    c.add_argument("--out", default=os.path.join(ROOT, ".dev", "random-sched"))
    c.add_argument("--per-loop", type=int, default=2)
    c.add_argument("--attempts", type=int, default=10)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--match", default="", help="only loops whose path matches this regex")
    args = ap.parse_args()
    if args.cmd == "compile":
        cmd_compile(args)


if __name__ == "__main__":
    sys.exit(main())
