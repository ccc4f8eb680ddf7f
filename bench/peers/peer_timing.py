"""The pure parts of the peer harness (no torch, no GPU): FLOP counts, the input
rotation, kernel samples from a profiler trace, problem specs, and the tables.

Each function mirrors a piece of stagecraft-run so that a peer's TFLOP/s and a
bundle's are measured the same way (docs/runner-protocol.md, "Timing"):

- input_sets_for      profiler/timing_plan.cpp inputSetsFor
- attention_flops     passes/Driver/Manifest.cpp (the manifest's `flops`, which
                      the runner divides by the median for `tflops`)
- attention_pair_flops profiler/flops.cpp attentionFlops (the runner's own count,
                      used only to warn when the manifest disagrees by > 1%)
- gemm_flops          both (2 M N K)
- median              profiler/protocol.cpp (mean of the two middle samples for
                      an even count)
- window_samples      profiler/cupti_timer.cpp spanMicroseconds: one sample per
                      repetition = last kernel end - first kernel start
"""

import re

# profiler/timing_plan.{h,cpp}
L2_MULTIPLE = 3
MIN_INPUT_SETS = 2
MAX_INPUT_SETS = 64

# The runner's peer tolerances (docs/runner-protocol.md, "Verification").
PEER_NORM_REL_TOL = 1e-2
PEER_MAX_REL_TOL = 5e-2

# What the attention TFLOP/s count, said once in every record and table.
ATTENTION_FLOPS_FORMULA = "4*B*H*S*S*D*(0.5 if causal else 1) (stagecraft's manifest `flops`)"
ATTENTION_PAIR_FLOPS_FORMULA = "4*B*H*D*(S*(S+1)/2 if causal else S*S) (runner flops.cpp)"
GEMM_FLOPS_FORMULA = "2*M*N*K"


class TraceError(Exception):
    """A profiler trace that does not give one clean sample per repetition."""


class SpecError(ValueError):
    """A problem given on the command line that cannot be parsed."""


def input_sets_for(set_bytes, l2_bytes, spare_bytes):
    """How many rotating copies of the inputs: together at least 3x L2, at least 2
    (consecutive launches never share buffers), at most 64, fewer only when memory
    is short; 1 when not even a second copy fits. Same as inputSetsFor."""
    if set_bytes <= 0:
        return 1
    want = (L2_MULTIPLE * l2_bytes + set_bytes - 1) // set_bytes
    want = min(max(want, MIN_INPUT_SETS), MAX_INPUT_SETS)
    affordable = spare_bytes // set_bytes if spare_bytes > 0 else 0
    return int(max(1, min(want, affordable)))


def attention_flops(B, H, S, D, causal):
    """The manifest's count (what stagecraft-run's `tflops` divides): causal halves S*S."""
    return 4.0 * B * H * S * S * D * (0.5 if causal else 1.0)


def attention_pair_flops(B, H, S, D, causal):
    """The runner's flops.cpp count: causal counts the S*(S+1)/2 unmasked pairs."""
    pairs = S * (S + 1) / 2.0 if causal else float(S) * S
    return 4.0 * B * H * pairs * D


def gemm_flops(M, N, K):
    return 2.0 * M * N * K


def tflops(flops, microseconds):
    """TFLOP/s for `flops` done in `microseconds`; None when the time is not positive."""
    if microseconds is None or not microseconds > 0:
        return None
    return flops / (microseconds * 1e-6) / 1e12


def median(samples):
    if not samples:
        raise ValueError("median of no samples")
    s = sorted(samples)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def mean(samples):
    if not samples:
        raise ValueError("mean of no samples")
    return sum(samples) / len(samples)


# --- Problem specs -------------------------------------------------------------------------

def parse_attention(spec):
    """'B,H,S,D' or 'B,H,S,D,causal' -> dict(B, H, S, D, causal)."""
    parts = [p.strip() for p in spec.split(",")]
    causal = False
    if len(parts) == 5:
        if parts[4] not in ("causal", "full"):
            raise SpecError(f"attention problem '{spec}': the fifth field must be 'causal' or 'full', "
                            f"not '{parts[4]}'")
        causal = parts[4] == "causal"
        parts = parts[:4]
    if len(parts) != 4:
        raise SpecError(f"attention problem '{spec}': expected B,H,S,D[,causal]")
    values = _positive_ints(spec, parts, "BHSD")
    B, H, S, D = values
    return {"B": B, "H": H, "S": S, "D": D, "causal": causal}


