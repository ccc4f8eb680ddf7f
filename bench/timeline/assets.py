#!/usr/bin/env python3
"""Predicted and measured timelines of the GEMM and attention assets, two schedules each.

  bench/timeline/assets.py compile [--out .dev/timeline] [--set calibration|wider|short|unseen|tiles|epilogue|...]   # build machine
  bench/timeline/assets.py run --bundles DIR --runner BIN --out OUT      # GPU host
  bench/timeline/run-assets-on-gpu.sh OUT [DIR]                          # GPU host, all of it
  bench/timeline/assets.py list                                          # the configurations

`--set calibration` (compile, list) takes, instead, the schedules the model's calibration cannot
explain from TFLOP/s alone (docs/timeline.md, "What is not met"): attention d128 and d64 under
the default, cp-dot0-s2 and cp-dot1-s3 schedules; the 128x128 GEMM with loads three and four
stages ahead (the same shared memory); the 128x256 GEMM's single-group MMA wait 0 and 1 and the
warp-specialized wait 0. `--set wider` takes kernels beyond those families under the IR's own
schedule (persistent, ping-pong, persistent attention, fp8, mxfp8, the loop of bench/unseen,
partial tiles): whether the probes follow every lowering. A measured TFLOP/s is reported only
for a kernel whose output the runner verified in the same run.

`compile` compiles each (asset, schedule) with `stagecraft-compile --with-timeline`, writing
the bundle with its instrumented kernel (timeline.ptx / .cubin) and the predicted timeline
(--timeline) into it. `run` runs every bundle with `stagecraft-run --trace`, checks each trace
(check_trace.py, which fails a probe overhead of --max-overhead or more, default 5%) and writes
OUT/results.jsonl (each run's result without the trace's events: what calibrate.py reads) and
OUT/timelines.md: predicted vs measured iteration time (the median time between a consumer's
successive iterations of its first unit, over the sampled CTAs) and the overhead (the
instrumented kernel's median time over the plain one's, both timed by the runner interleaved in the same
process). The traces (OUT/*.measured.json) and the predictions (OUT/*.predicted.json) open in
Perfetto.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEDULES = os.path.join(ROOT, "assets", "schedules")
HERE = os.path.dirname(os.path.abspath(__file__))

# (asset, schedule name, schedule file or None for the IR's own, sizes). screenshots.sh shows
# the traces measured with these in the app's timeline panel.
CONFIGS = [
    ("gemm", "ws-ahead2-wait1", None, {"M": 8192, "N": 8192, "K": 8192}),
    ("gemm", "single-ahead1-wait0", os.path.join(HERE, "schedules", "gemm--single-ahead1-wait0.json"),
     {"M": 8192, "N": 8192, "K": 8192}),
    ("attention_fwd_d128", "default", None, {"B": 4, "H": 16, "S": 8192}),
    ("attention_fwd_d128", "cp-dot1-s3", os.path.join(SCHEDULES, "attention_cp_dot1_s3.json"),
     {"B": 4, "H": 16, "S": 8192}),
]


GEMM_8192 = {"M": 8192, "N": 8192, "K": 8192}
ATTENTION = {"attention_fwd_d128": {"B": 4, "H": 16, "S": 8192}, "attention_fwd_d64": {"B": 4, "H": 32, "S": 8192}}
CALIBRATION = [
    (asset, name, sched, ATTENTION[asset])
    for asset in ATTENTION
    for name, sched in (("default", None),
                        ("cp-dot0-s2", os.path.join(SCHEDULES, "attention_cp_dot0_s2.json")),
                        ("cp-dot1-s3", os.path.join(SCHEDULES, "attention_cp_dot1_s3.json")))
] + [
    (asset, name, os.path.join(HERE, "schedules", f"{asset}--{name}.json"), GEMM_8192)
    for asset, name in (("gemm_128x128", "ws-ahead3-wait1"), ("gemm_128x128", "ws-ahead4-wait0"),
                        ("gemm", "single-ahead2-wait0"), ("gemm", "single-ahead2-wait1"),
                        ("gemm", "ws-ahead2-wait0"))
]

# Kernels beyond the two asset families, with the IR's own schedule: persistent (one and two
# consumer tiles, ping-pong), persistent attention, fp8 and block-scaled dots, a loop no asset
# contains (bench/unseen), and partial tiles. Their traces check that the probes follow every
# lowering, not only the ones the model was calibrated on.
UNSEEN = os.path.join(ROOT, "bench", "unseen", "swiglu_dual_gemm.mlir")
PARTIAL = {"M": 1000, "N": 1048, "K": 528}
WIDER = [
    ("persistent_gemm", "ir", None, GEMM_8192),
    ("persistent_gemm_pingpong", "ir", None, GEMM_8192),
    ("persistent_attention_fwd_d128", "ir", None, ATTENTION["attention_fwd_d128"]),
    ("fp8_gemm", "ir", None, GEMM_8192),
    ("mxfp8_gemm", "ir", None, GEMM_8192),
    (UNSEEN, "ir", None, {"M": 4096, "N": 4096, "K": 4096}),
    (UNSEEN, "partial", None, PARTIAL),
    ("gemm", "partial", None, PARTIAL),
    ("attention_fwd_d64_causal", "s1000", None, {"B": 2, "H": 8, "S": 1000}),
]

# Short launches the model times worst (docs/timeline.md, "What is not met"): the generated
# 64-row GEMM tiles at 1000x1048x528 (nine K iterations, a second wave of 12 CTAs for the
# warp-specialized ones), beside the 128-row tiles of the same size it predicts within 10%.
# "variant:NAME" is a kernel of test/variants/make_variants.py (IR and schedule generated at
# compile time).
SHORT = [
    (f"variant:gemm_bf16_aK_bK_none_bf16_{tile}_{schedule}", "variant", None, PARTIAL)
    for tile, schedule in (("64x128", "one_group"), ("64x128", "ws_ahead1"), ("64x128", "ws_ahead2"),
                           ("128x128", "ws_ahead2"), ("128x256", "ws_ahead2"))
]


# Kernels of test/variants/make_variants.py that no run has measured, at full size, two
# schedules each: another operand layout and epilogue (f16, A M-major, B N-major, GELU), an fp8
# GEMM with a tensor scale, attention with a soft cap (head dim 128) and with a sliding window
# (head dim 64), both in 64-key blocks. Their predictions are written at compile time, before
# any run: the model and the probes on loops the calibration never saw.
GEMM_BIG = {"M": 8192, "N": 8192, "K": 8192}
UNSEEN_BIG = [
    (f"variant:{name}", "big", None, sizes)
    for name, sizes in (
        ("gemm_f16_aM_bN_gelu_tanh_bf16_128x256_ws_ahead2", GEMM_BIG),
        ("gemm_f16_aM_bN_gelu_tanh_bf16_128x256_ws_ahead1", GEMM_BIG),
        ("gemm_e4m3_aK_bK_tensorscale_bf16_128x256_ws_ahead2", GEMM_BIG),
        ("gemm_e4m3_aK_bK_tensorscale_bf16_128x256_one_group", GEMM_BIG),
        ("attn_d128_bn64_bm128w2_bf16_bf16_softcap_default", ATTENTION["attention_fwd_d128"]),
        ("attn_d128_bn64_bm128w2_bf16_bf16_softcap_cp_dot1_s3", ATTENTION["attention_fwd_d128"]),
        ("attn_d64_bn64_bm128w2_bf16_bf16_window_default", ATTENTION["attention_fwd_d64"]),
        ("attn_d64_bn64_bm128w2_bf16_bf16_window_cp_dot0_s2", ATTENTION["attention_fwd_d64"]),
    )
]

# The generated GEMM's tile shapes at full size, loads two ahead: per iteration the wgmma read
# 24, 40, 48 and 80 KB of shared memory and the TMA writes 24, 40, 32 and 48 KB (64x128,
# 64x256, 128x128, 128x256), where the L2's link carries 17-35 KB (docs/timeline.md, "What is
# not met": shared memory as the bound), and the 64x128 tile with one warp group.
TILES_BIG = [
    (f"variant:gemm_bf16_aK_bK_none_bf16_{tile}_{schedule}", "big", None, GEMM_BIG)
    for tile, schedule in (("64x128", "ws_ahead2"), ("64x256", "ws_ahead2"), ("128x128", "ws_ahead2"),
                           ("128x256", "ws_ahead2"), ("64x128", "one_group"))
]


# A loop no asset and no generated variant has (bench/unseen/sigmoid_attention.mlir: sigmoid
# attention, no softmax, an element-wise division in the loop), under its IR's schedule and
# with MMA0 one iteration ahead of the sigmoid, at full size and at 1000 keys: predicted when
# compiled, before any run.
SIGMOID_IR = os.path.join(ROOT, "bench", "unseen", "sigmoid_attention.mlir")
SIGMOID_AHEAD = os.path.join(HERE, "schedules", "sigmoid_attention--mma0-ahead.json")
SIGMOID = [
    (SIGMOID_IR, "ir", None, ATTENTION["attention_fwd_d64"]),
    (SIGMOID_IR, "mma0-ahead", SIGMOID_AHEAD, ATTENTION["attention_fwd_d64"]),
    (SIGMOID_IR, "ir-s1000", None, {"B": 2, "H": 8, "S": 1000}),
    (SIGMOID_IR, "mma0-ahead-s1000", SIGMOID_AHEAD, {"B": 2, "H": 8, "S": 1000}),
]
# The same at head dim 128 (bench/unseen/sigmoid_attention_d128.mlir), predicted with the model
# as refitted around the head-dim-64 kernel's runs (pipe_efficiency), before its own run.
SIGMOID_D128_IR = os.path.join(ROOT, "bench", "unseen", "sigmoid_attention_d128.mlir")
SIGMOID_D128 = [
    (SIGMOID_D128_IR, "ir", None, ATTENTION["attention_fwd_d128"]),
    (SIGMOID_D128_IR, "mma0-ahead", SIGMOID_AHEAD, ATTENTION["attention_fwd_d128"]),
    (SIGMOID_D128_IR, "ir-s1000", None, {"B": 2, "H": 8, "S": 1000}),
    (SIGMOID_D128_IR, "mma0-ahead-s1000", SIGMOID_AHEAD, {"B": 2, "H": 8, "S": 1000}),
]


# The epilogue held out (2026-11-27): the model's panels converted while staged and its stores
# read at the rate the 128x256 tiles' zones measured, predicted when compiled, before the run, on
# epilogues and tiles the zones it was timed on did not have: f32 and f16 outputs, bias + ReLU,
# a row scale, GELU on a 128x128 tile, the 128x96 and 64x256 tiles, at a size of no other run.
EPILOGUE_SIZE = {"M": 1536, "N": 1536, "K": 384}
EPILOGUE = [
    (f"variant:gemm_bf16_aK_bK_{name}", "heldout", None, EPILOGUE_SIZE)
    for name in ("none_f32_128x128_ws_ahead2", "none_f32_64x128_ws_ahead2",
                 "none_f16_128x256_ws_ahead2", "bias_relu_bf16_128x256_ws_ahead2",
                 "bias_relu_bf16_64x256_ws_ahead2", "rowscale_f16_128x128_ws_ahead2",
                 "gelu_tanh_bf16_128x128_ws_ahead2", "none_bf16_128x96_ws_ahead2",
                 "none_bf16_64x256_one_group", "none_bf16_128x128w1_ws_ahead1")
] + [
    # and two rankings at that size: the 64x128 and 128x256 tiles under their three schedules.
    (f"variant:gemm_bf16_aK_bK_none_bf16_{tile}_{schedule}", "heldout", None, EPILOGUE_SIZE)
    for tile in ("64x128", "128x256") for schedule in ("one_group", "ws_ahead1", "ws_ahead2")
]


# What a persistent kernel's epilogue waits for (2026-11-27): 256 tiles in 132 CTAs (the
# ping-pong's 128x128 at 2048x2048, the cooperative kernel's 128x256 at 4096x2048, K 4096), so
# every sampled CTA runs two: its first tile's epilogue runs beside the second tile's loop (the
# other ping-pong team's, or the cooperative producer's loads) and its second tile's beside
# nothing. The ping-pong's traced epilogues measure 1.6 us where the model, which has no such
# contention, predicts 0.5.
PERSISTENT_EPILOGUE = [
    ("persistent_gemm_pingpong", "two-tiles", None, {"M": 2048, "N": 2048, "K": 4096}),
    ("persistent_gemm", "two-tiles", None, {"M": 4096, "N": 2048, "K": 4096}),
]


# The sets by name (`--set`).
ALL_SETS = {"assets": CONFIGS, "calibration": CALIBRATION, "wider": WIDER, "short": SHORT,
            "unseen": UNSEEN_BIG, "tiles": TILES_BIG, "sigmoid": SIGMOID, "sigmoid128": SIGMOID_D128,
            "epilogue": EPILOGUE, "persistent-epilogue": PERSISTENT_EPILOGUE}


_variants = {}


def variant(name):
    """A generated variant's (IR file, schedule file or None), written once."""
    if not _variants:
        import atexit
        import shutil
        import tempfile
        where = tempfile.mkdtemp(prefix="stagecraft-variants-")
        atexit.register(shutil.rmtree, where, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "test", "variants", "make_variants.py"),
                        where, "--set", "all"], check=True, capture_output=True)
        for e in json.load(open(os.path.join(where, "variants.json"))):
            _variants[e["name"]] = (os.path.join(where, e["file"]),
                                    os.path.join(where, e["schedule"]) if e.get("schedule") else None)
    if name not in _variants:
        raise SystemExit(f"no variant {name} in make_variants.py's set")
    return _variants[name]


