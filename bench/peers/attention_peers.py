#!/usr/bin/env python3
"""One timing harness for the peers of Stagecraft's kernels (issue 11, item 7).

Times torch SDPA with the cuDNN back end, torch's flash back end and a Triton
attention kernel (bench/attention/baselines.py's, best of a few block
configurations), and for GEMM torch.matmul (cuBLAS via torch) and a Triton GEMM
(triton_matmul.py, best of a few configurations), the way stagecraft-run times a
bundle (docs/runner-protocol.md, "Timing"; bench/peers/README.md):

- inputs: bf16, uniform in [-1, 1) from fp32 (the manifest's "init"), in
  input_sets_for(set bytes, L2, free memory / 2) rotating sets (profiler/timing_plan.cpp);
- each peer's output checked against an fp32 reference on a slice with the
  runner's peer tolerances (norm 1e-2, max 5e-2) before it is timed;
- warm-up launches, then `reps` repetitions, each in its own CUPTI window
  (torch.profiler, ProfilerActivity.CUDA); a sample is the span of the
  repetition's kernel records; the median is reported;
- TFLOP/s from the same FLOP count as stagecraft-run's for the same problem.

With --compare, the same peers are also timed by the old methods (events on one
input set, as baselines.py; triton.testing.do_bench) and with normal inputs, so
that the harnesses' disagreement can be read off one table.

  attention_peers.py --out DIR [--attention B,H,S,D[,causal] ...] [--gemm M,N,K ...]
                     [--reps 30] [--warmup 5] [--compare] [--peers a,b] [--no-gemm] ...
  attention_peers.py --plan [--l2-bytes N --free-bytes N]   (no GPU, no torch: what would run)

Output in DIR: peers.jsonl (one record per problem, peer and method), summary.md.
Exit status: 0 when every peer was timed or is unavailable here, 1 when a peer
failed its check or errored, 2 on bad usage or no GPU.
"""
import argparse
import json
import math
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peer_timing as pt  # noqa: E402  (pure: no torch)

DEFAULT_ATTENTION = ["4,16,8192,128,full", "4,16,8192,128,causal", "8,16,2048,128,full",
                     "4,32,8192,64,full", "4,32,8192,64,causal"]