def parse_gemm(spec):
    """'M,N,K' -> dict(M, N, K) (C[M,N] = A[M,K] B[N,K]^T, like the project's GEMM)."""
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) != 3:
        raise SpecError(f"GEMM problem '{spec}': expected M,N,K")
    M, N, K = _positive_ints(spec, parts, "MNK")
    return {"M": M, "N": N, "K": K}


def _positive_ints(spec, parts, names):
    out = []
    for name, p in zip(names, parts):
        if not re.fullmatch(r"[0-9]+", p) or int(p) <= 0:
            raise SpecError(f"problem '{spec}': {name} must be a positive integer, not '{p}'")
        out.append(int(p))
    return out


def attention_label(p):
    return f"B{p['B']} H{p['H']} S{p['S']} D{p['D']} {'causal' if p['causal'] else 'full'}"


def gemm_label(p):
    return f"{p['M']}x{p['N']}x{p['K']}"


def attention_set_bytes(p, element_bytes=2):
    """Q, K and V (the inputs; O is not rotated, like the runner's outputs)."""
    return 3 * p["B"] * p["H"] * p["S"] * p["D"] * element_bytes


def gemm_set_bytes(p, element_bytes=2):
    """A[M,K] and B[N,K]."""
    return (p["M"] * p["K"] + p["N"] * p["K"]) * element_bytes


# --- Kernel samples from a profiler trace ---------------------------------------------------

LAUNCH_CATEGORIES = ("cuda_runtime", "cuda_driver")


def window_kernels(events, prefix):
    """Groups the device kernels of a Chrome trace (torch.profiler's export) by repetition.

    Each repetition ran inside `torch.profiler.record_function(f"{prefix}{i}")`, which held
    the call and a device synchronize. A kernel belongs to repetition i when the launch that
    enqueued it (the cuda_runtime or cuda_driver event with the kernel's `correlation`) lies
    inside window i on the host; a kernel whose launch the trace lacks belongs to the window
    its whole GPU interval lies in (the window ends after the synchronize, so the kernel ran
    inside it). Only `kernel` events count (like the runner's CONCURRENT_KERNEL records;
    memsets and copies do not).

    Returns (kernels, how): kernels[i] is the list of {"name", "start", "end"} (microseconds)
    of window i in start order; how counts the kernels assigned by "correlation" and by
    "time". Raises TraceError when there are no windows, a kernel lies in no window, or a
    window has no kernel.
    """
    windows = {}
    for e in events:
        if e.get("ph") != "X" or e.get("cat") != "user_annotation":
            continue
        name = e.get("name", "")
        if not name.startswith(prefix) or not name[len(prefix):].isdigit():
            continue
        i = int(name[len(prefix):])
        if i in windows:
            raise TraceError(f"window {name} appears twice in the trace")
        windows[i] = (float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0.0)))
    if not windows:
        raise TraceError(f"no '{prefix}N' windows in the trace")
    if sorted(windows) != list(range(len(windows))):
        raise TraceError(f"the trace's windows are not {prefix}0..{prefix}{len(windows) - 1}: "
                         f"{sorted(windows)[:10]}")

    launches = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in LAUNCH_CATEGORIES:
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                launches[corr] = float(e["ts"])

    def containing(t0, t1):
        for i, (w0, w1) in windows.items():
            if w0 <= t0 and t1 <= w1:
                return i
        return None

    grouped = [[] for _ in windows]
    how = {"correlation": 0, "time": 0}
    stray = []
    for e in events:
        if e.get("ph") != "X" or e.get("cat") != "kernel":
            continue
        start = float(e["ts"])
        end = start + float(e.get("dur", 0.0))
        if end < start:
            raise TraceError(f"kernel {e.get('name')} ends before it starts")
        corr = (e.get("args") or {}).get("correlation")
        i = None
        if corr is not None and corr in launches:
            t = launches[corr]
            i = containing(t, t)
            if i is not None:
                how["correlation"] += 1
        if i is None:
            i = containing(start, end)
            if i is not None:
                how["time"] += 1
        if i is None:
            stray.append(e.get("name", "?"))
            continue
        grouped[i].append({"name": e.get("name", ""), "start": start, "end": end})
    if stray:
        raise TraceError(f"{len(stray)} kernel(s) outside every repetition window, e.g. {stray[0]}: "
                         "something else ran on the GPU while timing")
    empty = [i for i, g in enumerate(grouped) if not g]
    if empty:
        raise TraceError(f"{len(empty)} of {len(grouped)} repetitions have no kernel record (first: "
                         f"{prefix}{empty[0]}): the profiler did not see the launch")
    for g in grouped:
        g.sort(key=lambda k: k["start"])
    return grouped, how


