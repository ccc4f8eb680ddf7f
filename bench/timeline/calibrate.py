#!/usr/bin/env python3
"""Calibrates the timeline model (core/Timeline) on the committed GPU results.

  bench/timeline/calibrate.py [--params P.json] [--fit] [--write-params OUT.json]
                              [--table OUT.md] [--rows OUT.jsonl] [--estimate-resources]

Reads every verified run in bench/results/ of a kernel it can rebuild (the GEMM sweeps, the
all-schedules GEMM run, the attention sweeps, the app's drag, the unified lowering's run of
the assets and generated variants), rebuilds the IR, schedule and problem sizes each bundle
was compiled with (from the scripts that made them: bench/gemm/sweep.py,
bench/gemm/all_schedules.py, bench/attention/sweep.py, bench/app/drag-loadK.sh,
bench/variants/prepare.sh with test/variants/make_variants.py), predicts each with
build/bin/stagecraft-timeline --batch, and reports per (results, device, kernel, size) group:

  - Spearman's rank correlation of predicted and measured TFLOP/s (ties share ranks);
  - the median of |predicted - measured| / measured TFLOP/s.

Predicted TFLOP/s = the run's own flop count / the predicted time, so both sides count
the same flops. By default the registers per thread and dynamic shared memory of the
compiled kernel (ptxas and the manifest, which stagecraft-compile knows before any GPU
run) are passed to the model; --estimate-resources uses the schedule report's estimates
instead (what the app has while dragging).

--fit searches the model's global parameters (a coordinate search in log space over
the H100 groups, never per schedule or per kernel) and prints them as JSON;
--write-params writes them. H200 runs are predicted with the same parameters except the
H200's HBM bandwidth (4.8 TB/s), and reported apart. The first attention run on an H200
(attention-first-h200-2026-11-21) measured an older lowering that spilled (its README
says so) and is reported but not part of the bar.
"""
import argparse
import atexit
import json
import lzma
import re
import shutil
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def load_script(path, name):
    """A bench script as a module (bench/gemm/sweep.py and bench/attention/sweep.py share a
    file name, so each is loaded by path)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gemm_sweep = load_script(os.path.join(ROOT, "bench", "gemm", "sweep.py"), "gemm_sweep")
all_schedules = load_script(os.path.join(ROOT, "bench", "gemm", "all_schedules.py"), "all_schedules")
attention_sweep = load_script(os.path.join(ROOT, "bench", "attention", "sweep.py"), "attention_sweep")
make_variants = os.path.join(ROOT, "test", "variants", "make_variants.py")

# bench/variants/prepare.sh: the assets compiled at their default sizes.
SCHEDULES_DIR = os.path.join(ROOT, "assets", "schedules")
VARIANT_ASSETS = {
    "gemm": ("gemm", None, {"M": 8192, "N": 8192, "K": 8192}),
    "gemm_128x128": ("gemm_128x128", None, {"M": 8192, "N": 8192, "K": 8192}),
    "attn_d128": ("attention_fwd_d128", None, {"B": 4, "H": 16, "S": 8192}),
    "attn_d128_cp_dot1_s3": ("attention_fwd_d128", "attention_cp_dot1_s3.json", {"B": 4, "H": 16, "S": 8192}),
    "attn_d128_causal_cp_dot1_s3": ("attention_fwd_d128_causal", "attention_cp_dot1_s3.json",
                                    {"B": 4, "H": 16, "S": 8192}),
    "attn_d64": ("attention_fwd_d64", None, {"B": 4, "H": 32, "S": 8192}),
}
_variants = None
# Everything this run writes under the temporary directory (the generated IR files, the
# variants' folder), removed when it exits.
_temporaries = []


def _remove_temporaries():
    for path in _temporaries:
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.exists(path):
            os.remove(path)


atexit.register(_remove_temporaries)


def generated_variants():
    """name -> entry of test/variants/make_variants.py's full set (IR written once)."""
    global _variants
    if _variants is None:
        out = os.path.join(tempfile.gettempdir(), f"stagecraft-calibrate-variants-{os.getpid()}")
        _temporaries.append(out)
        subprocess.run([sys.executable, make_variants, out, "--set", "all"], check=True,
                       capture_output=True)
        _variants = {}
        for e in json.load(open(os.path.join(out, "variants.json"))):
            e["file"] = os.path.join(out, e["file"])
            if e.get("schedule"):
                e["schedule"] = os.path.join(out, e["schedule"])
            _variants[e["name"]] = e
    return _variants
# STAGECRAFT_TIMELINE: another build of the tool (a fit can run while the tree rebuilds).
TOOL = os.environ.get("STAGECRAFT_TIMELINE") or os.path.join(ROOT, "build", "bin", "stagecraft-timeline")
OPT = os.path.join(os.path.dirname(TOOL), "stagecraft-opt")
# Results of a compiler the model no longer describes: reported apart, never part of the bar
# or the fit. The 2026-11-21 runs measured the two generators (GEMM, attention) that the unified
# lowering replaced in commit cbcb7bb (2026-11-22); they place waits and issue loads
# differently (docs/timeline.md, "Calibration"). The first H200 attention run is older still:
# that lowering spilled and serialized its wgmma (its README).
SUPERSEDED = {
    "app-drag-h100-2026-11-21": "previous lowering (before cbcb7bb)",
    "attention-h100-2026-11-21": "previous lowering (before cbcb7bb)",
    "attention-h200-2026-11-21-run2": "previous lowering (before cbcb7bb)",
    "attention-h200-2026-11-21-run3": "previous lowering (before cbcb7bb)",
    "gemm-all-schedules-h100-2026-11-21": "previous lowering (before cbcb7bb)",
    "gemm-sweep-h100-2026-11-21": "previous lowering (before cbcb7bb)",
    "gemm-sweep-h200-2026-11-21": "previous lowering (before cbcb7bb)",
    "gemm-sweep2-h100-2026-11-21": "previous lowering (before cbcb7bb)",
    "attention-first-h200-2026-11-21": "a lowering that spilled (its README)",
    "cluster-h100-2026-11-25-release-cluster": "a lowering whose remote arrivals were "
                                               ".release.cluster (its README)",
}
# Folders of the runner's own fixture checks: no schedule of an asset.
NOT_SCHEDULES = {"runner-h100-2026-11-21"}
# A/B runs whose "before" (or "after") kernels are the compiler's PTX edited by hand and
# assembled again: not what any compiler emits, so not a calibration set (their READMEs give
# the figures).
HAND_EDITED_AB = {"short-attention-division-h100-2026-11-27", "tensormap-prefetch-h100-2026-11-27",
                  "wait-hoist-h100-2026-11-27", "wait-hoist-store-h100-2026-11-27",
                  "l2-hints-h100-2026-11-28"}
H200_HBM = 4.8e12

# bench/perf/prepare.sh and bench/fp8/prepare.sh: bundle name -> (asset, schedule file).
# GEMM families are compiled at several sizes ("<asset>-<size>"); the sizes come from the
# run's own "problem" record.
PERF_GEMMS = ["gemm", "persistent_gemm", "persistent_gemm_grouped", "persistent_gemm_pingpong",
              "persistent_gemm_pingpong_64x256"]
