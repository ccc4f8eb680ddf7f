#!/usr/bin/env python3
"""Attention baselines on the GPU host, for the same problems as sweep.py:
torch scaled_dot_product_attention with the cuDNN back end, and a Triton
FlashAttention-style kernel (written here, the usual online-softmax
formulation; best of a few block configurations). Each is checked against
SDPA's math back end in fp32 on a slice before it is timed.

  bench/attention/baselines.py --out DIR
"""
import argparse
import json
import math
import os
import sys

import torch
import triton
import triton.language as tl
from torch.nn.attention import SDPBackend, sdpa_kernel


@triton.jit
def _attn_fwd(Q, K, V, O, sm_scale, S, H,
              stride_z, stride_h, stride_s,
              D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_zh = tl.program_id(1)
    base = (off_zh // H) * stride_z + (off_zh % H) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + base + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = tl.minimum((start_m + 1) * BLOCK_M, S) if CAUSAL else S
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[:, None] * stride_s + offs_d[None, :],
                    mask=cols[:, None] < S, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        qk = tl.where(valid, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * stride_s + offs_d[None, :],
                    mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * stride_s + offs_d[None, :], acc.to(tl.bfloat16),
             mask=offs_m[:, None] < S)


def triton_attention(q, k, v, causal, bm, bn, warps, stages):
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(S, bm), B * H)
    _attn_fwd[grid](q, k, v, o, 1.0 / math.sqrt(D), S, H, q.stride(0), q.stride(1), q.stride(2),
                    D=D, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=warps, num_stages=stages)
    return o


def time_ms(fn, reps=30):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


PROBLEMS = [(4, 16, 8192, 128, False), (4, 16, 8192, 128, True),
            (4, 32, 8192, 64, False), (4, 32, 8192, 64, True),
            (4, 16, 8000, 128, False), (4, 16, 8000, 128, True),
            (4, 32, 8000, 64, False), (4, 32, 8000, 64, True)]
CONFIGS = [(128, 64, 8, 3), (128, 128, 8, 2), (128, 64, 4, 3)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(0)
    rows = []
    for B, H, S, D, causal in PROBLEMS:
        q, k, v = (torch.empty(B, H, S, D, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
                   for _ in range(3))
        flops = 4.0 * B * H * S * S * D * (0.5 if causal else 1.0)
        ref = torch.nn.functional.scaled_dot_product_attention(
            q[:1, :2].float(), k[:1, :2].float(), v[:1, :2].float(), is_causal=causal)
        row = {"B": B, "H": H, "S": S, "D": D, "causal": causal}
        try:
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                f = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                err = (f()[:1, :2].float() - ref).abs().max().item()
                ms = time_ms(f)
            row.update(cudnn_ms=ms, cudnn_tflops=flops / ms / 1e9, cudnn_max_err=err)
        except Exception as ex:
            row["cudnn_error"] = str(ex)[:300]
        best = None
        for bm, bn, warps, stages in CONFIGS:
            try:
                f = lambda: triton_attention(q, k, v, causal, bm, bn, warps, stages)
                err = (f()[:1, :2].float() - ref).abs().max().item()
                if err > 2e-2:
                    continue
                ms = time_ms(f)
                if best is None or ms < best[0]:
                    best = (ms, err, f"{bm}x{bn} w{warps} s{stages}")
            except Exception as ex:
                row.setdefault("triton_errors", []).append(str(ex)[:200])
        if best:
            row.update(triton_ms=best[0], triton_tflops=flops / best[0] / 1e9,
                       triton_max_err=best[1], triton_config=best[2])
        print(json.dumps(row), flush=True)
        rows.append(row)
        del q, k, v
    with open(os.path.join(a.out, "baselines.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    sys.exit(main())