DEFAULT_GEMM = ["8192,8192,8192", "4096,4096,4096", "8000,8064,4000"]
ATTENTION_PEERS = ["cudnn", "flash", "triton"]
GEMM_PEERS = ["torch-matmul", "triton-matmul"]
COMPARE_ONLY_PEERS = ["sdpa-default"]  # SDPA with torch's own back-end choice
# Methods: the runner's first; the rest only with --compare.
METHODS = ["cupti", "cupti-1set", "events", "do_bench", "cupti-normal"]
METHOD_TEXT = {
    "cupti": "CUPTI kernel span per repetition, inputs rotated beyond L2, uniform [-1,1] (stagecraft-run's)",
    "cupti-1set": "CUPTI as above, one input set (no rotation)",
    "events": "CUDA events around each call, one input set, median (bench/attention/baselines.py)",
    "do_bench": "triton.testing.do_bench defaults: L2 flushed by a 256 MB memset, events, mean",
    "cupti-normal": "CUPTI rotated, inputs standard normal (torch.randn, as bench/export/check_exported.py)",
}
# Triton attention block configurations (BLOCK_M, BLOCK_N, warps, stages): baselines.py's
# three and two more.
EXTRA_TRITON_ATTENTION_CONFIGS = [(128, 128, 4, 3), (64, 64, 4, 3)]
# Reference slices: at most this many fp32 scores per chunk (256 MiB).
REFERENCE_CHUNK_ELEMENTS = 1 << 26


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output directory (peers.jsonl, summary.md)")
    ap.add_argument("--attention", action="append", metavar="B,H,S,D[,causal]",
                    help="an attention problem (repeatable; default: " + "; ".join(DEFAULT_ATTENTION) + ")")
    ap.add_argument("--gemm", action="append", metavar="M,N,K",
                    help="a GEMM C[M,N] = A[M,K] B[N,K]^T (repeatable; default: " + "; ".join(DEFAULT_GEMM) + ")")
    ap.add_argument("--no-attention", action="store_true", help="no attention problems")
    ap.add_argument("--no-gemm", action="store_true", help="no GEMM problems")
    ap.add_argument("--peers", help="comma-separated subset of: " + ", ".join(ATTENTION_PEERS + GEMM_PEERS + COMPARE_ONLY_PEERS))
    ap.add_argument("--reps", type=int, default=30, help="timed repetitions per method (default 30, like the runner)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed launches first (default 5, like the runner)")
    ap.add_argument("--compare", action="store_true",
                    help="also time by the old methods (events, do_bench), without rotation, and with normal inputs")
    ap.add_argument("--input-sets", choices=["copies", "fresh"], default="copies",
                    help="sets after the first: copies of it (the runner's way, default) or freshly drawn")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first input tensor (default 1, like the manifest)")
    ap.add_argument("--plan", action="store_true", help="print what would run and exit (no GPU, no torch)")
    ap.add_argument("--l2-bytes", type=int, default=50 * 1024 * 1024, help="--plan: the L2 size (default an H100's)")
    ap.add_argument("--free-bytes", type=int, default=80 * 10 ** 9, help="--plan: free device memory")
    a = ap.parse_args(argv)
    if a.reps < 1 or a.reps > 100000:
        ap.error("--reps must be in 1..100000")
    if a.warmup < 0:
        ap.error("--warmup must be >= 0")
    try:
        a.attention_problems = [] if a.no_attention else [pt.parse_attention(s) for s in (a.attention or DEFAULT_ATTENTION)]
        a.gemm_problems = [] if a.no_gemm else [pt.parse_gemm(s) for s in (a.gemm or DEFAULT_GEMM)]
    except pt.SpecError as e:
        ap.error(str(e))
    known = ATTENTION_PEERS + GEMM_PEERS + COMPARE_ONLY_PEERS
    if a.peers:
        a.peer_list = [p.strip() for p in a.peers.split(",") if p.strip()]
        bad = [p for p in a.peer_list if p not in known]
        if bad:
            ap.error(f"--peers: unknown peer(s) {', '.join(bad)}; known: {', '.join(known)}")
    else:
        a.peer_list = ATTENTION_PEERS + GEMM_PEERS + (COMPARE_ONLY_PEERS if a.compare else [])
    a.methods = METHODS if a.compare else ["cupti"]
    if not a.plan and not a.out:
        ap.error("--out DIR is required (or --plan)")
    return a


def attention_flops_fields(p):
    f = pt.attention_flops(p["B"], p["H"], p["S"], p["D"], p["causal"])
    return {"flops": f, "flops_formula": pt.ATTENTION_FLOPS_FORMULA,
            "flops_pair_count": pt.attention_pair_flops(p["B"], p["H"], p["S"], p["D"], p["causal"])}


def gemm_flops_fields(p):
    return {"flops": pt.gemm_flops(p["M"], p["N"], p["K"]), "flops_formula": pt.GEMM_FLOPS_FORMULA}


