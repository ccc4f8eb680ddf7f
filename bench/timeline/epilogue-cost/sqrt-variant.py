#!/usr/bin/env python3
"""Writes the SwiGLU dual GEMM of bench/unseen with its SiLU replaced by a square root,
C = sqrt(|A W1^T|) * (A W2^T) + R: an epilogue of 64 square roots a thread, to time IEEE
sqrt.rn.f32 against sqrt.approx.f32 (bench/results/epilogue-cost-h100-2026-11-27).

    python3 sqrt-variant.py OUT.mlir
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ir = open(os.path.join(ROOT, "bench", "unseen", "swiglu_dual_gemm.mlir")).read()
old = """    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %ng = arith.negf %acc#0 : tensor<128x128xf32>
    %e = math.exp %ng : tensor<128x128xf32>
    %den = arith.addf %one, %e : tensor<128x128xf32>
    %silu = arith.divf %acc#0, %den : tensor<128x128xf32>
    %h = arith.mulf %silu, %acc#1 : tensor<128x128xf32>"""
new = """    %ag = math.absf %acc#0 : tensor<128x128xf32>
    %sq = math.sqrt %ag : tensor<128x128xf32>
    %h = arith.mulf %sq, %acc#1 : tensor<128x128xf32>"""
if old not in ir:
    sys.exit("bench/unseen/swiglu_dual_gemm.mlir changed: its SiLU is not where this script looks")
open(sys.argv[1], "w").write(ir.replace(old, new))