def bundle_ir(name):
    """The IR a bundle NAME = STEM--SCHEDULE was compiled from: assets/STEM.mlir, a loop outside
    assets/ that a configuration here names (bench/unseen), or a generated variant; None when
    unknown."""
    stem = name.split("--")[0]
    ir = os.path.join(ROOT, "assets", stem + ".mlir")
    if os.path.exists(ir):
        return ir
    for configs in ALL_SETS.values():
        for asset, *_ in configs:
            if not asset.startswith("variant:") and source_of(asset)[1] == stem:
                return source_of(asset)[0]
    try:
        return variant(stem)[0]
    except SystemExit:
        return None


def source_of(asset):
    """An asset's name, or a path to any loop's IR: (IR file, name for the bundle)."""
    if os.sep in asset:
        return asset, os.path.splitext(os.path.basename(asset))[0]
    return os.path.join(ROOT, "assets", asset + ".mlir"), asset


def compile_all(out, configs, ctas=4):
    os.makedirs(out, exist_ok=True)
    compiler = os.path.join(ROOT, "build", "bin", "stagecraft-compile")
    index = []
    for asset, name, sched, sizes in configs:
        if asset.startswith("variant:"):
            asset = asset[len("variant:"):]
            ir, sched = variant(asset)
        else:
            ir, asset = source_of(asset)
        bundle = os.path.join(out, f"{asset}--{name}")
        cmd = [compiler, ir, "-o", bundle, "--with-timeline",
               "--timeline", bundle + ".predicted.json", f"--timeline-ctas={ctas}"] + [f"--size={k}={v}" for k, v in sizes.items()]
        if sched:
            cmd += ["--schedule", sched]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"{asset} {name}: compile failed:\n{p.stderr}")
        shutil.move(bundle + ".predicted.json", os.path.join(bundle, "predicted.json"))
        subprocess.run(["rm", "-rf", os.path.join(bundle, "ir"), os.path.join(bundle, "kernel.ll")])
        if not os.path.exists(os.path.join(bundle, "timeline.ptx")):
            raise SystemExit(f"{asset} {name}: the bundle has no timeline.ptx")
        index.append({"asset": asset, "schedule": name, "bundle": os.path.basename(bundle), "instrumented": True})
        lines = p.stdout.splitlines()
        print(f"{asset} {name}: {lines[1]}\n  " + "\n  ".join(l for l in lines if l.startswith(("ptxas:", "instrumented:"))))
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)


