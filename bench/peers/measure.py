"""The torch side of the peer harness: inputs like stagecraft-run's, the output
check, and the three ways of timing a call.

- cupti:    the runner's method. Kernel records from CUPTI (torch.profiler with
            ProfilerActivity.CUDA: CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), one
            window per repetition (record_function around the call and a
            synchronize), the sample = last kernel end - first kernel start of
            the window, launch i on input set i mod sets; warm-up launches first.
- events:   bench/attention/baselines.py's (and bench/export/check_exported.py's)
            method: CUDA events around each call on one input set, median.
- do_bench: triton.testing.do_bench with its defaults (it zeroes a 256 MB buffer
            between calls to flush L2; events; mean over ~100 ms of calls).
"""
import json
import os
import tempfile
import warnings

import torch

from peer_timing import PEER_MAX_REL_TOL, PEER_NORM_REL_TOL, mean, median, sdpa_reasons, \
    summarize_windows, window_kernels

WINDOW_PREFIX = "stagecraft_rep_"


class Unavailable(Exception):
    """A peer that cannot run this problem here (back end missing or refusing the shape)."""


def configure_precision():
    # The fp32 references must be fp32, not TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def device_info():
    p = torch.cuda.get_device_properties(0)
    info = {
        "name": p.name,
        "compute_capability": f"{p.major}.{p.minor}",
        "sm_count": p.multi_processor_count,
        "l2_bytes": int(p.L2_cache_size),
        "memory_bytes": int(p.total_memory),
        "torch": torch.__version__,
        "cuda_runtime": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
    }
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception as e:  # reported, not fatal: the Triton peers say so themselves
        info["triton"] = f"unavailable: {type(e).__name__}: {e}"
    try:
        with open("/proc/driver/nvidia/version") as f:
            first = f.readline()
        info["driver"] = next((w for w in first.split() if w.count(".") == 2 and w[0].isdigit()), first.strip())
    except OSError:
        info["driver"] = None
    return info


# --- Inputs ---------------------------------------------------------------------------------

def random_bf16(shape, seed, dist):
    """Like the runner's fill (profiler/runner_kernels.cu): an fp32 value, uniform in [-1, 1)
    (or standard normal), rounded to the nearest bf16."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    t = torch.empty(shape, device="cuda", dtype=torch.float32)
    if dist == "uniform":
        t.uniform_(-1.0, 1.0, generator=g)
    elif dist == "normal":
        t.normal_(0.0, 1.0, generator=g)
    else:
        raise ValueError(f"unknown distribution {dist}")
    out = t.to(torch.bfloat16)
    del t
    return out


def make_input_sets(shapes, count, dist, policy, seed):
    """`count` sets of bf16 tensors of `shapes`. Set 0 is random (tensor i from seed + i, as
    the manifest seeds its inputs 1, 2, ...); policy "copies" makes the other sets copies of
    set 0 (what stagecraft-run does: same values, other addresses), "fresh" draws each set
    anew."""
    sets = [tuple(random_bf16(s, seed + i, dist) for i, s in enumerate(shapes))]
    for c in range(1, count):
        if policy == "copies":
            sets.append(tuple(t.clone() for t in sets[0]))
        elif policy == "fresh":
            sets.append(tuple(random_bf16(s, seed + 1000 * c + i, dist) for i, s in enumerate(shapes)))
        else:
            raise ValueError(f"unknown input-set policy {policy}")
    torch.cuda.synchronize()
    return sets


# --- The check ------------------------------------------------------------------------------

def errors(out, ref):
    """The runner's metrics (docs/runner-protocol.md, Verification): relative to the
    reference's scale, not element-wise."""
    out = out.float()
    ref = ref.float()
    nonfinite = int((~torch.isfinite(out)).sum().item() + (~torch.isfinite(ref)).sum().item())
    diff = (out - ref).abs()
    ref_max = ref.abs().max().item()
    ref_norm = torch.linalg.vector_norm(ref).item()
    max_rel = diff.max().item() / ref_max if ref_max > 0 else float("inf")
    norm_rel = torch.linalg.vector_norm(out - ref).item() / ref_norm if ref_norm > 0 else float("inf")
    return {"max_rel_err": max_rel, "norm_rel_err": norm_rel, "nonfinite_count": nonfinite}


def passes(e):
    return (e["nonfinite_count"] == 0 and e["norm_rel_err"] <= PEER_NORM_REL_TOL
            and e["max_rel_err"] <= PEER_MAX_REL_TOL)


def call_probing(fn, *args):
    """Runs fn once; a refusal (no kernel for this shape, back end switched off, a Triton
    configuration out of shared memory) becomes Unavailable with torch's reasons (SDPA explains
    itself in warnings). Errors of this harness's own code and CUDA errors (a fault kills the
    context: nothing after it would be valid) propagate."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args)
            torch.cuda.synchronize()
            return out
        except torch.cuda.OutOfMemoryError:
            raise
        except Exception as e:
            # No kernel for this shape, a back end switched off, a Triton configuration out of
            # shared memory: the peer is unavailable here. A bug in this harness is not.
            if isinstance(e, (TypeError, NameError, AttributeError, AssertionError, KeyError, IndexError)):
                raise
            if "CUDA error" in str(e):
                raise
            reasons = sdpa_reasons(str(w.message) for w in caught)
            text = f"{type(e).__name__}: {str(e).strip()}"
            if reasons:
                text += " (" + " | ".join(reasons) + ")"
            raise Unavailable(text[:1500]) from e


# --- Timing ---------------------------------------------------------------------------------

def time_cupti(fn, sets, warmup, reps):
    """The runner's method; see the module docstring. Returns summarize_windows' dict plus
    input_sets and how the kernels were assigned to repetitions."""
    from torch.profiler import ProfilerActivity, profile, record_function

    launch = 0
    for _ in range(warmup):
        fn(*sets[launch % len(sets)])
        launch += 1
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for i in range(reps):
            args = sets[launch % len(sets)]
            launch += 1
            with record_function(f"{WINDOW_PREFIX}{i}"):
                fn(*args)
                torch.cuda.synchronize()
    fd, path = tempfile.mkstemp(prefix="stagecraft-peers-trace-", suffix=".json")
    os.close(fd)
    try:
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f)["traceEvents"]
    finally:
        os.unlink(path)
    grouped, how = window_kernels(events, WINDOW_PREFIX)
    result = summarize_windows(grouped)
    result.update(input_sets=len(sets), assigned_by=how, reported_us=result["median_us"],
                  statistic="median")
    return result


def time_events(fn, args, warmup, reps):
    """bench/attention/baselines.py's time_ms: events around each call, one input set."""
    for _ in range(warmup):
        fn(*args)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(reps):
        start.record()
        fn(*args)
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) * 1e3)
    m = median(samples)
    return {"samples_us": samples, "median_us": m, "min_us": min(samples), "input_sets": 1,
            "reported_us": m, "statistic": "median"}


def time_do_bench(fn, args):
    """triton.testing.do_bench with its defaults; the reported figure is its default
    return value, the mean (the median is kept beside it)."""
    import triton.testing

    try:
        ms = triton.testing.do_bench(lambda: fn(*args), return_mode="all")
    except TypeError:  # an older do_bench without "all"
        ms = [triton.testing.do_bench(lambda: fn(*args))]
    samples = [float(x) * 1e3 for x in ms]
    return {"samples_us": samples, "median_us": median(samples), "mean_us": mean(samples),
            "min_us": min(samples), "input_sets": 1, "reported_us": mean(samples),
            "statistic": "mean (do_bench's default)"}