def plan(a):
    """What a run would do, from the arguments alone."""
    print(f"methods: {', '.join(a.methods)}; warm-up {a.warmup}, reps {a.reps}; "
          f"L2 {a.l2_bytes} bytes, free {a.free_bytes} bytes")
    rows = [("attention", pt.attention_label(p), pt.attention_set_bytes(p), attention_flops_fields(p))
            for p in a.attention_problems]
    rows += [("gemm", pt.gemm_label(p), pt.gemm_set_bytes(p), gemm_flops_fields(p)) for p in a.gemm_problems]
    for kind, label, set_bytes, fl in rows:
        peers = [p for p in a.peer_list if p in (GEMM_PEERS if kind == "gemm" else ATTENTION_PEERS + COMPARE_ONLY_PEERS)]
        sets = pt.input_sets_for(set_bytes, a.l2_bytes, a.free_bytes // 2)
        print(json.dumps({"kind": kind, "label": label, "peers": peers, "input_set_bytes": set_bytes,
                          "input_sets": sets, "flops": fl["flops"], "flops_formula": fl["flops_formula"]}))
    return 0


class Records:
    """peers.jsonl, written as it goes to peers.jsonl.partial (a cut-off run leaves that),
    renamed when the run ends."""

    def __init__(self, out_dir):
        os.makedirs(out_dir, exist_ok=True)
        self.path = os.path.join(out_dir, "peers.jsonl")
        self.partial = self.path + ".partial"
        self.file = open(self.partial, "w")
        self.all = []

    def add(self, rec):
        self.all.append(rec)
        self.file.write(json.dumps(finite(rec), allow_nan=False) + "\n")
        self.file.flush()
        t = rec.get("tflops")
        what = f"{t:.1f} TFLOP/s ({rec['reported_us']:.1f} us)" if t else f"{rec['status']}: {rec.get('reason', '')[:200]}"
        cfg = f" [{rec['config']}]" if rec.get("config") else ""
        print(f"{rec['label']:<32} {rec['peer']:<14} {rec['method']:<13} {what}{cfg}", flush=True)

    def close(self):
        self.file.close()
        os.replace(self.partial, self.path)


def finite(x):
    """x with every NaN or infinite float replaced by None (JSON has neither)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    return x


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


class Harness:
    def __init__(self, a):
        import torch

        import measure
        self.torch = torch
        self.m = measure
        self.a = a
        self.records = None
        measure.configure_precision()
        self.device = measure.device_info()
        self.failed = False

    # --- shared -----------------------------------------------------------------------------

    def input_sets(self, shapes, set_bytes, dist):
        torch = self.torch
        torch.cuda.empty_cache()
        free, _ = torch.cuda.mem_get_info()
        count = pt.input_sets_for(set_bytes, self.device["l2_bytes"], free // 2)
        return self.m.make_input_sets(shapes, count, dist, self.a.input_sets, self.a.seed)

    def record(self, base, peer, method, **fields):
        rec = dict(base, peer=peer, method=method, method_text=METHOD_TEXT[method], **fields)
        if rec.get("status") == "ok":
            rec["tflops"] = pt.tflops(rec["flops"], rec["reported_us"])
            if "flops_pair_count" in rec:
                rec["tflops_pair_count"] = pt.tflops(rec["flops_pair_count"], rec["reported_us"])
        elif rec.get("status") in ("verify_failed", "error"):
            self.failed = True
        self.records.add(rec)

    def run_peer(self, base, peer, candidates, sets, check):
        """candidates: [(config name or None, fn)]. Checks each on set 0, times each that
        passes by the runner's method, keeps the fastest; then the other methods on it."""
        m = self.m
        tried, best, unavailable, wrong = {}, None, [], []
        for name, fn in candidates:
            key = name or "-"
            try:
                out = m.call_probing(fn, *sets[0])
                e = check(out)
                del out
                if not m.passes(e):
                    wrong.append((name, e))
                    tried[key] = dict(e, status="verify_failed")
                    continue
                t = m.time_cupti(fn, sets, self.a.warmup, self.a.reps)
                tried[key] = {"median_us": t["median_us"], **e}
                if best is None or t["median_us"] < best[2]["median_us"]:
                    best = (name, fn, t, e)
            except m.Unavailable as u:
                unavailable.append(f"{key}: {u}" if name else str(u))
                tried[key] = {"status": "unavailable", "reason": str(u)[:300]}
            except self.torch.cuda.OutOfMemoryError as x:
                unavailable.append(f"{key}: out of memory: {x}")
                tried[key] = {"status": "error", "reason": f"out of memory: {str(x)[:300]}"}
                self.torch.cuda.empty_cache()
            except Exception as x:  # a broken peer must not stop the others
                tried[key] = {"status": "error", "reason": f"{type(x).__name__}: {str(x)[:500]}"}
                traceback.print_exc()
        configs = tried if len(candidates) > 1 else None
        if best is None:
            if wrong:
                name, e = wrong[0]
                self.record(base, peer, "cupti", status="verify_failed", config=name, configs=configs,
                            reason=f"output differs from the fp32 reference: norm {e['norm_rel_err']:.3g} "
                                   f"(tol {pt.PEER_NORM_REL_TOL}), max {e['max_rel_err']:.3g} "
                                   f"(tol {pt.PEER_MAX_REL_TOL}), nonfinite {e['nonfinite_count']}", **e)
            elif unavailable and all(v.get("status") == "unavailable" for v in tried.values()):
                self.record(base, peer, "cupti", status="unavailable", reason=" || ".join(unavailable)[:2000],
                            configs=configs)
            else:
                reasons = [f"{k}: {v.get('reason')}" for k, v in tried.items() if v.get("reason")]
                self.record(base, peer, "cupti", status="error", reason=" || ".join(reasons)[:2000], configs=configs)
            return
        name, fn, t, e = best
        self.record(base, peer, "cupti", status="ok", config=name, configs=configs, **e, **t)
        for method in self.a.methods[1:]:
            if method == "cupti-normal":
                continue  # after every peer's uniform pass: see run_problem
            try:
                if method == "cupti-1set":
                    t2 = m.time_cupti(fn, sets[:1], self.a.warmup, self.a.reps)
                elif method == "events":
                    t2 = m.time_events(fn, sets[0], 3, self.a.reps)
                elif method == "do_bench":
                    t2 = m.time_do_bench(fn, sets[0])
                self.record(base, peer, method, status="ok", config=name, **t2)
            except Exception as x:
                self.record(base, peer, method, status="error", config=name,
                            reason=f"{type(x).__name__}: {str(x)[:500]}")

    def run_problem(self, base, shapes, set_bytes, peers, check_for):
        """Every peer on one problem: uniform inputs (all methods but cupti-normal), then,
        with --compare, normal inputs by the runner's method on each peer's chosen config."""
        torch = self.torch
        base = dict(base, device=self.device["name"], warmup=self.a.warmup, reps=self.a.reps,
                    input_distribution="uniform[-1,1) bf16", input_set_policy=self.a.input_sets)
        try:
            sets = self.input_sets(shapes, set_bytes, "uniform")
            check = check_for(sets[0])
        except Exception as x:  # out of memory, most likely: every peer says so, the run goes on
            for peer, _ in peers:
                self.record(base, peer, "cupti", status="error",
                            reason=f"inputs or fp32 reference: {type(x).__name__}: {str(x)[:300]}")
            sets = check = None
            torch.cuda.empty_cache()
            return
        chosen = {}
        for peer, make in peers:
            try:
                candidates = make()
            except self.m.Unavailable as u:
                self.record(base, peer, "cupti", status="unavailable", reason=str(u))
                continue
            before = len(self.records.all)
            self.run_peer(base, peer, candidates, sets, check)
            ok = [r for r in self.records.all[before:] if r["method"] == "cupti" and r["status"] == "ok"]
            if ok:
                cfg = ok[0].get("config")
                chosen[peer] = [(n, f) for n, f in candidates if n == cfg]
        del sets, check
        if "cupti-normal" in self.a.methods and chosen:
            try:
                normal = self.input_sets(shapes, set_bytes, "normal")
            except torch.cuda.OutOfMemoryError as x:
                for peer in chosen:
                    self.record(base, peer, "cupti-normal", status="error", reason=f"inputs: out of memory: {x}")
                return
            nbase = dict(base, input_distribution="normal(0,1) bf16")
            for peer, cands in chosen.items():
                name, fn = cands[0]
                try:
                    fn(*normal[0])
                    t = self.m.time_cupti(fn, normal, self.a.warmup, self.a.reps)
                    self.record(nbase, peer, "cupti-normal", status="ok", config=name, **t)
                except Exception as x:
                    self.record(nbase, peer, "cupti-normal", status="error", config=name,
                                reason=f"{type(x).__name__}: {str(x)[:500]}")
            del normal
        torch.cuda.empty_cache()

    # --- attention --------------------------------------------------------------------------

    def attention(self, p):
        torch = self.torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel

        B, H, S, D, causal = p["B"], p["H"], p["S"], p["D"], p["causal"]
        shape = (B, H, S, D)
        base = {"kind": "attention", "label": pt.attention_label(p), "problem": p,
                "sm_scale": 1.0 / math.sqrt(D), **attention_flops_fields(p)}

        def sdpa(backend):
            def make():
                if backend is None:
                    return [(None, lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal))]

                def fn(q, k, v):
                    with sdpa_kernel(backend):
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                return [(None, fn)]
            return make

        def triton_peer():
            try:
                sys.path.insert(0, os.path.join(HERE, "..", "attention"))
                import baselines
            except Exception as x:
                raise self.m.Unavailable(f"the Triton kernel of bench/attention/baselines.py does not import: "
                                         f"{type(x).__name__}: {x}")
            configs = list(baselines.CONFIGS) + [c for c in EXTRA_TRITON_ATTENTION_CONFIGS if c not in baselines.CONFIGS]
            return [(f"{bm}x{bn} w{w} s{s}",
                     (lambda bm, bn, w, s: lambda q, k, v: baselines.triton_attention(q, k, v, causal, bm, bn, w, s))(bm, bn, w, s))
                    for bm, bn, w, s in configs]

        makers = {"cudnn": sdpa(SDPBackend.CUDNN_ATTENTION), "flash": sdpa(SDPBackend.FLASH_ATTENTION),
                  "triton": triton_peer, "sdpa-default": sdpa(None)}
        peers = [(name, makers[name]) for name in ATTENTION_PEERS + COMPARE_ONLY_PEERS if name in self.a.peer_list]
        if not peers:
            return

        def check_for(inputs):
            q, k, v = inputs
            slices = sorted({(0, 0), (B - 1, H - 1)})
            refs = [attention_reference(torch, q[b, h], k[b, h], v[b, h], causal) for b, h in slices]
            ref = torch.stack(refs)

            def check(out):
                if tuple(out.shape) != shape:
                    return {"max_rel_err": math.inf, "norm_rel_err": math.inf, "nonfinite_count": -1}
                return self.m.errors(torch.stack([out[b, h] for b, h in slices]), ref)
            return check

        self.run_problem(base, [shape] * 3, pt.attention_set_bytes(p), peers, check_for)

    # --- GEMM -------------------------------------------------------------------------------

    def gemm(self, p):
        torch = self.torch
        M, N, K = p["M"], p["N"], p["K"]
        base = {"kind": "gemm", "label": pt.gemm_label(p), "problem": p, **gemm_flops_fields(p)}

        def torch_peer():
            return [(None, lambda a, b: torch.matmul(a, b.t()))]

        def triton_peer():
            try:
                import triton_matmul
            except Exception as x:
                raise self.m.Unavailable(f"Triton does not import: {type(x).__name__}: {x}")
            return [(triton_matmul.config_name(c), (lambda c: lambda a, b: triton_matmul.triton_matmul(a, b, c))(c))
                    for c in triton_matmul.CONFIGS]

        makers = {"torch-matmul": torch_peer, "triton-matmul": triton_peer}
        peers = [(name, makers[name]) for name in GEMM_PEERS if name in self.a.peer_list]
        if not peers:
            return

        def check_for(inputs):
            a, b = inputs
            rows = sorted(set(range(min(M, 128))) | set(range(max(0, M - 128), M)))
            idx = torch.tensor(rows, device=a.device)
            ref = torch.matmul(a[idx].float(), b.float().t())

            def check(out):
                if tuple(out.shape) != (M, N):
                    return {"max_rel_err": math.inf, "norm_rel_err": math.inf, "nonfinite_count": -1}
                return self.m.errors(out[idx], ref)
            return check

        self.run_problem(base, [(M, K), (N, K)], pt.gemm_set_bytes(p), peers, check_for)