def measured_iteration_ns(trace):
    """Median time between a consumer's successive iterations (its first unit's start)."""
    units = {u["id"]: u for u in trace["units"]}
    roles = {w["id"]: w["role"] for w in trace["warp_groups"]}
    gaps = []
    for cta in trace["ctas"]:
        by_wg = {}
        for wg, unit, it, start, dur in cta["events"]:
            if roles.get(wg) != "consumer":
                continue
            first = by_wg.setdefault(wg, {})
            if it not in first or start < first[it]:
                first[it] = start
        for starts in by_wg.values():
            its = sorted(starts)
            gaps += [(starts[b] - starts[a]) / (b - a) for a, b in zip(its, its[1:]) if b > a]
    return statistics.median(gaps) if gaps else None


def results_line(result, asset, schedule):
    """The runner's result as one line of OUT/results.jsonl, which calibrate.py reads: the
    trace's events left out (they are in NAME.measured.json), its overhead kept, and the
    (asset, schedule) of this script's configuration that made the bundle."""
    r = dict(result)
    if isinstance(r.get("trace"), dict):
        r["trace"] = {k: v for k, v in r["trace"].items() if k not in ("ctas", "warp_groups", "units", "schedule")}
    r["timeline_asset"] = {"asset": asset, "schedule": schedule}
    return json.dumps(r)