def window_sample(kernels):
    """One repetition's sample: the span from the first start to the last end (the runner's
    spanMicroseconds) and, for comparison, the sum of the kernel durations (the same for a
    single kernel; smaller than the span when a call's kernels leave gaps)."""
    span = max(k["end"] for k in kernels) - min(k["start"] for k in kernels)
    total = sum(k["end"] - k["start"] for k in kernels)
    return span, total


def summarize_windows(grouped):
    """Samples and the kernel census of grouped windows (window_kernels' first result)."""
    spans, sums, counts = [], [], []
    names = []
    for g in grouped:
        span, total = window_sample(g)
        spans.append(span)
        sums.append(total)
        counts.append(len(g))
        for k in g:
            if k["name"] not in names:
                names.append(k["name"])
    return {
        "samples_us": spans,
        "sum_samples_us": sums,
        "median_us": median(spans),
        "min_us": min(spans),
        "median_sum_us": median(sums),
        "kernels_per_rep": counts[0] if len(set(counts)) == 1 else counts,
        "kernel_names": names,
    }


# --- SDPA's refusals ------------------------------------------------------------------------

def sdpa_reasons(messages):
    """SDPA's warnings, reduced to the reasons: without the per-back-end headers ("... kernel
    not used because:"), the back ends switched off by sdpa_kernel, and the source locations."""
    out = []
    for text in messages:
        text = re.sub(r"\s*\(Triggered internally at [^)]*\)\s*$", "", text.strip()).strip()
        if not text or text.endswith("not used because:") or "has been runtime disabled" in text:
            continue
        if text not in out:
            out.append(text)
    return out


# --- Tables ---------------------------------------------------------------------------------

def _fmt(x, spec=".1f"):
    return "-" if x is None else format(x, spec)


def _cell(rec):
    if rec is None:
        return "-"
    if rec.get("status") == "ok":
        return _fmt(rec.get("tflops"))
    return rec.get("status", "?")


def peers_table(records, method="cupti"):
    """Markdown: one row per problem, one column per peer, TFLOP/s by `method`."""
    rows = [r for r in records if r.get("method") == method]
    problems, peers = [], []
    for r in rows:
        if r["label"] not in problems:
            problems.append(r["label"])
        if r["peer"] not in peers:
            peers.append(r["peer"])
    by = {(r["label"], r["peer"]): r for r in rows}
    out = ["| problem | " + " | ".join(peers) + " |", "|---|" + "---|" * len(peers)]
    for p in problems:
        out.append(f"| {p} | " + " | ".join(_cell(by.get((p, peer))) for peer in peers) + " |")
    notes = [f"- {r['label']}, {r['peer']}: {r['status']}: {r.get('reason', '')}"
             for r in rows if r.get("status") != "ok"]
    if notes:
        out += ["", "Not timed:"] + notes
    return "\n".join(out) + "\n"


def methods_table(records, methods):
    """Markdown: per (problem, peer), TFLOP/s by each method and the ratio to the first."""
    present = [m for m in methods if any(r.get("method") == m for r in records)]
    if len(present) < 2:
        return ""
    by = {(r["label"], r["peer"], r["method"]): r for r in records}
    keys = []
    for r in records:
        k = (r["label"], r["peer"])
        if r.get("method") in present[1:] and k not in keys:
            keys.append(k)
    base = present[0]
    out = ["| problem | peer | " + " | ".join(present) + " | " +
           " | ".join(f"{m} / {base}" for m in present[1:]) + " |",
           "|---|---|" + "---|" * (2 * len(present) - 1)]
    for label, peer in keys:
        cells = [_cell(by.get((label, peer, m))) for m in present]
        b = by.get((label, peer, base))
        ratios = []
        for m in present[1:]:
            r = by.get((label, peer, m))
            ok = b and r and b.get("tflops") and r.get("tflops")
            ratios.append(_fmt(r["tflops"] / b["tflops"], ".3f") if ok else "-")
        out.append(f"| {label} | {peer} | " + " | ".join(cells + ratios) + " |")
    return "\n".join(out) + "\n"