def attention_reference(torch, q, k, v, causal):
    """softmax(Q K^T / sqrt(D), causal: key > query masked) V for one head, in fp32, in
    chunks of query rows (like the runner's attention reference, without TF32)."""
    S, D = q.shape
    q, k, v = q.float(), k.float(), v.float()
    scale = 1.0 / math.sqrt(D)
    out = torch.empty(S, D, device=q.device, dtype=torch.float32)
    rows = max(1, min(S, REFERENCE_CHUNK_ELEMENTS // S))
    cols = torch.arange(S, device=q.device)
    for r0 in range(0, S, rows):
        r1 = min(S, r0 + rows)
        s = torch.matmul(q[r0:r1], k.t()) * scale
        if causal:
            s.masked_fill_(cols[None, :] > torch.arange(r0, r1, device=q.device)[:, None], float("-inf"))
        out[r0:r1] = torch.matmul(torch.softmax(s, dim=-1), v)
        del s
    return out


def summary(a, h, records):
    lines = ["# Peers: one harness (bench/peers/attention_peers.py)", ""]
    d = h.device
    lines.append(f"Device: {d['name']} (sm {d['compute_capability']}, {d['sm_count']} SMs, L2 {d['l2_bytes']} bytes), "
                 f"driver {d.get('driver')}, torch {d['torch']} (CUDA {d['cuda_runtime']}, cuDNN {d['cudnn']}), "
                 f"Triton {d['triton']}. {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.")
    lines.append("")
    lines.append(f"Warm-up {a.warmup}, {a.reps} repetitions; input sets after the first: {a.input_sets}. "
                 f"Attention FLOPs: {pt.ATTENTION_FLOPS_FORMULA}; GEMM: {pt.GEMM_FLOPS_FORMULA}.")
    lines.append("")
    lines.append("## TFLOP/s by stagecraft-run's method")
    lines.append("")
    lines.append(METHOD_TEXT["cupti"] + ".")
    lines.append("")
    lines.append(pt.peers_table(records, "cupti"))
    chosen = [f"{r['label']} {r['peer']}: {r['config']}" for r in records
              if r["method"] == "cupti" and r["status"] == "ok" and r.get("config")]
    if chosen:
        lines.append("Triton configurations chosen (fastest that passed the check): " + "; ".join(chosen) + ".")
        lines.append("")
    mt = pt.methods_table(records, a.methods)
    if mt:
        lines.append("## The same peers by other methods")
        lines.append("")
        for method in a.methods:
            lines.append(f"- `{method}`: {METHOD_TEXT[method]}")
        lines.append("")
        lines.append(mt)
    return "\n".join(lines) + "\n"


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.plan:
        return plan(a)
    try:
        import torch
    except ImportError as e:
        print(f"attention_peers.py: torch is not installed: {e}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("attention_peers.py: no CUDA device visible to torch", file=sys.stderr)
        return 2
    try:
        h = Harness(a)
    except Exception as e:  # CUDA initialisation, a broken install
        print(f"attention_peers.py: cannot start on the GPU: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    records = h.records = Records(a.out)
    print(f"device: {json.dumps(h.device)}", flush=True)
    try:
        for p in a.attention_problems:
            h.attention(p)
        for p in a.gemm_problems:
            h.gemm(p)
    finally:
        records.close()
        write_atomic(os.path.join(a.out, "summary.md"), summary(a, h, records.all))
    return 1 if h.failed else 0


if __name__ == "__main__":
    sys.exit(main())