def run_all(bundles, runner, out, max_overhead):
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, "results.jsonl"), "w").close()
    index = json.load(open(os.path.join(bundles, "index.json")))
    rows, status = [], 0
    for e in index:
        name = e["bundle"]
        bundle = os.path.join(bundles, name)
        predicted = json.load(open(os.path.join(bundle, "predicted.json")))["otherData"]
        shutil.copy(os.path.join(bundle, "predicted.json"), os.path.join(out, name + ".predicted.json"))
        trace_file = os.path.join(out, name + ".measured.json")
        result_file = os.path.join(out, name + ".result.json")
        with open(result_file, "w") as f:
            subprocess.run([runner, bundle, "--reps", "20", "--trace", trace_file], stdout=f, timeout=600)
        r = json.loads(open(result_file).read().strip().splitlines()[-1])
        with open(os.path.join(out, "results.jsonl"), "a") as f:
            f.write(results_line(r, e["asset"], e["schedule"]) + "\n")
        t = r.get("trace") or {}
        measured = measured_iteration_ns(t) if "ctas" in t else None
        if "ctas" in t:
            if subprocess.run([sys.executable, os.path.join(ROOT, "bench", "timeline", "check_trace.py"),
                               result_file, trace_file, "--max-overhead", str(max_overhead)]).returncode != 0:
                status = 1
        else:
            print(f"FAIL: {name}: no trace: {t.get('error') or r.get('error')}")
            status = 1
        checks = r.get("checks") or []
        verified = r.get("status") == "ok" and bool(checks) and all(c.get("passed") for c in checks)
        if not verified:
            print(f"FAIL: {name}: the kernel's output is not verified ({r.get('status')}: {r.get('error')})")
            status = 1
        rows.append((e["asset"], e["schedule"], r.get("tflops") if verified else None, predicted.get("predicted_tflops"),
                     measured, predicted.get("iteration_ns"), predicted.get("bound"), t.get("code_overhead"),
                     t.get("recording_overhead"), t.get("overhead"), t.get("error")))
    # The overhead, and with an idle launch (the instrumented kernel recording nothing) its two
    # parts: the code (ptxas's schedule of the instrumented copy) and the records.
    lines = ["| kernel | schedule | measured TFLOP/s (verified) | predicted | measured iteration | predicted | bound (predicted) "
             "| probe overhead | of it: code | of it: records |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for asset, sched, meas, pred, mi, pi, bound, code, records, overhead, err in rows:
        f = lambda x, fmt: fmt.format(x) if isinstance(x, (int, float)) else "-"
        pct = lambda x: f(x if x is None else 100 * x, '{:+.2f}%')
        lines.append(f"| {asset} | {sched} | {f(meas, '{:.1f}')} | {f(pred, '{:.1f}')} | {f(mi, '{:.0f} ns')} | "
                     f"{f(pi, '{:.0f} ns')} | {bound} | {pct(overhead) if not err else err} | {pct(code)} | {pct(records)} |")
    overheads = [o for *_, o, err in rows if isinstance(o, (int, float)) and not err]
    lines.append("")
    lines.append(f"probe overhead: instrumented / plain median - 1, at most {100 * max_overhead:.0f}%: " +
                 ("met" if len(overheads) == len(rows) and all(o < max_overhead for o in overheads) else "NOT met") +
                 (f" (largest {100 * max(overheads):+.2f}%)" if overheads else ""))
    table = "\n".join(lines)
    with open(os.path.join(out, "timelines.md"), "w") as f:
        f.write(table + "\n")
    print(table)
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["compile", "run", "list"])
    ap.add_argument("--out", default=os.path.join(ROOT, ".dev", "timeline"))
    ap.add_argument("--bundles", default=os.path.join(ROOT, ".dev", "timeline"))
    ap.add_argument("--max-overhead", type=float, default=0.05)
    ap.add_argument("--ctas", type=int, default=4,
                    help="compile: how many CTAs record (stagecraft-compile --timeline-ctas)")
    ap.add_argument("--runner", default=os.path.join(ROOT, ".dev", "prebuilt", "stagecraft-run"))
    ap.add_argument("--set", choices=sorted(ALL_SETS), default="assets")
    a = ap.parse_args()
    configs = ALL_SETS[a.set]
    if a.mode == "compile":
        compile_all(a.out, configs, a.ctas)
        return 0
    if a.mode == "list":  # for screenshots.sh: "asset name schedule-file-or--" per line
        for asset, name, sched, _ in configs:
            print(asset, name, os.path.relpath(sched, ROOT) if sched else "-")
        return 0
    return run_all(a.bundles, a.runner, a.out, a.max_overhead)


if __name__ == "__main__":
    sys.exit(main())