FP8_SCHEDULES_DIR = os.path.join(ROOT, "bench", "fp8", "schedules")
NAMED_BUNDLES = {
    "attn_d128": ("attention_fwd_d128", None),
    "attn_d128_cp_dot1_s3": ("attention_fwd_d128", "attention_cp_dot1_s3.json"),
    "attn_d128_causal_cp_dot1_s3": ("attention_fwd_d128_causal", "attention_cp_dot1_s3.json"),
    "attn_d64": ("attention_fwd_d64", None),
    "attn_d64_causal": ("attention_fwd_d64_causal", None),
    "persistent_attn_d128": ("persistent_attention_fwd_d128", None),
    "attn_d128_staggered": ("attention_fwd_d128", "consumers_staggered.json"),
    "attn_d128_cp_dot1_s3_staggered": ("attention_fwd_d128", "attention_cp_dot1_s3_staggered.json"),
    "attn_d128_causal_cp_dot1_s3_staggered": ("attention_fwd_d128_causal",
                                              "attention_cp_dot1_s3_staggered.json"),
    "attn_d64_staggered": ("attention_fwd_d64", "consumers_staggered.json"),
    "persistent_attn_d128_staggered": ("persistent_attention_fwd_d128", "consumers_staggered.json"),
    "persistent_gemm_pingpong_as_cooperative-8192": ("persistent_gemm_pingpong",
                                                     "consumers_cooperative.json"),
    "attn_d64_192rows": ("attention_fwd_d64_192rows", None),
    "attn_d64_192rows_ahead2": ("attention_fwd_d64_192rows", "attention_loads_ahead2.json"),
    "attn_d64_causal_192rows": ("attention_fwd_d64_causal_192rows", None),
    "attn_d64_causal_192rows_ahead2": ("attention_fwd_d64_causal_192rows", "attention_loads_ahead2.json"),
    "attn_d128_176keys_cp_near": ("attention_fwd_d128_176keys", "attention_cp_dot1_s3_near.json"),
    "attn_d128_causal_176keys_cp_near": ("attention_fwd_d128_causal_176keys", "attention_cp_dot1_s3_near.json"),
    "fp8_gemm": ("fp8_gemm", None),
    "fp8_gemm_partial": ("fp8_gemm", None),
    "fp8_gemm_e5m2b": ("fp8_gemm_e5m2b", None),
    "mxfp8_gemm": ("mxfp8_gemm", None),
    "mxfp8_gemm_partial": ("mxfp8_gemm", None),
    "bf16_gemm": ("gemm", None),
}
for _f in sorted(os.listdir(FP8_SCHEDULES_DIR)) if os.path.isdir(FP8_SCHEDULES_DIR) else []:
    if _f.endswith(".json"):
        NAMED_BUNDLES[_f[:-len(".json")]] = ("fp8_gemm", os.path.join(FP8_SCHEDULES_DIR, _f))
_generated_ir = {}


# bench/timeline/epilogue-cost/div-prepare.sh: NAME-SUFFIX, "old" compiled by the lowering
# before div.full (superseded), "new" by the one after. NAME: (IR file, schedule file or None).
DIV_PREPARE = {
    "attn_d128": ("assets/attention_fwd_d128.mlir", None),
    "attn_d128_cp1": ("assets/attention_fwd_d128.mlir", "attention_cp_dot1_s3.json"),
    "attn_d64": ("assets/attention_fwd_d64.mlir", None),
    "attn_d64_cp1": ("assets/attention_fwd_d64.mlir", "attention_cp_dot1_s3.json"),
    "pattn_d128": ("assets/persistent_attention_fwd_d128.mlir", None),
    "swiglu_partial": ("bench/unseen/swiglu_dual_gemm.mlir", None),
    "swiglu_4096": ("bench/unseen/swiglu_dual_gemm.mlir", None),
    "gemm": ("assets/gemm.mlir", None),
}
BEFORE_DIV_FULL_BUNDLE = "compiled before div.full (div-prepare.sh SUFFIX=old)"


def asset_ir(asset):
    """The IR file of an asset; fp8_gemm_e5m2b is generated as bench/fp8/prepare.sh does."""
    if asset == "fp8_gemm_e5m2b":
        if asset not in _generated_ir:
            text = open(os.path.join(ROOT, "assets", "fp8_gemm.mlir")).read()
            text = text.replace("256x128xf8E4M3FN", "256x128xf8E5M2").replace("@fp8_gemm(", "@fp8_gemm_e5m2b(")
            path = os.path.join(tempfile.gettempdir(), f"stagecraft-calibrate-{os.getpid()}-fp8_gemm_e5m2b.mlir")
            with open(path, "w") as f:
                f.write(text)
            _temporaries.append(path)
            _generated_ir[asset] = path
        return _generated_ir[asset]
    return os.path.join(ROOT, "assets", asset + ".mlir")


def tile_ordered_ir(asset, order):
    """The asset's IR in another tile order (stagecraft-opt -tile-set-tile-order), as
    stagecraft-compile --tile-order makes it."""
    key = (asset, order)
    if key not in _generated_ir:
        kind, _, group = order.partition(":")
        option = f"order={kind}" + (f" group={group}" if group else "")
        path = os.path.join(tempfile.gettempdir(),
                            f"stagecraft-calibrate-{os.getpid()}-{asset}-{order.replace(':', '')}.mlir")
        subprocess.run([OPT, os.path.join(ROOT, "assets", asset + ".mlir"),
                        f"-tile-set-tile-order={option}", "-o", path], check=True)
        _temporaries.append(path)
        _generated_ir[key] = path
    return _generated_ir[key]


def placed_ir(asset, perm, order):
    """The asset with its program id permuted, in a tile order, as bench/timeline/cta-placement/
    prepare.sh compiles it (permuted-ir.sh)."""
    key = ("placed", asset, perm, order)
    if key not in _generated_ir:
        path = os.path.join(tempfile.gettempdir(),
                            f"stagecraft-calibrate-{os.getpid()}-{asset}-{perm}-{order.replace(':', '')}.mlir")
        subprocess.run([os.path.join(ROOT, "bench", "timeline", "cta-placement", "permuted-ir.sh"),
                        asset, perm, order, path], check=True, env=dict(os.environ, STAGECRAFT_OPT=OPT))
        _temporaries.append(path)
        _generated_ir[key] = path
    return _generated_ir[key]


def rastered_ir(asset, raster):
    """A GEMM asset in another raster, as bench/timeline/tpc-raster/prepare.sh compiles it."""
    key = ("raster", asset, raster)
    if key not in _generated_ir:
        path = os.path.join(tempfile.gettempdir(), f"stagecraft-calibrate-{os.getpid()}-{asset}-{raster}.mlir")
        subprocess.run([os.path.join(ROOT, "bench", "timeline", "tpc-raster", "raster-ir.sh"), asset, raster, path],
                       check=True)
        _temporaries.append(path)
        _generated_ir[key] = path
    return _generated_ir[key]


def variant_stem(name):
    """A generated variant's kernel: its name without the schedule it was generated with."""
    v = generated_variants()[name]
    schedule = v.get("params", {}).get("schedule")
    return name[: -len(schedule) - 1] if schedule and name.endswith("_" + schedule) else name


def problem_sizes(problem):
    """The sizes of a run's "problem" record (not its kind or tile order)."""
    return {k: v for k, v in (problem or {}).items() if k != "kind" and isinstance(v, int)}


def named_bundle(base, problem):
    """(asset, schedule, sizes) of a bench/perf or bench/fp8 bundle, or None."""
    # The problem's sizes (its tile order, e.g. "grouped:8", is the asset's own: in its IR).
    sizes = problem_sizes(problem)
    entry = NAMED_BUNDLES.get(base)
    stem, _, size = base.rpartition("-")
    gemm_size = size in ("8192", "4096", "8000x8064x4000")
    if entry is None and stem in PERF_GEMMS and gemm_size:
        entry = (stem, None)
    # bench/cluster/prepare.sh: the grouped GEMM, and the cluster GEMM with --cluster C.
    if entry is None and gemm_size and stem == "grouped":
        entry = ("persistent_gemm_grouped", None)
    if entry is None and gemm_size and stem in ("cluster1", "cluster2", "cluster4") and sizes:
        return ("persistent_gemm_cluster", {"format": "stagecraft-schedule", "version": 1,
                                            "kernel": "", "cluster": int(stem[-1]), "ops": []}, sizes)
    if entry is None or not sizes:
        return None
    asset, sched = entry
    if sched and not os.path.isabs(sched):
        sched = os.path.join(SCHEDULES_DIR, sched)
    return asset, (json.load(open(sched)) if sched else None), sizes


def short_cp_bundle(base):
    """(kernel name, IR file) of a bench/timeline/short-cp/prepare.sh bundle
    (s1000-|s8192-<schedule>: the generated 64-key-block variant), or None."""
    m = re.match(r"^s(1000|8192)-(default|cp_dot1_s3|cp_dot0_s2)$", base)
    v = m and generated_variants().get(f"attn_d64_bn64_bm128w2_bf16_bf16_none_{m.group(2)}")
    return ("attn_d64_bn64_bm128w2_bf16_bf16_none", v["file"]) if v else None


