#!/usr/bin/env python3
"""Tabulates the Nsight Compute reports of bench/timeline/ncu/ncu-on-gpu.sh.

  python3 bench/timeline/ncu/summarize.py RESULTS_DIR [--stalls] [--loop]

RESULTS_DIR holds results.jsonl and ncu.tar.xz (NAME.raw.csv, NAME.source.csv per bundle).
Prints, per bundle: the runner's TFLOP/s (verified, CUPTI, outside ncu), the SM clock ncu saw,
the issue slots' and pipes' activity (percent of the SMs' active cycles), instructions per
warp scheduler; with --stalls, the warps' stall reasons per issued instruction; with --loop,
the consumer's steady loop from the per-instruction counters (the instructions executed most
often: HGMMA's count a loop iteration), its dynamic instruction count per iteration and the
stall samples by reason.
"""
import csv
import io
import json
import os
import re
import sys
import tarfile

PIPES = [("issue", "smsp__issue_active.avg.pct_of_peak_sustained_active"),
         ("xu (MUFU)", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"),
         ("fma", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
         ("alu", "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active"),
         ("tensor", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
         ("uniform", "sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active")]
# The plain kernels' flops per CTA and kernel iteration (bench/timeline/ncu/prepare.sh's bundles:
# two dots of rows x keys x head dim), to turn TFLOP/s into an iteration's cycles.
ITERATION_FLOPS = {"bn64-w1": 4 * 64 * 64 * 64, "bn64": 4 * 128 * 64 * 64, "d64": 4 * 128 * 128 * 64,
                   "d128": 4 * 128 * 128 * 128}
STALL_PREFIX = "smsp__average_warps_issue_stalled_"
STALL_SUFFIX = "_per_issue_active.ratio"


def read_tar(path):
    files = {}
    with tarfile.open(path) as t:
        for m in t.getmembers():
            if m.isfile():
                files[m.name] = t.extractfile(m).read().decode("utf-8", "replace")
    return files


def raw_metrics(text):
    rows = list(csv.reader(io.StringIO(text)))
    hdr, vals = rows[0], rows[2]
    out = {}
    for h, v in zip(hdr, vals):
        try:
            out[h] = float(v.replace(",", ""))
        except ValueError:
            out[h] = v
    return out


def source_rows(text):
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"Address"'))
    return list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))


def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return 0.0


def main():
    d = sys.argv[1]
    files = read_tar(os.path.join(d, "ncu.tar.xz"))
    runs = {}
    for line in open(os.path.join(d, "results.jsonl")):
        r = json.loads(line)
        runs[os.path.basename(r["bundle"].rstrip("/"))] = r
    names = sorted(n[:-len(".raw.csv")] for n in files if n.endswith(".raw.csv"))
    print("| bundle | TFLOP/s | SM GHz | " + " | ".join(p for p, _ in PIPES) + " | warp insts / SMSP |")
    print("|---|---|---|" + "---|" * len(PIPES) + "---|")
    metrics = {}
    for n in names:
        m = raw_metrics(files[n + ".raw.csv"])
        metrics[n] = m
        r = runs.get(n, {})
        ghz = m.get("sm__cycles_elapsed.avg.per_second", 0)
        insts = m.get("smsp__inst_executed.sum", 0) / (4 * 132)
        print(f"| {n} | {r.get('tflops') or 0:.1f} | {ghz:.2f} | " +
              " | ".join(f"{m.get(k, 0):.1f}" for _, k in PIPES) + f" | {insts:,.0f} |")
    if "--stalls" in sys.argv:
        reasons = sorted({k[len(STALL_PREFIX):-len(STALL_SUFFIX)] for m in metrics.values() for k in m
                          if k.startswith(STALL_PREFIX) and k.endswith(STALL_SUFFIX)})
        reasons = [x for x in reasons if max(metrics[n].get(STALL_PREFIX + x + STALL_SUFFIX, 0)
                                             for n in names) >= 0.02]
        print("\nWarps stalled per issued instruction, by reason:\n")
        print("| bundle | " + " | ".join(reasons) + " |")
        print("|---|" + "---|" * len(reasons))
        for n in names:
            m = metrics[n]
            print(f"| {n} | " + " | ".join(f"{m.get(STALL_PREFIX + x + STALL_SUFFIX, 0):.2f}"
                                        for x in reasons) + " |")
    if "--loop" in sys.argv:
        print("\nThe consumers' steady loop (per-instruction counters):\n")
        rows_out = []
        for n in names:
            rows = source_rows(files[n + ".source.csv"])
            execs = [num(r["Instructions Executed"]) for r in rows]
            hg = [e for r, e in zip(rows, execs) if "HGMMA" in r["Source"]]
            top = max(hg) if hg else 0
            loop = [(r, e) for r, e in zip(rows, execs) if top and e >= 0.5 * top]
            per_iter = sum(e for _, e in loop) / top if top else 0
            samples = {}
            for r, _ in loop:
                for k, v in r.items():
                    if k.startswith("stall_"):
                        samples[k[6:]] = samples.get(k[6:], 0) + num(v)
            total = sum(samples.values()) or 1
            lead = sorted(samples.items(), key=lambda kv: -kv[1])[:6]
            print(f"{n}: {per_iter:.0f} instructions an iteration (per warp, where the HGMMA run "
                  f"{top:,.0f} times); stall samples: " +
                  ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in lead))
            # Where a consumer warp's iteration goes: its samples at wgmma waits (WARPGROUP.DEPBAR),
            # at mbarrier waits (the predicated branches of the try-wait loops) and elsewhere
            # (issuing, and waiting on its own instructions' results), scaled to the iteration.
            key = next((k for k in sorted(ITERATION_FLOPS, key=len, reverse=True) if n.startswith(k)), None)
            tflops = runs.get(n, {}).get("tflops")
            ghz = metrics[n].get("sm__cycles_elapsed.avg.per_second", 0)
            # Without the bundle's flops an iteration: a generated variant's consumer warp groups
            # (bm..w1, bm..w2) at one CTA an SM give the warps sharing the kernel's elapsed cycles
            # (so the prologue and epilogue are in it).
            groups = re.search(r"_bm\d+w(\d)_", n)
            cycles = None
            if key and tflops and ghz:
                cycles = ITERATION_FLOPS[key] / (tflops * 1e12 / 132) * ghz * 1e9
            elif groups and top:
                warps = 4 * int(groups.group(1))
                cycles = metrics[n].get("sm__cycles_elapsed.avg", 0) * warps / (top / 132)
            if cycles:
                split = {"wgmma wait": 0.0, "mbarrier wait": 0.0, "the rest": 0.0}
                for r, _ in loop:
                    smp = num(r["Warp Stall Sampling (All Samples)"])
                    src = r["Source"]
                    part = ("wgmma wait" if "DEPBAR" in src else
                            "mbarrier wait" if "BRA" in src and "@" in src else "the rest")
                    split[part] += smp
                whole = sum(split.values()) or 1
                rows_out.append(f"| {n} | {tflops or 0:.1f} | {cycles:.0f} | {per_iter:.0f} | " +
                                " | ".join(f"{cycles * v / whole:.0f}" for v in split.values()) + " |")
        if rows_out:
            print("\nA consumer warp's iteration (SM cycles at the clock ncu saw; its samples' shares):\n")
            print("| bundle | TFLOP/s | iteration | instructions | wgmma wait | mbarrier wait | the rest |")
            print("|---|---|---|---|---|---|---|")
            print("\n".join(rows_out))


if __name__ == "__main__":
    main()
