#!/usr/bin/env python3
"""On a GPU host with torch: checks exported Stagecraft packages (run-on-gpu.sh).

  check_exported.py --packages .dev/export --out python.json

For every package directory (a Python package written by
stagecraft-compile --export) it reads manifest.json's reference to know what
the kernel computes:
  attention: package.run(q, k, v) against torch's scaled_dot_product_attention
             (bf16 flash/cuDNN on the whole problem, fp32 math on a slice)
  gemm:      package.run(a, b) against a @ b.T (bf16), and fp32 on the whole
and then: argument errors on real tensors (wrong dtype, CPU tensor, misaligned
view, non-mergeable strides, wrong shape), each a Python exception, after
which a good call still works (no fault); a strided input; out= and a
side stream; the README's snippet run as written in a fresh process;
timings of the exported kernel and of torch on the same problem.

Pass criteria (the runner's): norm_rel <= 1e-2 and max_rel <= 5e-2 against the
fp32 reference, no non-finite values. Exit 0 when every check passed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as F

torch.backends.cuda.matmul.allow_tf32 = False

CHECKS = []


def record(name, ok, **detail):
    text = ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in detail.items())
    CHECKS.append({"name": name, "ok": bool(ok), "detail": text, **{
        k: v for k, v in detail.items() if isinstance(v, (int, float, str, bool))}})
    print(f"[{'ok' if ok else 'FAIL'}] {name}: {text}", flush=True)


def errors(out, ref):
    out = out.float()
    ref = ref.float()
    nonfinite = int((~torch.isfinite(out)).sum().item())
    diff = (out - ref).abs()
    max_rel = (diff.max() / ref.abs().max()).item()
    norm_rel = (torch.linalg.vector_norm(out - ref) / torch.linalg.vector_norm(ref)).item()
    return max_rel, norm_rel, nonfinite


def passes(max_rel, norm_rel, nonfinite):
    return nonfinite == 0 and norm_rel <= 1e-2 and max_rel <= 5e-2


def time_ms(fn, reps=20):
    fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def expect_error(name, exc_type, pattern, fn):
    try:
        fn()
    except exc_type as e:
        ok = re.search(pattern, str(e)) is not None
        record(name, ok, error=f"{type(e).__name__}: {e}")
        return
    except Exception as e:  # the wrong kind of error
        record(name, False, error=f"{type(e).__name__}: {e}")
        return
    record(name, False, error="no exception")


def fp32_attention(q, k, v, causal, scale):
    return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal,
                                          scale=scale)


def check_attention(name, pkg, ref):
    causal = bool(ref["causal"])
    scale = float(ref["sm_scale"])
    D = int(ref["head_dim"])
    dev = "cuda"
    shapes = [(int(ref["batch"]), int(ref["heads"]), int(ref["seq_q"])), (2, 8, 1000), (1, 3, 300)]
    for B, H, S in shapes:
        torch.manual_seed(B * 1000 + S)
        q, k, v = (torch.randn(B, H, S, D, device=dev, dtype=torch.bfloat16) for _ in range(3))
        o = pkg.run(q, k, v)
        torch.cuda.synchronize()
        # fp32 reference on a slice of heads (the whole problem's fp32 scores would not fit).
        hs = min(H, 2)
        r32 = fp32_attention(q[:1, :hs], k[:1, :hs], v[:1, :hs], causal, scale)
        max_rel, norm_rel, nonfinite = errors(o[:1, :hs], r32)
        sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
        max_rel_sdpa, norm_rel_sdpa, _ = errors(o, sdpa)
        ok = passes(max_rel, norm_rel, nonfinite) and o.shape == (B, H, S, D) and \
            torch.isfinite(o).all().item()
        flops = 4.0 * B * H * D * (S * (S + 1) / 2 if causal else S * S)
        ms = time_ms(lambda: pkg.run(q, k, v))
        ms_sdpa = time_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                                 scale=scale))
        record(f"{name} B{B} H{H} S{S} D{D}{' causal' if causal else ''} vs SDPA", ok,
               max_rel_fp32=max_rel, norm_rel_fp32=norm_rel, nonfinite=nonfinite,
               max_rel_vs_sdpa_bf16=max_rel_sdpa, norm_rel_vs_sdpa_bf16=norm_rel_sdpa,
               tflops=flops / ms * 1e-9, sdpa_tflops=flops / ms_sdpa * 1e-9, ms=ms,
               sdpa_ms=ms_sdpa)

    # Merged [B*H, S, D] views, out=, a side stream.
    B, H, S = 2, 4, 512
    q, k, v = (torch.randn(B, H, S, D, device=dev, dtype=torch.bfloat16) for _ in range(3))
    out = torch.empty(B * H, S, D, device=dev, dtype=torch.bfloat16)
    stream = torch.cuda.Stream()
    # The inputs were made on the current stream: the side stream waits for them.
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        got = pkg.run(q.view(B * H, S, D), k.view(B * H, S, D), v.view(B * H, S, D), out=out,
                      B=B, H=H, stream=stream)
    stream.synchronize()
    r32 = fp32_attention(q, k, v, causal, scale).reshape(B * H, S, D)
    e = errors(out, r32)
    record(f"{name} merged views, out=, side stream", passes(*e) and got is out,
           max_rel=e[0], norm_rel=e[1])

    # A strided input TMA can read: K inside a buffer with padded rows.
    kbig = torch.randn(B, H, S, D + 64, device=dev, dtype=torch.bfloat16)
    ks = kbig[..., :D]
    o = pkg.run(q, ks, v)
    e = errors(o, fp32_attention(q, ks, v, causal, scale))
    record(f"{name} strided K (rows of {D + 64})", passes(*e), max_rel=e[0], norm_rel=e[1])

    # Argument errors: each a Python exception, never a fault.
    expect_error(f"{name} float16 K", TypeError, r"K has dtype torch.float16",
                 lambda: pkg.run(q, k.half(), v))
    expect_error(f"{name} CPU V", ValueError, r"V is on the cpu device", lambda: pkg.run(q, k, v.cpu()))
    flat = torch.empty(q.numel() + 8, device=dev, dtype=torch.bfloat16)
    misaligned = flat[1:1 + q.numel()].view(q.shape)
    misaligned.copy_(q)
    expect_error(f"{name} misaligned Q", ValueError, r"not 16-byte aligned",
                 lambda: pkg.run(misaligned, k, v))
    expect_error(f"{name} transposed K", ValueError, r"must be contiguous",
                 lambda: pkg.run(q, k.transpose(1, 2).contiguous().transpose(1, 2), v))
    expect_error(f"{name} wrong head dim", ValueError, r"has shape",
                 lambda: pkg.run(q, k[..., :D // 2].contiguous(), v))
    expect_error(f"{name} S mismatch", ValueError, r"size S is",
                 lambda: pkg.run(q, k[:, :, :S // 2].contiguous(), v))
    o = pkg.run(q, k, v)
    torch.cuda.synchronize()
    e = errors(o, fp32_attention(q, k, v, causal, scale))
    record(f"{name} a good call after the errors", passes(*e), max_rel=e[0], norm_rel=e[1])


def check_gemm(name, pkg, ref):
    dev = "cuda"
    transpose_b = bool(ref.get("transpose_b", True))
    shapes = [(int(ref["M"]), int(ref["N"]), int(ref["K"])), (8000, 8064, 4000), (256, 256, 64),
              (300, 520, 72)]
    for M, N, K in shapes:
        torch.manual_seed(M + N + K)
        a = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
        b = torch.randn(N, K, device=dev, dtype=torch.bfloat16) if transpose_b else \
            torch.randn(K, N, device=dev, dtype=torch.bfloat16)
        c = pkg.run(a, b)
        torch.cuda.synchronize()
        bt = b.T if transpose_b else b
        r32 = a.float() @ bt.float()
        e = errors(c, r32)
        e_torch = errors(c, a @ bt)
        flops = 2.0 * M * N * K
        ms = time_ms(lambda: pkg.run(a, b))
        ms_torch = time_ms(lambda: a @ bt)
        record(f"{name} {M}x{N}x{K} vs a @ b{'.T' if transpose_b else ''}",
               passes(*e) and c.shape == (M, N), max_rel_fp32=e[0], norm_rel_fp32=e[1],
               nonfinite=e[2], max_rel_vs_torch_bf16=e_torch[0], tflops=flops / ms * 1e-9,
               torch_tflops=flops / ms_torch * 1e-9, ms=ms, torch_ms=ms_torch)
    a = torch.randn(512, 256, device=dev, dtype=torch.bfloat16)
    b = torch.randn(384, 256, device=dev, dtype=torch.bfloat16)
    expect_error(f"{name} K=4001 (row stride not a multiple of 16 bytes)", ValueError,
                 r"multiple of 16 bytes",
                 lambda: pkg.run(torch.randn(512, 4001, device=dev, dtype=torch.bfloat16),
                                 torch.randn(384, 4001, device=dev, dtype=torch.bfloat16)))
    expect_error(f"{name} float32 A", TypeError, r"A has dtype torch.float32",
                 lambda: pkg.run(a.float(), b))
    expect_error(f"{name} K mismatch", ValueError, r"size K is", lambda: pkg.run(a, b[:, :128]))
    expect_error(f"{name} transposed A", ValueError, r"innermost dimension must be dense",
                 lambda: pkg.run(a.T.contiguous().T, b))
    c = pkg.run(a, b)
    e = errors(c, a.float() @ (b.T if transpose_b else b).float())
    record(f"{name} a good call after the errors", passes(*e), max_rel=e[0], norm_rel=e[1])


def check_fp8_gemm(name, pkg, ref):
    """An exported FP8 GEMM (the gemm_fp8 peer: C = sa sb A B^T, e4m3 A and B, per-tensor
    scales) against the same product in fp32 of the same FP8 values, and timed beside
    torch._scaled_mm."""
    dev = "cuda"
    f8 = torch.float8_e4m3fn
    for M, N, K in [(int(ref["M"]), int(ref["N"]), int(ref["K"])), (1000, 1024, 512),
                    (256, 256, 128)]:
        torch.manual_seed(M + N + K)
        a = torch.randn(M, K, device=dev).to(f8)
        b = torch.randn(N, K, device=dev).to(f8)
        sa = torch.tensor([0.5], device=dev)
        sb = torch.tensor([2.0], device=dev)
        c = pkg.run(a, b, sa, sb)
        torch.cuda.synchronize()
        e = errors(c, (a.float() @ b.float().T) * 1.0)
        flops = 2.0 * M * N * K
        ms = time_ms(lambda: pkg.run(a, b, sa, sb))
        try:
            ms_torch = time_ms(lambda: torch._scaled_mm(a, b.T, scale_a=sa, scale_b=sb,
                                                        out_dtype=torch.bfloat16))
        except Exception:  # noqa: BLE001 (a torch without _scaled_mm here: no peer time)
            ms_torch = float("nan")
        record(f"{name} {M}x{N}x{K} vs sa sb A B^T in fp32", passes(*e) and c.shape == (M, N),
               max_rel=e[0], norm_rel=e[1], nonfinite=e[2], tflops=flops / ms * 1e-9,
               torch_scaled_mm_tflops=flops / ms_torch * 1e-9, ms=ms)
    expect_error(f"{name} bf16 A", TypeError, r"A has dtype torch.bfloat16",
                 lambda: pkg.run(a.to(torch.bfloat16), b, sa, sb))


def check_fp8_output(name, pkg, man):
    """An exported kernel with an e4m3 output (bench/unseen/fp8-out-2026-11-28's FP8 GEMM:
    C = e4m3(sa sb A B^T / sc)) against torch: the fp32 product, saturated at 448 and rounded
    to e4m3 by torch, within the tolerance the compiler gave its IR check."""
    dev = "cuda"
    f8 = torch.float8_e4m3fn
    tol = man["reference"]["outputs"][0]
    for M, N, K in [(4096, 4096, 4096), (1000, 1024, 512)]:
        torch.manual_seed(M + N + K)
        a = torch.randn(M, K, device=dev).to(f8)
        b = torch.randn(N, K, device=dev).to(f8)
        sa, sb, sc = (torch.tensor([x], device=dev) for x in (0.5, 2.0, 4.0))
        c = pkg.run(a, b, sa, sb, sc)
        torch.cuda.synchronize()
        ref = ((a.float() @ b.float().T) / 4.0).clamp(-448, 448).to(f8).float()
        e = errors(c.float(), ref)
        ok = (c.dtype == f8 and e[2] == 0 and e[1] <= tol["norm_rel_tol"] and
              e[0] <= tol["max_rel_tol"])
        ms = time_ms(lambda: pkg.run(a, b, sa, sb, sc))
        record(f"{name} {M}x{N}x{K} e4m3 output vs torch's rounding", ok, dtype=str(c.dtype),
               max_rel=e[0], norm_rel=e[1], nonfinite=e[2], norm_tol=tol["norm_rel_tol"],
               max_tol=tol["max_rel_tol"], tflops=2.0 * M * N * K / ms * 1e-9)


def check_snippet(name, package_dir, kind):
    """The README's Python snippet, with PARENT filled in, in a fresh process."""
    readme = open(os.path.join(package_dir, "README.md")).read()
    m = re.search(r"```python\n(.*?)```", readme, re.S)
    if not m:
        record(f"{name} README snippet", False, error="no python block")
        return
    code = m.group(1).replace('"PARENT"', repr(os.path.dirname(os.path.abspath(package_dir))))
    lines = [l for l in code.splitlines() if l.strip()]
    code += ("torch.cuda.synchronize()\n"
             "print('ran', tuple(out.shape), bool(torch.isfinite(out.float()).all()))\n")
    t = time.time()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    ok = r.returncode == 0 and "True" in r.stdout
    record(f"{name} README snippet ({len(lines)} lines) in a fresh process", ok,
           stdout=r.stdout.strip(), stderr=r.stderr.strip()[-300:], seconds=time.time() - t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packages", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.packages))
    device = torch.cuda.get_device_name(0)
    print(f"device: {device}", flush=True)
    for name in sorted(os.listdir(args.packages)):
        d = os.path.join(args.packages, name)
        if not os.path.isfile(os.path.join(d, "__init__.py")):
            continue
        man = json.load(open(os.path.join(d, "manifest.json")))
        ref = man.get("peer") or man["reference"]
        try:
            t = time.time()
            pkg = __import__(name)
            record(f"{name} import", True, seconds=time.time() - t)
            if ref["kind"] == "attention":
                check_attention(name, pkg, ref)
            elif ref["kind"] == "gemm":
                check_gemm(name, pkg, ref)
            elif ref["kind"] == "gemm_fp8":
                check_fp8_gemm(name, pkg, ref)
            elif name == "fp8_out":
                check_fp8_output(name, pkg, man)
            else:
                record(f"{name}", False, error=f"no check for reference kind {ref['kind']}")
            check_snippet(name, d, ref["kind"])
        except Exception as e:
            record(f"{name}", False, error=f"{type(e).__name__}: {e}",
                   trace=traceback.format_exc()[-800:])
    ok = all(c["ok"] for c in CHECKS)
    with open(args.out, "w") as f:
        json.dump({"device": device, "torch": torch.__version__, "ok": ok, "checks": CHECKS}, f,
                  indent=1)
    print(f"{sum(c['ok'] for c in CHECKS)}/{len(CHECKS)} checks passed", flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