def hold_variant_bundle(base):
    """(kernel name, IR file, schedule) of a bench/timeline/wait-hoist/hold-prepare.sh --variants
    bundle (<variant>--default|cp_dot1_s3|cp_dot1_s3_hold), or None."""
    m = re.match(r"^(attn_d64_bn64_bm128w2_bf16_bf16_(?:alibi|causal|softcap|window))--"
                 r"(default|cp_dot1_s3|cp_dot1_s3_hold)$", base)
    if not m:
        return None
    stem, sname = m.groups()
    v = generated_variants().get(f"{stem}_{sname.replace('_hold', '')}")
    sched = (json.load(open(os.path.join(SCHEDULES_DIR, "attention_cp_dot1_s3_hold.json")))
             if sname.endswith("_hold") else None)
    return (stem, v["file"], sched) if v else None


def hold_bundle(base):
    """(kernel name, IR file, schedule) of a bench/timeline/wait-hoist/hold-prepare.sh bundle:
    d64-|d128-<schedule>[-hold] on the attention assets, bn64-<schedule>[-hold] on the
    generated 64-key-block variant (its own IR schedule unless held); or None."""
    m = re.match(r"^(d64|d128|bn64)-(cp_dot1_s3|cp_mul_early|default)(-hold)?$", base)
    if not m:
        return None
    where, sname, hold = m.groups()
    sched = None
    if sname != "default" and (where != "bn64" or hold):
        sched = json.load(open(os.path.join(SCHEDULES_DIR, f"attention_{sname}.json")))
        for op in sched["ops"]:
            if op["name"] == "MMA1" and hold:
                op["wait"] = 1
    if where == "bn64":
        v = generated_variants().get(f"attn_d64_bn64_bm128w2_bf16_bf16_none_{sname}")
        return ("attn_d64_bn64_bm128w2_bf16_bf16_none", v["file"], sched) if v else None
    return (f"attention_fwd_{where}", asset_ir(f"attention_fwd_{where}"), sched)


def ncu_bundle(base):
    """(kernel name, IR file, schedule) of a bench/timeline/ncu/prepare.sh bundle:
    bn64-<schedule>[-hold] (the generated 64-key-block variant under its own IR's schedule, or
    held), bn64-w1-default (its one-consumer form), d64-|d128-<schedule>[-hold] (the attention
    assets); or None. bench/timeline/tree-reduce's "old-" bundles are these (its "new-" ones
    were compiled with a patch that is not on main: left out)."""
    m = re.match(r"^(d64|d128|bn64|bn64-w1)-(default|cp_dot1_s3|cp_dot0_s2)(-hold)?$", base)
    if not m:
        return None
    where, sname, hold = m.groups()
    if hold and sname != "cp_dot1_s3":
        return None
    held = json.load(open(os.path.join(SCHEDULES_DIR, "attention_cp_dot1_s3_hold.json"))) if hold else None
    if where.startswith("bn64"):
        rows = "bm64w1" if where == "bn64-w1" else "bm128w2"
        v = generated_variants().get(f"attn_d64_bn64_{rows}_bf16_bf16_none_{sname}")
        return (f"attn_d64_bn64_{rows}_bf16_bf16_none", v["file"], held) if v else None
    sched = held or (json.load(open(os.path.join(SCHEDULES_DIR, f"attention_{sname}.json")))
                     if sname != "default" else None)
    return (f"attention_fwd_{where}", asset_ir(f"attention_fwd_{where}"), sched)


def timeline_config(ta):
    """(IR file, schedule file or None) of a bench/timeline/assets.py configuration, or None."""
    sys.path.insert(0, HERE)
    import assets
    for configs in assets.ALL_SETS.values():
        for asset, name, sched, _ in configs:
            if asset.startswith("variant:") or name != ta.get("schedule"):
                continue  # generated variants: read by their bundle name (generated_variants)
            ir, stem = assets.source_of(asset)
            if stem == ta.get("asset"):
                return ir, sched
    return None


def size_label(sizes):
    order = "MNKBHS"
    keys = sorted(sizes, key=lambda k: (order.index(k) if k in order else len(order), k))
    return "x".join(f"{k}{sizes[k]}" for k in keys)


def gemm_variant_schedule(kernel, variant):
    if variant == "unpipelined":
        return gemm_sweep.schedule(kernel, 0, 0, False)
    kind, ahead, wait = variant.split("-")
    return gemm_sweep.schedule(kernel, int(ahead[len("ahead"):]), int(wait[len("wait"):]), kind == "ws")


def single_order_schedule(name):
    """The schedule of a bench/timeline/single-order bundle ("ws-a2-w0", "single-a2-w1",
    "single-a2-w0-loadsfirst": the loads ordered before the MMA in the iteration), or None."""
    m = re.fullmatch(r"(ws|single)-a(\d)-w(\d)(-loadsfirst)?", name)
    if not m:
        return None
    sched = gemm_sweep.schedule("gemm", int(m.group(2)), int(m.group(3)), m.group(1) == "ws")
    if m.group(4):
        for op in sched["ops"]:
            op["order"] = {"loadA": 0, "loadB": 1}.get(op["name"], 2)
    return sched


def device_of(row):
    name = (row.get("device") or {}).get("name", "")
    return "H200" if "H200" in name else "H100" if "H100" in name else name


# Attention kernels measured before the consumer loop's steady state (commit b0fe973,
# 2026-11-23): their computation-pipelined schedules issued wgmma under branches, which ptxas
# serialized (C7515), and their rescale waited for every group; the kernels of the same
# schedules are 4-12% faster since (bench/results/steady-state-h100-2026-11-23). GEMM main
# loops measured unchanged, so those runs stay current. The folders measured after it:
AFTER_STEADY_STATE = {"steady-state-h100-2026-11-23", "bars-h100-2026-11-23-steady",
                      "unseen-h100-2026-11-23-steady", "attention-sweep-h100-2026-11-23-steady",
                      "mve-h100-2026-11-23"}
BEFORE_STEADY_STATE = "attention before the steady-state loop (b0fe973): ptxas serialized its pipelined wgmma"
# The ping-pong GEMMs before the producer's loop-invariant coordinates: the tile decode ran in
# every K step, and the kernels ran 10% slower (bench/results/loop-invariant-coords-h100-2026-11-25,
# an A/B in one call; the other persistent kernels measured the same before and after).
AFTER_LOOP_INVARIANT_COORDS = {"loop-invariant-coords-h100-2026-11-25"}
BEFORE_LOOP_INVARIANT_COORDS = "ping-pong GEMM before the loop-invariant load coordinates (10% slower)"
# The dual GEMM of bench/unseen before f32 division became div.full (2026-11-27): its SiLU's
# IEEE divisions ran one after another, 1.8x slower at 1000x1048x528 and 3% at 4096^3
# (bench/results/epilogue-cost-h100-2026-11-27, an A/B in one call; attention, which divides
# once per CTA, measured within its noise).
BEFORE_DIV_FULL = "dual GEMM before div.full (its epilogue's IEEE divisions: 1.8x slower at partial tiles)"
# Attention divides its output by the row sums once per CTA: 32 or 64 IEEE divisions a thread
# before div.full, about 2 us a CTA (d128). Measured since on the same bundles with the
# division edited back (bench/results/short-attention-division-h100-2026-11-27): 2-3 key blocks
# (S 200, 300) 17-21% slower, S = 1000 7-9% slower; at S = 8192 within the noise (+0.2% and
# +1.3%, epilogue-cost-h100-2026-11-27). So the short launches measured before it are of
# another compiler; the long ones (the cost under the noise's 3.1% from about 4096 keys) stay.
BEFORE_DIV_FULL_ATTENTION = ("attention at fewer than 4096 keys before div.full (its output's IEEE "
                             "divisions: 7-21% slower there)")
DIV_FULL_SHORT_KEYS = 4096


def is_attention(asset):
    return "attn" in asset or "attention" in asset


def superseded_why(folder, asset, sizes=None):
    """Why a run is not of the compiler the model describes, or None."""
    if folder in SUPERSEDED:
        return SUPERSEDED[folder]
    date = folder.split("-h100-")[-1][:10] if "-h100-" in folder else ""
    if is_attention(asset) and folder not in AFTER_STEADY_STATE and date and date <= "2026-11-23":
        return BEFORE_STEADY_STATE
    if (asset.startswith("persistent_gemm_pingpong") and folder not in AFTER_LOOP_INVARIANT_COORDS
            and date and date <= "2026-11-25"):
        return BEFORE_LOOP_INVARIANT_COORDS
    if asset.startswith("swiglu_dual_gemm") and date and date <= "2026-11-26":
        return BEFORE_DIV_FULL
    if (is_attention(asset) and date and date <= "2026-11-26" and sizes
            and sizes.get("S", DIV_FULL_SHORT_KEYS) < DIV_FULL_SHORT_KEYS):
        return BEFORE_DIV_FULL_ATTENTION
    return None


# The overlapped FP8 promotion (bench/fp8/promotion/schedule-overlap.json) before the lowering
# tied its adds through the iteration's wait: the NVPTX backend had sunk them past it.
SUNK_PROMOTION = {"fp8-promotion-h100-2026-11-28", "fp8-promotion-split-h100-2026-11-28"}
SUNK_PROMOTION_WHY = ("the promotion's adds sunk past the iteration's wait by the NVPTX backend "
                      "(before the lowering tied them through it, 2026-11-28)")


# The descriptors' L2 promotion: 256B until 2026-11-28, since then 128B for a tensor whose rows
# are not a multiple of 128 bytes apart (passes/Driver/Manifest.cpp; with 8000-byte rows 256B
# cost the GEMMs 9-25%, bench/results/ncu-promotion-h100-2026-11-28). A run whose loads had
# another promotion than the compiler writes now measured another kernel. The folders run
# after the change, and the two A/B folders whose bundles name their promotion ("--l2-P"):
PROMOTION_RULE_FROM = "2026-11-28"
PROMOTION_BEFORE_RULE = {"ncu-sizes-h100-2026-11-28"}
PROMOTION_ALL_128B = {"promotion-128b-h100-2026-11-28"}  # compiled with 128B for every tensor
BEFORE_PROMOTION_RULE = ("L2 promotion 256B on rows not a multiple of 128 bytes apart "
                         "(before 2026-11-28: 9-25% slower there)")
NOT_THE_COMPILERS_PROMOTION = "an L2 promotion set by hand that the compiler does not write"
L2_BYTES = 50e6  # the H100's L2
ELEMENT_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f8E4M3FN": 1, "f8E5M2": 1, "f8E8M0FNU": 1,
                 "i8": 1, "i32": 4}


class _Index(int):
    """An affine expression's value: `a @ b` stands for `a ceildiv b`."""
    def __matmul__(self, other):
        return _Index(-(-int(self) // int(other)))

    def __floordiv__(self, other):
        return _Index(int(self) // int(other))


def python_index_expr(expr):
    """An affine map result (`K ceildiv 32`, `B * H`) as Python over _Index values."""
    for word, op in (("ceildiv", "@"), ("floordiv", "//"), ("mod", "%")):
        expr = re.sub(r"\b" + word + r"\b", op, expr)
    return re.sub(r"\b(\d+)\b", r"_Index(\1)", expr)


_loaded_rows_cache = {}


def loaded_row_pitches(ir_path, sizes):
    """(row pitch, bytes) of every tensor the kernel loads by TMA with two or more
    dimensions, at `sizes` over the IR's defaults; None when the IR cannot be read so."""
    key = (ir_path, json.dumps(sizes or {}, sort_keys=True))
    if key in _loaded_rows_cache:
        return _loaded_rows_cache[key]
    try:
        text = open(ir_path).read()
    except OSError:
        return None
    values = {k: int(v) for k, v in re.findall(r"(\w+) = (\d+) : i64", text.split("tile.defaults", 1)[-1].split("}", 1)[0])}
    values.update(sizes or {})
    pitches = []
    for name, desc, expr in re.findall(
            r"%(\w+): !tile\.desc<([^>]*)>\s*\{tile\.shape = affine_map<\(\)\[[^\]]*\] -> \((.*?)\)>", text):
        if not re.search(r"tile\.load %" + name + r"\b", text):
            continue
        dims = [d.strip() for d in expr.split(",")]
        elem = desc.split("x")[-1]
        if len(dims) < 2 or elem not in ELEMENT_BYTES:
            continue
        try:
            extents = [int(eval(python_index_expr(d), {"__builtins__": {}, "_Index": _Index},
                                {k: _Index(v) for k, v in values.items()})) for d in dims]
        except Exception:
            return None
        pitches.append((extents[-1] * ELEMENT_BYTES[elem], math.prod(extents) * ELEMENT_BYTES[elem]))
    _loaded_rows_cache[key] = pitches
    return pitches


def promotion_superseded(folder, base, ir_path, sizes):
    """Why a run's loads had another L2 promotion than the compiler writes now, or None. The
    runs before the change count as the compiler's where the tensors whose promotion changed
    fit the L2 together: there the two promotions measured within 1.6%, 128B never slower
    (bench/results/promotion-small-h100-2026-11-28: 2 MB of operands), where with 64 MB
    they were 9-32% apart (ncu-promotion-h100-2026-11-28)."""
    pitches = loaded_row_pitches(ir_path, sizes)
    if not pitches:
        return None
    now = ["256B" if p % 128 == 0 else "128B" for p, _ in pitches]
    m = re.search(r"--l2-(none|64B|128B|256B)$", base)
    if m:
        run = [m.group(1)] * len(pitches)
        why = NOT_THE_COMPILERS_PROMOTION
    elif folder in PROMOTION_ALL_128B:
        run, why = ["128B"] * len(pitches), NOT_THE_COMPILERS_PROMOTION
    else:
        date = folder.split("-h100-")[-1][:10] if "-h100-" in folder else ""
        if not (folder in PROMOTION_BEFORE_RULE or (date and date < PROMOTION_RULE_FROM)
                or "-h200-" in folder):
            return None
        changed = sum(b for (p, b), n in zip(pitches, now) if n != "256B")
        if changed <= L2_BYTES:
            return None
        run, why = ["256B"] * len(pitches), BEFORE_PROMOTION_RULE
    return why if run != now else None


def lowering_of(folder, asset="", sizes=None):
    return "superseded" if superseded_why(folder, asset, sizes) else "current"


def result_lines(path):
    """The runs of a results folder: its results*.jsonl and those of its subfolders (one
    call's parts), the app's serve.jsonl; not the peers' (cuDNN, Triton: no schedule)."""
    files = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if d != "peers")
        for f in sorted(filenames):
            if (f.startswith("results") and (f.endswith(".jsonl") or f.endswith(".jsonl.xz"))) \
                    or f == "serve.jsonl":
                files.append(os.path.join(dirpath, f))
    # Large result files are committed xz-compressed (the tree that travels to the GPU host is
    # limited): read alike.
    def lines(f):
        return lzma.open(f, "rt") if f.endswith(".xz") else open(f)
    return [json.loads(l) for f in files for l in lines(f) if l.strip()]


def collect():
    """Every verified run of a kernel some bench script here rebuilds, with its schedule and
    sizes: (rows merged over repeated runs in one folder, the runs one by one, and the verified
    runs left out, by bundle name)."""
    att = {"PROBLEMS": attention_sweep.PROBLEMS, "SCHEDULES": attention_sweep.SCHEDULES}
    all_sched = dict(all_schedules.schedules())
    rows, left_out = [], {}
    for folder in sorted(os.listdir(os.path.join(ROOT, "bench", "results"))):
        path = os.path.join(ROOT, "bench", "results", folder)
        if folder in NOT_SCHEDULES or folder in HAND_EDITED_AB or not os.path.isdir(path):
            continue
        for r in result_lines(path):
            if r.get("status") != "ok" or not r.get("verified") or not r.get("tflops"):
                continue
            bundle_name = os.path.basename((r.get("bundle") or "").rstrip("/"))
            # A bundle whose descriptors' L2 promotion was set by hand ends in "--l2-P" (bench/
            # timeline/ncu/promotion-prepare.sh): otherwise the bundle it was copied from.
            base = re.sub(r"--l2-(none|64B|128B|256B|now)$", "", bundle_name)
            entry = {"folder": folder, "lowering": lowering_of(folder), "device": device_of(r),
                     "measured_us": r["median_us"], "measured_tflops": r["tflops"], "flops": r["flops"],
                     "registers": r.get("registers_per_thread"),
                     "dynamic_smem_bytes": r.get("dynamic_smem_bytes")}
            if folder.startswith("app-drag"):
                # The attention example before/after the loadK drag.
                stages = {"MMA0": 1, "Softmax": 1, "MUL": 1, "MMA1": 1, "loadK": 0, "loadV": 0}
                if base == "after":
                    stages = {"MMA0": 2, "Softmax": 2, "MUL": 2, "MMA1": 2, "loadK": 0, "loadV": 1}
                order = ["MMA0", "Softmax", "MUL", "MMA1", "loadK", "loadV"]
                sched = {"format": "stagecraft-schedule", "version": 1, "kernel": "", "ops": [
                    {"name": n, "stage": stages[n], "order": i, "group": 0 if n.startswith("load") else 1}
                    for i, n in enumerate(order)]}
                entry.update(asset="attention_fwd_d128", variant="drag-" + base, size="B4xH16xS8192",
                             schedule=sched, sizes={"B": 4, "H": 16, "S": 8192})
            elif "variant" in r and folder.startswith("gemm-all"):
                name = r["variant"]
                entry.update(asset="gemm", variant=name, size=r["size"], schedule=all_sched[name],
                             sizes={"M": 2000, "N": 2304, "K": 1000})
            elif "variant" in r:  # bench/gemm/sweep.py
                asset, _, v = r["variant"].rpartition("/")
                asset = asset or "gemm"
                entry.update(asset=asset, variant=v, size=r["size"],
                             schedule=gemm_variant_schedule(asset, v), sizes=gemm_sweep.SIZES[r["size"]])
            elif base.startswith("place-") and base.count("--") == 2 and r.get("problem"):
                # bench/timeline/cta-placement/prepare.sh: a persistent asset with its program
                # id permuted (which CTAs share a panel), in a tile order.
                asset, order, perm = base[len("place-"):].split("--")
                order = re.sub(r"^grouped(\d+)$", r"grouped:\1", order)
                sizes = problem_sizes(r["problem"])
                entry.update(asset=asset, ir=placed_ir(asset, perm, order), variant=f"{order}--{perm}",
                             size=size_label(sizes), schedule=None, sizes=sizes)
            elif base.startswith("raster-") and base.count("--") == 1 and r.get("problem"):
                # bench/timeline/tpc-raster/prepare.sh: a GEMM asset in another raster.
                asset, raster = base[len("raster-"):].split("--")
                sizes = problem_sizes(r["problem"])
                entry.update(asset=asset, ir=rastered_ir(asset, raster), variant=raster,
                             size=size_label(sizes), schedule=None, sizes=sizes)
            elif (base.startswith("sweep-") and base.count("--") in (1, 2) and r.get("problem")
                  and re.fullmatch(r"(ws|single)-ahead\d-wait\d", base.split("--")[1])):
                # bench/timeline/ncu/dram-prepare.sh: a GEMM asset under bench/gemm/sweep.py's
                # schedule, at its default size or the one the name ends in.
                asset, name = base[len("sweep-"):].split("--")[:2]
                sizes = problem_sizes(r["problem"])
                entry.update(asset=asset, variant=name, size=size_label(sizes), sizes=sizes,
                             schedule=gemm_variant_schedule(asset, name))
            elif base.count("--") == 2:  # bench/attention/sweep.py
                asset, sname, size = base.split("--")
                sizes = None
                for a, s in att["PROBLEMS"]:
                    if a == asset and "x".join(f"{k}{v}" for k, v in s.items()) == size:
                        sizes = s
                entry.update(asset=asset, variant=sname, size=size, schedule=att["SCHEDULES"][sname],
                             sizes=sizes)
            elif base.startswith("asset-") and base[len("asset-"):] in VARIANT_ASSETS:
                # bench/variants/prepare.sh: the assets at their default sizes.
                asset, sched_file, sizes = VARIANT_ASSETS[base[len("asset-"):]]
                sched = json.load(open(os.path.join(SCHEDULES_DIR, sched_file))) if sched_file else None
                entry.update(asset=asset, variant=base, size="x".join(f"{k}{v}" for k, v in sizes.items()),
                             schedule=sched, sizes=sizes)
            elif (base.startswith(("tileorder-", "order-")) and "--" in base
                  and (r.get("problem") or {}).get("tile_order")):
                # bench/timeline/tile-order/prepare.sh (and ncu/clocks-prepare.sh's "order-"): a
                # persistent asset in another tile order.
                asset = base.split("-", 1)[1].split("--")[0]
                sizes = problem_sizes(r["problem"])
                order = r["problem"]["tile_order"]
                entry.update(asset=asset, ir=tile_ordered_ir(asset, order), variant=order,
                             size=size_label(sizes), schedule=None, sizes=sizes)
            elif (base.startswith("sched-") and base.count("--") == 1 and r.get("problem")
                  and os.path.exists(os.path.join(HERE, "schedules", base[len("sched-"):] + ".json"))):
                # bench/timeline/ncu/clocks-prepare.sh: an asset under a schedule of
                # bench/timeline/schedules (ASSET--NAME.json).
                asset, name = base[len("sched-"):].split("--")
                sizes = problem_sizes(r["problem"])
                entry.update(asset=asset, variant=name, size=size_label(sizes), sizes=sizes,
                             schedule=json.load(open(os.path.join(HERE, "schedules", base[len("sched-"):] + ".json"))))
            elif base.startswith("bgemm-") and r.get("problem"):
                # bench/timeline/unseen-dram/prepare.sh: a batched GEMM no asset contains.
                sizes = problem_sizes(r["problem"])
                entry.update(asset="bgemm", ir=os.path.join(ROOT, "bench", "timeline", "unseen-dram", "bgemm.mlir"),
                             variant=base, size=size_label(sizes), schedule=None, sizes=sizes)
            elif base.count("--") == 1 and base.split("--")[0] in generated_variants() and r.get("problem"):
                # bench/timeline/launch-cost/prepare.sh and assets.py --set unseen: a generated
                # variant at other sizes; its kernel is the name without the schedule, so that
                # the schedules of one kernel and size form a ranked group.
                name = base.split("--")[0]
                sizes = problem_sizes(r["problem"])
                entry.update(asset=variant_stem(name), ir=generated_variants()[name]["file"], variant=base,
                             size=size_label(sizes), schedule=None, sizes=sizes)
            elif base in generated_variants():
                v = generated_variants()[base]
                sched = json.load(open(v["schedule"])) if v.get("schedule") else None
                # The sizes it ran at when the run says (a bundle compiled at other sizes,
                # bench/timeline/ncu/heldout-prepare.sh), else the variant's own.
                sizes = problem_sizes(r.get("problem")) or v["sizes"]
                if sizes == v["sizes"]:
                    sizes = v["sizes"]
                entry.update(asset=variant_stem(base), ir=v["file"], variant=base,
                             size=("x".join(f"{k}{x}" for k, x in sizes.items()) if sizes is v["sizes"]
                                   else size_label(sizes)),
                             schedule=sched, sizes=sizes)
            elif r.get("timeline_asset") and r.get("problem") and timeline_config(r["timeline_asset"]):
                # bench/timeline/assets.py run: an (asset, schedule) of its sets, traced.
                ir, sched = timeline_config(r["timeline_asset"])
                sizes = problem_sizes(r["problem"])
                entry.update(asset=r["timeline_asset"]["asset"], ir=ir, variant=r["timeline_asset"]["schedule"],
                             size=size_label(sizes), schedule=json.load(open(sched)) if sched else None,
                             sizes=sizes)
            elif (folder.startswith("epilogue-cost-") and base.rpartition("-")[0] in DIV_PREPARE
                  and base.rpartition("-")[2] in ("old", "new") and r.get("problem")):
                name, _, suffix = base.rpartition("-")
                ir, sched = DIV_PREPARE[name]
                sizes = problem_sizes(r["problem"])
                entry.update(asset=os.path.splitext(os.path.basename(ir))[0], ir=os.path.join(ROOT, ir),
                             variant=base, size=size_label(sizes),
                             schedule=json.load(open(os.path.join(SCHEDULES_DIR, sched))) if sched else None,
                             sizes=sizes)
                if suffix == "old":
                    entry["superseded"] = BEFORE_DIV_FULL_BUNDLE
            elif (folder.startswith(("single-order-", "ncu-gemm-single-order-"))
                  and single_order_schedule(base) and r.get("problem")):
                # bench/timeline/single-order/prepare.sh: the GEMM asset under its schedules
                # (that folder's first call, a PTX edit among them, is kept under another name).
                sizes = problem_sizes(r["problem"])
                entry.update(asset="gemm", variant=base, size=size_label(sizes),
                             schedule=single_order_schedule(base), sizes=sizes)
            elif folder.startswith("short-cp-") and short_cp_bundle(base) and r.get("problem"):
                # bench/timeline/short-cp/prepare.sh: the 64-key-block variant under three
                # schedules (its IR's), at 1000 and 8192 keys.
                name, ir = short_cp_bundle(base)
                sizes = problem_sizes(r["problem"])
                entry.update(asset=name, ir=ir, variant=base, size=size_label(sizes), schedule=None,
                             sizes=sizes)
            elif folder.startswith("register-a-hold-variants-") and hold_variant_bundle(base) and r.get("problem"):
                # bench/timeline/wait-hoist/hold-prepare.sh --variants: generated variants with
                # MMA1 held or not.
                name, ir, sched = hold_variant_bundle(base)
                sizes = problem_sizes(r["problem"])
                entry.update(asset=name, ir=ir, variant=base, size=size_label(sizes),
                             schedule=sched, sizes=sizes)
            elif folder.startswith("register-a-hold-") and hold_bundle(base) and r.get("problem"):
                # bench/timeline/wait-hoist/hold-prepare.sh: cp-dot1-s3 and cp-mul-early as they
                # are and with MMA1 held (its wait 1), on the assets and a generated variant.
                name, ir, sched = hold_bundle(base)
                sizes = problem_sizes(r["problem"])
                entry.update(asset=name, ir=ir, variant=base, size=size_label(sizes),
                             schedule=sched, sizes=sizes)
            elif (folder.startswith(("ncu-attention-", "tree-reduce-"))
                  and ncu_bundle(base[len("old-"):] if folder.startswith("tree-reduce-") else base)
                  and (folder.startswith("ncu-") or base.startswith("old-")) and r.get("problem")):
                # bench/timeline/ncu/prepare.sh: the attention consumers Nsight Compute counted
                # (timed and verified by the runner first); tree-reduce's "old-" copies of them.
                name, ir, sched = ncu_bundle(base[len("old-"):] if folder.startswith("tree-reduce-") else base)
                sizes = problem_sizes(r["problem"])
                entry.update(asset=name, ir=ir, variant=base, size=size_label(sizes),
                             schedule=sched, sizes=sizes)
            elif folder.startswith("fp8-promotion-") and "--overlap-" in base and r.get("problem"):
                # bench/fp8/promotion/prepare.sh: the promoted FP8 asset under schedule-overlap.json.
                stem = base.split("--")[0]
                sizes = problem_sizes(r["problem"])
                sched = json.load(open(os.path.join(ROOT, "bench", "fp8", "promotion", "schedule-overlap.json")))
                entry.update(asset=stem, ir=own_schedule_ir(stem), variant=base, size=size_label(sizes),
                             schedule=sched, sizes=sizes)
                if folder in SUNK_PROMOTION:
                    entry["superseded"] = SUNK_PROMOTION_WHY
            elif (folder.startswith(("ncu-persistent-", "ncu-heldout-", "ncu-sizes-", "ncu-promotion-",
                                     "promotion-", "heldout-sizes-", "fp8-promotion-"))
                  and base.count("--") <= 1 and r.get("problem")
                  and own_schedule_ir(base.split("--")[0])):
                # bench/timeline/ncu/persistent-prepare.sh, heldout-prepare.sh, sizes-prepare.sh
                # the promotion-*-prepare.sh, heldout-sizes/prepare.sh and bench/fp8/promotion/prepare.sh:
                # assets (and bench/unseen's loops) under their
                # own schedules, named alone or with the size, at the sizes the run says.
                stem = base.split("--")[0]
                sizes = problem_sizes(r["problem"])
                entry.update(asset=stem, ir=own_schedule_ir(stem), variant=stem, size=size_label(sizes),
                             schedule=None, sizes=sizes)
            elif named_bundle(base, r.get("problem")):
                asset, sched, sizes = named_bundle(base, r.get("problem"))
                entry.update(asset=asset, ir=asset_ir(asset), variant=base,
                             size=size_label(sizes), schedule=sched, sizes=sizes)
            else:
                # The previous generators' "baseline-" bundles of the variants run, and anything
                # no script here rebuilds: counted, never predicted.
                left_out.setdefault(folder, []).append(base)
                continue
            if not entry.get("superseded"):
                why = promotion_superseded(folder, bundle_name, entry.get("ir") or asset_ir(entry["asset"]),
                                           entry.get("sizes"))
                if why:
                    entry["superseded"] = why
            entry["lowering"] = ("superseded" if entry.get("superseded")
                                 else lowering_of(folder, entry["asset"], entry.get("sizes")))
            rows.append(entry)
    # Repeated runs of one configuration in one folder (rounds, the app's drag): one row,
    # the median of their times.
    merged = {}
    for e in rows:
        merged.setdefault(config_key(e), []).append(e)
    out = []
    for key, es in merged.items():
        e = dict(es[0])
        e["measured_us"] = statistics.median(x["measured_us"] for x in es)
        e["measured_tflops"] = e["flops"] / e["measured_us"] / 1e6
        e["runs"] = len(es)
        out.append(e)
    return out, rows, left_out


# Where the ncu folders' bundles named after their IR file come from.
UNDER_OWN_SCHEDULE = (os.path.join("assets"), os.path.join("bench", "unseen"))


def own_schedule_ir(name):
    """The IR file of an asset or a bench/unseen loop named `name`, or None."""
    for d in UNDER_OWN_SCHEDULE:
        path = os.path.join(ROOT, d, name + ".mlir")
        if os.path.exists(path):
            return path
    return None


def config_key(e):
    """One configuration in one folder: the same IR, schedule and sizes (bundles of different
    names that compile the same thing, e.g. the GEMM asset in two scripts, are repeated runs)."""
    return (e["folder"], e.get("ir") or asset_ir(e["asset"]), json.dumps(e["schedule"], sort_keys=True),
            json.dumps(e["sizes"], sort_keys=True), e.get("superseded"))


def noise(runs):
    """Run-to-run noise of the measurements themselves, from the results: the same bundle run
    several times in one call (rounds), and in different calls (folders) of the current
    lowering. Relative differences, (max - min) / max."""
    within, between = [], []
    by_folder, by_bundle = {}, {}
    for e in runs:
        if e["lowering"] != "current" or e["device"] != "H100":
            continue
        by_folder.setdefault(config_key(e), []).append(e["measured_tflops"])
    for key, ts in by_folder.items():
        if len(ts) > 1:
            within.append((max(ts) - min(ts)) / max(ts))
        by_bundle.setdefault(key[1:], []).append(statistics.median(ts))
    for ts in by_bundle.values():
        if len(ts) > 1:
            between.append((max(ts) - min(ts)) / max(ts))
    return within, between


def percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def predict(rows, params, estimate_resources):
    """Runs stagecraft-timeline --batch, one process per core; returns the predictions per row."""
    by_device = {}
    for i, r in enumerate(rows):
        by_device.setdefault(r["device"], []).append(i)
    result = [None] * len(rows)
    errors = {}
    jobs = max(1, os.cpu_count() or 1)
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for device, idx in by_device.items():
            p = dict(params)
            if device == "H200":
                p["hbm_bytes_per_second"] = H200_HBM
            pf = os.path.join(tmp, f"params-{device}.json")
            with open(pf, "w") as f:
                json.dump(p, f)
            for part in range(jobs):
                batch = []
                for i in idx[part::jobs]:
                    r = rows[i]
                    b = {"id": i, "ir": r.get("ir") or os.path.join(ROOT, "assets", r["asset"] + ".mlir"),
                         "sizes": r["sizes"]}
                    if r.get("schedule"):
                        b["schedule"] = r["schedule"]
                    if not estimate_resources:
                        if r.get("registers"):
                            b["registers"] = r["registers"]
                        if r.get("dynamic_smem_bytes"):
                            b["dynamic_smem_bytes"] = r["dynamic_smem_bytes"]
                    batch.append(b)
                if not batch:
                    continue
                bf = os.path.join(tmp, f"batch-{device}-{part}.json")
                with open(bf, "w") as f:
                    json.dump(batch, f)
                procs.append(subprocess.Popen([TOOL, "--batch", bf, "--params", pf],
                                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        for proc in procs:
            out, err = proc.communicate()
            failed = {}
            for line in out.splitlines():
                o = json.loads(line)
                if o.get("ok"):
                    result[o["id"]] = o
                else:
                    failed[o.get("id")] = o.get("error")
            errors.update(failed)
            if proc.returncode != 0 and not failed:
                raise SystemExit(err)
    if errors:
        for i, e in errors.items():
            print(f"prediction failed for {rows[i]['asset']} {rows[i]['variant']} {rows[i]['size']}: {e}",
                  file=sys.stderr)
        raise SystemExit("predictions failed")
    return result


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va > 0 and vb > 0 else float("nan")


# Predictions closer than this (relative) claim no order: the model's rounding, not a ranking.
TIE = 0.002


def tied(values, tol=TIE):
    """Each value replaced by the smallest of its cluster (sorted values within `tol`, relative,
    of the cluster's smallest), so that Spearman ranks a cluster as ties."""
    snap, base = {}, None
    for v in sorted(set(values)):
        if base is None or v > base * (1 + tol):
            base = v
        snap[v] = base
    return [snap[v] for v in values]


def met_with_ties(g, tol=TIE):
    """The bar for group `g` with its predictions within `tol` of each other counted as ties."""
    pred = tied([r["pred_tflops"] for r in g["rows"]], tol)
    sp = spearman(pred, [r["measured_tflops"] for r in g["rows"]])
    return g["median_err"] < 0.15 and not math.isnan(sp) and sp >= 0.85


def evaluate(rows, preds, noise_level=0.0):
    groups = {}
    for r, p in zip(rows, preds):
        r["pred_us"] = p["total_us"]
        r["pred_tflops"] = r["flops"] / p["total_us"] / 1e6
        r["bound"] = p["bound"]
        r["pred_dram_tbps"] = p.get("dram_tbps")
        r["pred_clock_ghz"] = p.get("sm_clock_ghz")
        key = (r["lowering"], r["folder"], r["device"], r["asset"], r["size"])
        groups.setdefault(key, []).append(r)
    table = []
    for key, rs in sorted(groups.items()):
        meas = [r["measured_tflops"] for r in rs]
        pred = [r["pred_tflops"] for r in rs]
        errs = [abs(p - m) / m for p, m in zip(pred, meas)]
        spread = (max(meas) - min(meas)) / max(meas)
        sp = spearman(pred, meas)
        g = {"lowering": key[0], "folder": key[1], "device": key[2], "asset": key[3], "size": key[4],
             "n": len(rs), "spearman": sp, "median_err": statistics.median(errs), "spread": spread,
             "rows": rs}
        g["ranked"] = len(rs) > 1
        # Measurements closer together than one configuration's own run-to-run spread:
        # ranking them is ranking noise (reported, never dropped).
        g["within_noise"] = g["ranked"] and spread <= noise_level
        g["met"] = g["median_err"] < 0.15 and (not g["ranked"] or (not math.isnan(sp) and sp >= 0.85))
        table.append(g)
    return table


def bar_groups(table):
    """The groups the bar is about: the current lowering, on an H100."""
    return [g for g in table if g["lowering"] == "current" and g["device"] == "H100"]


def objective(table):
    """Over the bar's groups: the mean of their median errors, plus a quarter of the mean rank
    disagreement (1 - Spearman) of the groups whose measurements are further apart than the
    noise (ranking the others is fitting noise)."""
    gs = bar_groups(table)
    err = statistics.mean(g["median_err"] for g in gs)
    ranked = [g for g in gs if g["ranked"] and not g["within_noise"]]
    rank = statistics.mean((1 - g["spearman"]) if not math.isnan(g["spearman"]) else 1 for g in ranked) \
        if ranked else 0.0
    return err + 0.25 * rank


FIT = {  # name: (low, high)
    "tensor_efficiency": (0.6, 1.0),
    "load_bytes_per_cycle": (15, 120),
    "load_bytes_per_cycle_max": (40, 400),
    "load_latency_cycles": (100, 3000),
    "l2_hit_latency_cycles": (50, 1500),
    "l2_miss_load_bytes_per_cycle": (5, 60),
    "sync_latency_cycles": (2, 1500),
    "math_efficiency": (0.15, 1.0),
    "math_iteration_instructions": (10, 400),  # searched only when the start has it on (not 0)
    "pipe_efficiency": (0.3, 1.0),  # searched only when the start has it on (not 0)
    "cta_overhead_cycles": (200, 20000),
    "tensor_math_interference": (0.01, 3.0),
    "wgmma_latency_cycles": (1, 2000),
    "wgmma_issue_queue": (0.25, 32),
    "dram_efficiency": (0.2, 1.0),
    "smem_bytes_per_cycle": (60, 256),  # searched only when the start has it on (not 0)
    "wgmma_smem_bytes_per_cycle": (30, 256),  # likewise
}


def bar_count(table):
    """'N of M': the bar's ranked groups that meet it (what the fit's objective only tracks)."""
    ranked = [g for g in bar_groups(table) if g["ranked"]]
    return f"{sum(g['met'] for g in ranked)} of {len(ranked)}"


def fit(rows, params, estimate, noise_level, hold=()):
    best = dict(params)
    table = evaluate(rows, predict(rows, best, estimate), noise_level)
    best_obj = objective(table)
    print(f"start: objective {best_obj:.4f}, {bar_count(table)} ranked groups met", file=sys.stderr)
    step = 0.5
    while step > 0.02:
        improved = False
        for name, (lo, hi) in FIT.items():
            if best.get(name, 0) == 0:
                continue  # a mechanism switched off (0) stays off: start from a value to fit it
            if name in hold:
                continue  # a measured value, not searched
            for direction in (1, -1):
                trial = dict(best)
                trial[name] = min(hi, max(lo, best[name] * math.exp(direction * step)))
                if trial[name] == best[name]:
                    continue
                table = evaluate(rows, predict(rows, trial, estimate), noise_level)
                obj = objective(table)
                if obj < best_obj - 1e-5:
                    best, best_obj, improved = trial, obj, True
                    # The count beside the objective: a fit can lower the one and the other.
                    print(f"  {name} = {trial[name]:.4g}: objective {obj:.4f}, "
                          f"{bar_count(table)} ranked groups met", file=sys.stderr)
                    break
        if not improved:
            step /= 2
    return best


def fmt_sp(g):
    return "n/a" if math.isnan(g["spearman"]) else f"{g['spearman']:.2f}"


def markdown(table, noise_level):
    """The tables: the bar's groups with a ranking (the current lowering on an H100), its
    one-schedule groups (error only), the superseded lowerings per group and per results
    folder (listed for the record, not part of the bar)."""
    bar = bar_groups(table)
    ranked = ["| results | kernel | size | schedules | spread | Spearman | median err | bar |",
              "|---|---|---|---|---|---|---|---|"]
    single = ["| results | kernel | size | error | within 15% |", "|---|---|---|---|---|"]
    for g in bar:
        if not g["ranked"]:
            single.append(f"| {g['folder']} | {g['asset']} | {g['size']} | {100 * g['median_err']:.1f}% | "
                          f"{'yes' if g['met'] else 'NO'} |")
            continue
        verdict = "met" if g["met"] else "NOT met"
        if g["within_noise"]:
            verdict += f" (spread within noise, {100 * noise_level:.1f}%)"
        ranked.append(f"| {g['folder']} | {g['asset']} | {g['size']} | {g['n']} | {100 * g['spread']:.1f}% | "
                      f"{fmt_sp(g)} | {100 * g['median_err']:.1f}% | {verdict} |")
    old = ["| results | device | kernel | size | schedules | spread | Spearman | median err | measured with |",
           "|---|---|---|---|---|---|---|---|---|"]
    folders = {}
    for g in table:
        if g in bar:
            continue
        why = (g["rows"][0].get("superseded")
               or superseded_why(g["folder"], g["asset"], g["rows"][0].get("sizes"))
               or "current lowering, " + g["device"])
        folders.setdefault((g["folder"], g["device"], why), []).append(g)
        old.append(f"| {g['folder']} | {g['device']} | {g['asset']} | {g['size']} | {g['n']} | "
                   f"{100 * g['spread']:.1f}% | {fmt_sp(g) if g['ranked'] else '-'} | "
                   f"{100 * g['median_err']:.1f}% | {why} |")
    per_folder = ["| results | device | groups | configurations | median error | Spearman (groups with a ranking) | measured with |",
                  "|---|---|---|---|---|---|---|"]
    for (folder, device, why), gs in sorted(folders.items()):
        rows = [r for g in gs for r in g["rows"]]
        err = statistics.median(abs(r["pred_tflops"] - r["measured_tflops"]) / r["measured_tflops"] for r in rows)
        sps = [g["spearman"] for g in gs if g["ranked"] and not math.isnan(g["spearman"])]
        sp = f"{min(sps):.2f} to {max(sps):.2f}" if sps else "-"
        per_folder.append(f"| {folder} | {device} | {len(gs)} | {len(rows)} | {100 * err:.1f}% | {sp} | {why} |")
    return "\n".join(ranked), "\n".join(single), "\n".join(old), "\n".join(per_folder)


def summary(table, runs, left_out, noise_level, within, between):
    bar = bar_groups(table)
    ranked = [g for g in bar if g["ranked"]]
    single = [g for g in bar if not g["ranked"]]
    quiet = [g for g in ranked if g["within_noise"]]
    bar_runs = [r for g in bar for r in g["rows"]]
    errs = sorted(abs(r["pred_tflops"] - r["measured_tflops"]) / r["measured_tflops"] for r in bar_runs)
    old = [r for g in table if g not in bar for r in g["rows"]]
    olderr = [abs(r["pred_tflops"] - r["measured_tflops"]) / r["measured_tflops"] for r in old]
    out = [f"current lowering, H100: {sum(g['met'] for g in ranked)} of {len(ranked)} groups with a ranking "
           f"meet the bar (Spearman >= 0.85 and median error < 15%); {len(quiet)} of them measure within "
           f"the noise ({sum(g['met'] for g in quiet)} met); {sum(g['met'] for g in single)} of {len(single)} "
           f"one-schedule groups are within 15%",
           f"current lowering, H100, predictions within {100 * TIE:.1f}% of each other counted as ties "
           f"(the model claims no order there): {sum(met_with_ties(g) for g in ranked)} of {len(ranked)} "
           f"groups with a ranking meet the bar",
           f"current lowering, H100: {len(bar_runs)} configurations, median error {100 * statistics.median(errs):.1f}%, "
           f"90th percentile {100 * percentile(errs, 0.9):.1f}%, worst {100 * errs[-1]:.1f}%",
           f"superseded lowerings (not part of the bar): {len(old)} configurations, median error "
           f"{100 * statistics.median(olderr):.1f}%" if olderr else "superseded lowerings: none",
           f"noise: the same bundle in one call (rounds): {len(within)} bundles, median {100 * statistics.median(within):.1f}%, "
           f"90th percentile {100 * percentile(within, 0.9):.1f}%, largest {100 * max(within):.1f}%; "
           f"in different calls: {len(between)} bundles, median {100 * statistics.median(between):.1f}%, "
           f"90th percentile {100 * percentile(between, 0.9):.1f}%, largest {100 * max(between):.1f}% "
           f"(a group counts as within noise when its spread is at most {100 * noise_level:.1f}%)"
           if within and between else "noise: no repeated runs",
           f"objective {objective(table):.4f}"]
    for folder, names in sorted(left_out.items()):
        out.append(f"left out of {folder}: {len(names)} verified runs no bench script here rebuilds "
                   f"({', '.join(sorted(set(names))[:4])}{', ...' if len(set(names)) > 4 else ''})")
    return "\n".join(out)


# The latest measured traces of the calibration set (bench/timeline/assets.py --set calibration).
UNIT_TRACES = os.path.join(ROOT, "bench", "results", "unit-start-traces-h100-2026-11-26", "cal")


def units_section(params):
    """Per unit and warp group, the model's median duration against the measured traces'
    (bench/timeline/units.py), predicted with `params`: the bar is about TFLOP/s, this shows
    which unit a miss comes from."""
    sys.path.insert(0, HERE)
    import units
    with tempfile.TemporaryDirectory() as tmp:
        pf = os.path.join(tmp, "params.json")
        with open(pf, "w") as f:
            json.dump(params, f)
        rows = units.compare(UNIT_TRACES, pf, tmp)
    rel = [abs(r[5]) for r in rows if r[5] is not None]
    consumers = [abs(r[5]) for r in rows if r[5] is not None and r[1].startswith("consumer")]
    lines = [f"From {os.path.relpath(UNIT_TRACES, ROOT)} (H100), predicted again with these parameters "
             f"(`bench/timeline/units.py`). Median |predicted / measured - 1|: {100 * statistics.median(rel):.0f}% "
             f"over {len(rel)} units, {100 * statistics.median(consumers):.0f}% over the consumers' units.", "",
             "| kernel--schedule | warp group | unit | measured median | predicted median | predicted / measured - 1 |",
             "|---|---|---|---|---|---|"]
    for name, wg, unit, mm, pm, r in rows:
        lines.append(f"| {name} | {wg} | {unit} | {mm:.0f} ns | {pm:.0f} ns | "
                     f"{f'{100 * r:+.0f}%' if r is not None else '-'} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--params", help="model parameters (JSON); default: the model's built-in values")
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--write-params")
    ap.add_argument("--table", help="write the tables and the summary (markdown) here")
    ap.add_argument("--rows", help="write every row (JSON lines) here")
    ap.add_argument("--estimate-resources", action="store_true")
    ap.add_argument("--hold", default="",
                    help="with --fit: parameters (comma-separated) kept at their start values (measured ones)")
    a = ap.parse_args()
    if not os.path.exists(TOOL):
        raise SystemExit(f"{TOOL} is missing: build it first (ninja -C build stagecraft-timeline)")
    params = json.loads(subprocess.run([TOOL, "--print-params"], capture_output=True, text=True,
                                       check=True).stdout)
    if a.params:
        params.update(json.load(open(a.params)))
    rows, runs, left_out = collect()
    within, between = noise(runs)
    # The noise level: the 90th percentile of one bundle's spread over the rounds of one call
    # (every schedule of a group was measured in one call).
    noise_level = percentile(within, 0.9) if within else 0.0
    if a.fit:
        hold = {h.strip() for h in a.hold.split(",") if h.strip()}
        unknown = hold - set(params)
        if unknown:
            raise SystemExit(f"--hold: no parameter named {', '.join(sorted(unknown))}")
        params = fit(rows, params, a.estimate_resources, noise_level, hold)
        print(json.dumps(params, indent=1))
        if a.write_params:
            with open(a.write_params, "w") as f:
                json.dump(params, f, indent=1)
                f.write("\n")
    table = evaluate(rows, predict(rows, params, a.estimate_resources), noise_level)
    ranked, single, old, per_folder = markdown(table, noise_level)
    text = summary(table, runs, left_out, noise_level, within, between)
    print(ranked + "\n\n" + text)
    if a.table:
        units = units_section(params)
        # Written whole, then renamed: never half a table.
        tmp = a.table + ".tmp"
        with open(tmp, "w") as f:
            f.write("<!-- Generated by bench/timeline/calibrate.py --table; do not edit. -->\n"
                    "# Timeline calibration: every group\n\n"
                    "The model and the bar: [timeline.md](timeline.md#calibration).\n\n"
                    "## Current lowering, H100: groups with a ranking (the bar)\n\n" + ranked +
                    "\n\n## Current lowering, H100: one schedule per kernel and size (error only)\n\n" + single +
                    "\n\n## Superseded lowerings (not part of the bar), per results folder\n\n" + per_folder +
                    "\n\n## Superseded lowerings (not part of the bar), per group\n\n" + old +
                    "\n\n## Units against the measured traces\n\n" + units +
                    "\n\n## Summary\n\n" + "\n".join("- " + l for l in text.splitlines()) + "\n")
        os.replace(tmp, a.table)
    if a.rows:
        with open(a.rows, "w") as f:
            for g in table:
                for r in g["rows"]:
                    f.write(json.dumps({k: r[k] for k in ("lowering", "folder", "device", "asset", "variant",
                                                          "size", "measured_tflops", "pred_tflops", "bound",
                                                          "pred_clock_ghz", "pred_dram_tbps", "runs")}) + "\n")


if __name__ == "__main__":
    main()
