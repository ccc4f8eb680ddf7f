#!/usr/bin/env python3
"""Generates kernel variants the way users change the bundled kernels in their
first hour: another dtype, operand layout, epilogue, tile shape, mask, head
layout, a second output, and another schedule. Each is compiled by the tests
(ptxas-clean, no spills) and verified on a GPU against its own IR reference
by bench/variants/run-on-gpu.sh.

  make_variants.py OUT_DIR [--set ci|gpu|all]

writes OUT_DIR/<name>.mlir (and <name>.schedule.json when the schedule is not
the IR's own) and OUT_DIR/variants.json: [{name, file, schedule, sizes, kind}].
The sets: `ci` samples the matrix (every value of every axis at least once,
a few pairs), `gpu` is what the GPU bench verifies, `all` is the full product.
"""
import argparse
import itertools
import json
import math
import os
import sys

LOG2E = 1.4426950408889634


def f32(v):
    return repr(float(v))


# --------------------------------------------------------------------------
# GEMM: C = epilogue(A B), A [M,K] or [K,M], B [N,K] or [K,N].
# --------------------------------------------------------------------------
GEMM_TILES = {  # name: (BM, BN, consumer warp groups)
    "128x256": (128, 256, 2),
    "128x128": (128, 128, 2),
    "64x128": (64, 128, 1),
    "128x128w1": (128, 128, 1),  # one warp group, two 64-row blocks
    "64x256": (64, 256, 1),
    "64x24": (64, 24, 1),  # a narrow output: stmatrix x4 and x2 in one panel
    "128x96": (128, 96, 2),  # 192-byte rows: three 64-byte swizzled panels
}
GEMM_EPILOGUES = ["none", "relu", "bias_relu", "rowscale", "gelu_tanh", "tensorscale"]
# Operand dtypes: the name in a variant's name and the MLIR element type. FP8
# takes K steps of 128 (one 128-byte row) and, on sm_90a, K-major operands.
GEMM_DTYPES = {"bf16": "bf16", "f16": "f16", "e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}
FP8 = ("e4m3", "e5m2")
GEMM_SCHEDULES = ["ws_ahead2", "ws_ahead1", "one_group"]


def registers_attr(registers):
    """The kernel attribute of chosen register budgets (setmaxnreg), or ""."""
    if not registers:
        return ""
    return f",\n                  tile.registers = array<i64: {', '.join(map(str, registers))}>"


def registers_suffix(registers):
    return "_r" + "_".join(map(str, registers)) if registers else ""


def gemm(dtype="bf16", a_major="K", b_major="K", epilogue="none", out="bf16",
         tile="128x256", schedule="ws_ahead2", bk=None, registers=None):
    bm, bn, wgs = GEMM_TILES[tile]
    t = GEMM_DTYPES[dtype]
    default_bk = 128 if dtype in FP8 else 64
    name = (f"gemm_{dtype}_a{a_major}_b{b_major}_{epilogue}_{out}_{tile}_{schedule}"
            + (f"_bk{bk}" if bk and bk != default_bk else "") + registers_suffix(registers))
    bk = bk or default_bk
    args, loads = [], []
    if a_major == "K":
        args.append(f"%A: !tile.desc<{bm}x{bk}x{t}> {{tile.shape = affine_map<()[M, N, K] -> (M, K)>}}")
        a_load = f"tile.load %A[%m0, %k] {{SCHED_A}} : !tile.desc<{bm}x{bk}x{t}> -> tensor<{bm}x{bk}x{t}>"
        a_type = f"tensor<{bm}x{bk}x{t}>"
    else:
        args.append(f"%A: !tile.desc<{bk}x{bm}x{t}> {{tile.shape = affine_map<()[M, N, K] -> (K, M)>}}")
        a_load = f"tile.load %A[%k, %m0] {{SCHED_A}} : !tile.desc<{bk}x{bm}x{t}> -> tensor<{bk}x{bm}x{t}>"
        a_type = f"tensor<{bk}x{bm}x{t}>"
    if b_major == "K":
        args.append(f"%B: !tile.desc<{bn}x{bk}x{t}> {{tile.shape = affine_map<()[M, N, K] -> (N, K)>}}")
        b_load = f"tile.load %B[%n0, %k] {{SCHED_B}} : !tile.desc<{bn}x{bk}x{t}> -> tensor<{bn}x{bk}x{t}>"
        b_type = f"tensor<{bn}x{bk}x{t}>"
    else:
        args.append(f"%B: !tile.desc<{bk}x{bn}x{t}> {{tile.shape = affine_map<()[M, N, K] -> (K, N)>}}")
        b_load = f"tile.load %B[%k, %n0] {{SCHED_B}} : !tile.desc<{bk}x{bn}x{t}> -> tensor<{bk}x{bn}x{t}>"
        b_type = f"tensor<{bk}x{bn}x{t}>"
    if epilogue == "bias_relu":
        args.append(f"%Bias: !tile.desc<{bn}xf32> {{tile.shape = affine_map<()[M, N, K] -> (N)>}}")
    if epilogue == "rowscale":
        args.append(f"%Scale: !tile.desc<{bm}xf32> {{tile.shape = affine_map<()[M, N, K] -> (M)>}}")
    if epilogue == "tensorscale":  # torch._scaled_mm's per-tensor scales
        args.append("%SA: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>}")
        args.append("%SB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>}")
    args.append(f"%C: !tile.desc<{bm}x{bn}x{out}> {{tile.shape = affine_map<()[M, N, K] -> (M, N)>}}")
    args += ['%M: index {tile.size = "M"}', '%N: index {tile.size = "N"}', '%K: index {tile.size = "K"}']

    attrs = []
    if a_major == "M":
        attrs.append("transpose_a")
    if b_major == "K":
        attrs.append("transpose_b")
    if schedule == "one_group":
        groups, lg, mg = f"{wgs}", 0, 0
    else:
        groups, lg, mg = f"1, {wgs}", 0, 1
    mma_stage, wait = {"ws_ahead2": (2, 1), "ws_ahead1": (1, 0), "one_group": (2, 1)}[schedule]
    sched = lambda n, st, o, g, w=None: (
        f'tile.sched = #tile.sched<"{n}", stage = {st}, order = {o}, group = {g}'
        + (f", wait = {w}" if w else "") + ">")
    a_load = a_load.replace("{SCHED_A}", "{" + sched("loadA", 0, 1, lg) + "}")
    b_load = b_load.replace("{SCHED_B}", "{" + sched("loadB", 0, 2, lg) + "}")
    dot_attrs = ", ".join(attrs + [sched("MMA", mma_stage, 0, mg, wait)])

    acc = f"tensor<{bm}x{bn}xf32>"
    epi = []
    v = "%acc"
    if epilogue == "relu":
        epi.append(f"%r = arith.maximumf {v}, %zero : {acc}")
        v = "%r"
    elif epilogue == "bias_relu":
        epi += [f"%bias = tile.load %Bias[%n0] : !tile.desc<{bn}xf32> -> tensor<{bn}xf32>",
                f"%bb = tile.broadcast %bias, dim = 0 : tensor<{bn}xf32> -> {acc}",
                f"%s = arith.addf {v}, %bb : {acc}",
                f"%r = arith.maximumf %s, %zero : {acc}"]
        v = "%r"
    elif epilogue == "rowscale":
        epi += [f"%rs = tile.load %Scale[%m0] : !tile.desc<{bm}xf32> -> tensor<{bm}xf32>",
                f"%rb = tile.broadcast %rs, dim = 1 : tensor<{bm}xf32> -> {acc}",
                f"%r = arith.mulf {v}, %rb : {acc}"]
        v = "%r"
    elif epilogue == "tensorscale":
        epi += ["%sat = tile.load %SA[%c0] : !tile.desc<4xf32> -> tensor<4xf32>",
                "%sbt = tile.load %SB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>",
                "%sa = tensor.extract %sat[%c0] : tensor<4xf32>",
                "%sb = tensor.extract %sbt[%c0] : tensor<4xf32>",
                "%sab = arith.mulf %sa, %sb : f32",
                f"%ss = tensor.splat %sab : {acc}",
                f"%r = arith.mulf {v}, %ss : {acc}"]
        v = "%r"
    elif epilogue == "gelu_tanh":
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        epi += [f"%c0_5 = arith.constant dense<0.5> : {acc}",
                f"%c1 = arith.constant dense<1.0> : {acc}",
                f"%ck = arith.constant dense<0.7978845608028654> : {acc}",
                f"%cc = arith.constant dense<0.044715> : {acc}",
                f"%x2 = arith.mulf {v}, {v} : {acc}",
                f"%x3 = arith.mulf %x2, {v} : {acc}",
                f"%t0 = arith.mulf %x3, %cc : {acc}",
                f"%t1 = arith.addf {v}, %t0 : {acc}",
                f"%t2 = arith.mulf %t1, %ck : {acc}",
                f"%t3 = math.tanh %t2 : {acc}",
                f"%t4 = arith.addf %t3, %c1 : {acc}",
                f"%t5 = arith.mulf {v}, %t4 : {acc}",
                f"%r = arith.mulf %t5, %c0_5 : {acc}"]
        v = "%r"
    if out != "f32":
        epi.append(f"%cv = arith.truncf {v} : {acc} to tensor<{bm}x{bn}x{out}>")
        v = "%cv"
    epi.append(f"tile.store %C[%m0, %n0], {v} : !tile.desc<{bm}x{bn}x{out}>, tensor<{bm}x{bn}x{out}>")

    text = f"""// Generated by test/variants/make_variants.py: {name}
module {{
  func.func @{name}(
      {(","+chr(10)+"      ").join(args)})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv {bm}, N ceildiv {bn})>,
                  tile.defaults = {{M = 1000 : i64, N = 1048 : i64, K = 528 : i64}},
                  tile.warpgroups = array<i64: {groups}>{registers_attr(registers)}}} {{
    %c0 = arith.constant 0 : index
    %cbk = arith.constant {bk} : index
    %cbm = arith.constant {bm} : index
    %cbn = arith.constant {bn} : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cbm : index
    %n0 = arith.muli %pn, %cbn : index
    %zero = arith.constant dense<0.000000e+00> : {acc}
    %acc = scf.for %k = %c0 to %K step %cbk iter_args(%c = %zero) -> ({acc}) {{
      %a = {a_load}
      %b = {b_load}
      %d = tile.dot %a, %b, %c {{{dot_attrs}}} : {a_type}, {b_type} -> {acc}
      scf.yield %d : {acc}
    }}
    {(chr(10)+"    ").join(epi)}
    return
  }}
}}
"""
    return name, text


# --------------------------------------------------------------------------
# Attention forward: softmax(mask(Q K^T scale)) V, online softmax.
# --------------------------------------------------------------------------
ATTN_SCHEDULES = {
    # name: {unit: (stage, order, group)}
    "default": {"MMA0": (1, 0, 1), "Softmax": (1, 1, 1), "MUL": (1, 2, 1), "MMA1": (1, 3, 1),
                "loadK": (0, 4, 0), "loadV": (0, 5, 0)},
    "cp_dot1_s3": {"MMA0": (2, 0, 1), "MMA1": (3, 1, 1), "Softmax": (2, 2, 1), "MUL": (2, 3, 1),
                   "loadK": (0, 4, 0), "loadV": (1, 5, 0)},
    "cp_dot0_s2": {"MMA0": (2, 0, 1), "Softmax": (3, 1, 1), "MUL": (3, 2, 1), "MMA1": (3, 3, 1),
                   "loadK": (0, 4, 0), "loadV": (1, 5, 0)},
    "ahead2": {"MMA0": (2, 0, 1), "Softmax": (2, 1, 1), "MUL": (2, 2, 1), "MMA1": (2, 3, 1),
               "loadK": (0, 4, 0), "loadV": (0, 5, 0)},
}
ATTN_MASKS = ["none", "causal", "window", "alibi", "softcap"]


def attention(d=128, bn=128, bm=128, wgs=2, dtype="bf16", out=None, mask="none", group=1,
              lse=False, schedule="default", window=256, cap=30.0, registers=None):
    out = out or dtype
    t = dtype
    name = (f"attn_d{d}_bn{bn}_bm{bm}w{wgs}_{dtype}_{out}_{mask}"
            + (f"_gqa{group}" if group > 1 else "") + ("_lse" if lse else "") + f"_{schedule}"
            + registers_suffix(registers))
    sc = ATTN_SCHEDULES[schedule]
    sched = lambda unit: (f'tile.sched = #tile.sched<"{unit}", stage = {sc[unit][0]}, '
                          f'order = {sc[unit][1]}, group = {sc[unit][2]}>')
    S = f"tensor<{bm}x{bn}xf32>"
    R = f"tensor<{bm}xf32>"
    O = f"tensor<{bm}x{d}xf32>"
    kv_rows = "B * H" if group == 1 else f"B * (H floordiv {group})"
    args = [f"%Q: !tile.desc<1x{bm}x{d}x{t}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {d})>}}",
            f"%K: !tile.desc<1x{bn}x{d}x{t}> {{tile.shape = affine_map<()[B, H, S] -> ({kv_rows}, S, {d})>}}",
            f"%V: !tile.desc<1x{bn}x{d}x{t}> {{tile.shape = affine_map<()[B, H, S] -> ({kv_rows}, S, {d})>}}",
            f"%O: !tile.desc<1x{bm}x{d}x{out}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {d})>}}"]
    if lse:
        args.append(f"%LSE: !tile.desc<1x{bm}xf32> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S)>}}")
    args += ['%B: index {tile.size = "B"}', '%H: index {tile.size = "H"}', '%S: index {tile.size = "S"}']

    pre = [f"%c0 = arith.constant 0 : index",
           f"%cbm = arith.constant {bm} : index",
           f"%cbn = arith.constant {bn} : index",
           f"%qblk = tile.program_id 0 : index",
           f"%bh = tile.program_id 1 : index",
           f"%q0 = arith.muli %qblk, %cbm : index"]
    kvh = "%bh"
    if group > 1:
        pre += [f"%cg = arith.constant {group} : index",
                # (b, h) -> (b, h / group): bh = b*H + h, kv = b*(H/g) + h/g = bh / g when g | H
                f"%kvh = arith.divui %bh, %cg : index"]
        kvh = "%kvh"
    pre += [f"%q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x{bm}x{d}x{t}> -> tensor<{bm}x{d}x{t}>",
            f"%zero_s = arith.constant dense<0.0> : {S}",
            f"%zero_o = arith.constant dense<0.0> : {O}",
            f"%m_init = arith.constant dense<0xFF800000> : {R}",
            f"%l_init = arith.constant dense<0.0> : {R}",
            # A mask that can hide every key of a block from a row (a window)
            # fills a large finite negative: with -inf, a row's first block
            # would give exp2(-inf - (-inf)) = NaN; its weights are rescaled
            # to 0 once a real key raises the row max.
            f"%ninf = arith.constant dense<-1.0e30> : {S}"]
    scale = LOG2E / math.sqrt(d)
    lo, hi = "%c0", "%S"
    if mask in ("causal", "window"):
        pre += [f"%q_end = arith.addi %q0, %cbm : index", f"%hi = arith.minui %q_end, %S : index"]
        hi = "%hi"
    if mask == "window":
        # Keys q - window < j <= q: blocks from the one holding q0 - window + 1.
        pre += [f"%cw = arith.constant {window} : index",
                f"%cw1 = arith.constant {window - 1} : index",
                f"%lo_raw = arith.subi %q0, %cw1 : index",
                f"%lo_pos = arith.maxsi %lo_raw, %c0 : index",
                f"%lo_blk = arith.divui %lo_pos, %cbn : index",
                f"%lo = arith.muli %lo_blk, %cbn : index"]
        lo = "%lo"
    if mask == "alibi":
        # slope_h = 2^(-8 (h + 1) / H), applied as slope (key - query), in log2 units.
        pre += [f"%hh = arith.remui %bh, %H : index",
                f"%hi32 = arith.index_cast %hh : index to i32",
                f"%Hi32 = arith.index_cast %H : index to i32",
                f"%hf = arith.sitofp %hi32 : i32 to f32",
                f"%Hf = arith.sitofp %Hi32 : i32 to f32",
                f"%one = arith.constant 1.0 : f32",
                f"%m8 = arith.constant -8.0 : f32",
                f"%l2e = arith.constant {f32(LOG2E)} : f32",
                f"%h1 = arith.addf %hf, %one : f32",
                f"%e0 = arith.mulf %h1, %m8 : f32",
                f"%e1 = arith.divf %e0, %Hf : f32",
                f"%slope = math.exp2 %e1 : f32",
                f"%slope2 = arith.mulf %slope, %l2e : f32",
                f"%slopes = tensor.splat %slope2 : {S}"]
    if mask == "softcap":
        pre += [f"%capin = arith.constant dense<{f32(1.0 / (math.sqrt(d) * cap))}> : {S}",
                f"%capout = arith.constant dense<{f32(cap * LOG2E)}> : {S}"]
    else:
        pre.append(f"%scale = arith.constant dense<{f32(scale)}> : {S}")

    sm = lambda: "{" + sched("Softmax") + "}"
    body = [f"%k = tile.load %K[{kvh}, %j, %c0] {{{sched('loadK')}}} : !tile.desc<1x{bn}x{d}x{t}> -> tensor<{bn}x{d}x{t}>",
            f"%s = tile.dot %q, %k, %zero_s {{transpose_b, {sched('MMA0')}}} : tensor<{bm}x{d}x{t}>, tensor<{bn}x{d}x{t}> -> {S}"]
    if mask == "none":
        body += [f"%sm = tile.mask %s, %q0, %j, %S {sm()} : {S}",
                 f"%ss = arith.mulf %sm, %scale {sm()} : {S}"]
    elif mask == "causal":
        body += [f"%sm = tile.mask %s, %q0, %j, %S {{causal, {sched('Softmax')}}} : {S}",
                 f"%ss = arith.mulf %sm, %scale {sm()} : {S}"]
    elif mask == "window":
        body += [f"%rows = tile.iota %q0, dim = 0 {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%cols = tile.iota %j, dim = 1 {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%dist = arith.subi %rows, %cols {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%zi = arith.constant dense<0> : tensor<{bm}x{bn}xi32>",
                 f"%wi = arith.constant dense<{window}> : tensor<{bm}x{bn}xi32>",
                 f"%Si = arith.index_cast %S : index to i32",
                 f"%Ssplat = tensor.splat %Si {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%past = arith.cmpi sge, %dist, %zi {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%near = arith.cmpi slt, %dist, %wi {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%inkv = arith.cmpi slt, %cols, %Ssplat {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%ok0 = arith.andi %past, %near {sm()} : tensor<{bm}x{bn}xi1>",
                 f"%ok = arith.andi %ok0, %inkv {sm()} : tensor<{bm}x{bn}xi1>",
                 f"%sm = arith.select %ok, %s, %ninf {sm()} : tensor<{bm}x{bn}xi1>, {S}",
                 f"%ss = arith.mulf %sm, %scale {sm()} : {S}"]
    elif mask == "alibi":
        body += [f"%sm = tile.mask %s, %q0, %j, %S {sm()} : {S}",
                 f"%ss0 = arith.mulf %sm, %scale {sm()} : {S}",
                 f"%rows = tile.iota %q0, dim = 0 {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%cols = tile.iota %j, dim = 1 {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%rel = arith.subi %cols, %rows {sm()} : tensor<{bm}x{bn}xi32>",
                 f"%relf = arith.sitofp %rel {sm()} : tensor<{bm}x{bn}xi32> to {S}",
                 f"%bias = arith.mulf %relf, %slopes {sm()} : {S}",
                 f"%ss = arith.addf %ss0, %bias {sm()} : {S}"]
    elif mask == "softcap":
        # cap tanh(s / (sqrt(d) cap)), then the key mask, in log2 units.
        body += [f"%t0 = arith.mulf %s, %capin {sm()} : {S}",
                 f"%t1 = math.tanh %t0 {sm()} : {S}",
                 f"%t2 = arith.mulf %t1, %capout {sm()} : {S}",
                 f"%ss = tile.mask %t2, %q0, %j, %S {sm()} : {S}"]
    body += [f"%mx = tile.reduce max %ss, dim = 1 {sm()} : {S} -> {R}",
             f"%mn = arith.maximumf %m, %mx {sm()} : {R}",
             f"%mnb = tile.broadcast %mn, dim = 1 {sm()} : {R} -> {S}",
             f"%dd = arith.subf %ss, %mnb {sm()} : {S}",
             f"%p = math.exp2 %dd {sm()} : {S}",
             f"%ps = tile.reduce sum %p, dim = 1 {sm()} : {S} -> {R}",
             f"%dm = arith.subf %m, %mn {sm()} : {R}",
             f"%alpha = math.exp2 %dm {sm()} : {R}",
             f"%la = arith.mulf %l, %alpha {sm()} : {R}",
             f"%ln = arith.addf %la, %ps {sm()} : {R}",
             f"%pb = arith.truncf %p {sm()} : {S} to tensor<{bm}x{bn}x{t}>",
             f"%ab = tile.broadcast %alpha, dim = 1 {{{sched('MUL')}}} : {R} -> {O}",
             f"%accs = arith.mulf %acc, %ab {{{sched('MUL')}}} : {O}",
             f"%v = tile.load %V[{kvh}, %j, %c0] {{{sched('loadV')}}} : !tile.desc<1x{bn}x{d}x{t}> -> tensor<{bn}x{d}x{t}>",
             f"%acc2 = tile.dot %pb, %v, %accs {{{sched('MMA1')}}} : tensor<{bm}x{bn}x{t}>, tensor<{bn}x{d}x{t}> -> {O}",
             f"scf.yield %acc2, %mn, %ln : {O}, {R}, {R}"]
    post = [f"%lb = tile.broadcast %res#2, dim = 1 : {R} -> {O}",
            f"%o = arith.divf %res#0, %lb : {O}"]
    ov = "%o"
    if out != "f32":
        post.append(f"%ob = arith.truncf %o : {O} to tensor<{bm}x{d}x{out}>")
        ov = "%ob"
    post.append(f"tile.store %O[%bh, %q0, %c0], {ov} : !tile.desc<1x{bm}x{d}x{out}>, tensor<{bm}x{d}x{out}>")
    if lse:
        # logsumexp in natural units: (m + log2 l) ln 2.
        post += [f"%l2 = math.log2 %res#2 : {R}",
                 f"%m2 = arith.addf %res#1, %l2 : {R}",
                 f"%ln2 = arith.constant dense<{f32(math.log(2))}> : {R}",
                 f"%lse = arith.mulf %m2, %ln2 : {R}",
                 f"tile.store %LSE[%bh, %q0], %lse : !tile.desc<1x{bm}xf32>, {R}"]
    nl = "\n    "
    nl6 = "\n      "
    text = f"""// Generated by test/variants/make_variants.py: {name}
module {{
  func.func @{name}(
      {("," + chr(10) + "      ").join(args)})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv {bm}, B * H)>,
                  tile.defaults = {{B = 2 : i64, H = 8 : i64, S = 1000 : i64}},
                  tile.warpgroups = array<i64: 1, {wgs}>{registers_attr(registers)}}} {{
    {nl.join(pre)}
    %res:3 = scf.for %j = {lo} to {hi} step %cbn
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init) -> ({O}, {R}, {R}) {{
      {nl6.join(body)}
    }}
    {nl.join(post)}
    return
  }}
}}
"""
    return name, text


# --------------------------------------------------------------------------
# The sets.
# --------------------------------------------------------------------------
def gemm_axes():
    return {"dtype": list(GEMM_DTYPES), "a_major": ["K", "M"], "b_major": ["K", "N"],
            "epilogue": GEMM_EPILOGUES, "out": ["bf16", "f16", "f32"],
            "tile": list(GEMM_TILES), "schedule": GEMM_SCHEDULES}


def attention_axes():
    return {"d": [64, 128], "bn": [64, 128], "shape": [(128, 2), (64, 1)],
            "dtype": ["bf16", "f16"], "out": [None, "f32"], "mask": ATTN_MASKS,
            "group": [1, 4], "lse": [False, True], "schedule": list(ATTN_SCHEDULES)}


def gemm_ok(v):
    bm, bn, wgs = GEMM_TILES[v["tile"]]
    # FP8 wgmma reads K-major operands only (the refusal is tested in lit).
    if v["dtype"] in FP8 and (v["a_major"] != "K" or v["b_major"] != "K"):
        return False
    # An f32 128x256 output staged in shared memory next to four 48 KiB
    # copies does not fit; the test of that refusal lives in lit.
    if v["out"] == "f32" and bm * bn * 4 > 64 * 1024 and v["schedule"] != "ws_ahead1":
        return False
    return True


def covering(axes, ok, pairs=()):
    """Every value of every axis at least once, then the given pairs of axes
    in full; other axes take their first value."""
    base = {k: vals[0] for k, vals in axes.items()}
    out, seen = [], set()

    def add(v):
        key = json.dumps(v, sort_keys=True, default=str)
        if ok(v) and key not in seen:
            seen.add(key)
            out.append(dict(v))
    add(base)
    for k, vals in axes.items():
        for val in vals:
            add({**base, k: val})
    for a, b in pairs:
        for va in axes[a]:
            for vb in axes[b]:
                add({**base, a: va, b: vb})
    return out


def product(axes, ok):
    keys = list(axes)
    return [dict(zip(keys, vals)) for vals in itertools.product(*axes.values())
            if ok(dict(zip(keys, vals)))]


def emit(kind, v):
    if kind == "gemm":
        name, text = gemm(**v)
        # K = 528: rows of 16-byte multiples for 1-byte (FP8) operands too.
        sizes = {"M": 1000, "N": 1048, "K": 528}
    else:
        args = dict(v)
        bm, wgs = args.pop("shape")
        name, text = attention(bm=bm, wgs=wgs, **args)
        sizes = {"B": 2, "H": 8, "S": 1000}
    return name, text, sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir", help="where the variants and variants.json are written")
    ap.add_argument("--set", choices=["ci", "gpu", "all"], default="ci")
    a = ap.parse_args()
    out_dir, which = a.out_dir, a.set
    os.makedirs(out_dir, exist_ok=True)
    attn_ok = lambda v: not (v["mask"] == "window" and v["bn"] > 128)
    if which == "all":
        sets = [("gemm", product(gemm_axes(), gemm_ok)), ("attention", product(attention_axes(), attn_ok))]
    elif which == "gpu":
        sets = [("gemm", covering(gemm_axes(), gemm_ok,
                                  pairs=[("a_major", "b_major"), ("epilogue", "out"), ("tile", "schedule"),
                                         ("dtype", "epilogue"), ("dtype", "tile")])),
                ("attention", covering(attention_axes(), attn_ok,
                                       pairs=[("mask", "schedule"), ("d", "bn"), ("group", "lse")]))]
    else:
        sets = [("gemm", covering(gemm_axes(), gemm_ok, pairs=[("a_major", "b_major"),
                                                                ("dtype", "epilogue")])),
                ("attention", covering(attention_axes(), attn_ok, pairs=[("mask", "schedule")]))]
    # Chosen register budgets (tile.registers; docs/legality.md#registers),
    # in every set: CUTLASS's producer 40 / consumers 232 on the GEMM (the
    # budgets fill the block's 384 x 168 registers exactly), and an attention
    # kernel whose budgets leave 1024 of them unused (32 / 232), which
    # legality accepts: the GPU run shows whether setmaxnreg agrees.
    sets.append(("gemm", [{**{k: vals[0] for k, vals in gemm_axes().items()},
                           "registers": (40, 232)}]))
    sets.append(("attention", [{**{k: vals[0] for k, vals in attention_axes().items()},
                                "d": 128, "bn": 128, "schedule": "cp_dot1_s3", "registers": (32, 232)}]))
    # Rows of 64 and 32 bytes, and rows that are several 64-byte panels (DescType::
    # getLoadBoxShape; wgmma's 64B and 32B layout types), in every set: K steps of 32 and 16
    # (K-major A and B), an MN-major B and a stored tile of 96 columns (three 64-byte
    # panels), FP8 K steps of 64, head dims 96 and 32 (Q and K K-major, V N-major, O stored).
    g0 = {k: vals[0] for k, vals in gemm_axes().items()}
    sets.append(("gemm", [{**g0, "bk": 32}, {**g0, "bk": 16},
                          {**g0, "tile": "128x96", "b_major": "N", "bk": 32},
                          {**g0, "a_major": "M", "bk": 32},
                          {**g0, "dtype": "e4m3", "bk": 64}]))
    a0 = {k: vals[0] for k, vals in attention_axes().items()}
    sets.append(("attention", [{**a0, "d": 96, "bn": 128}, {**a0, "d": 32, "bn": 128},
                               {**a0, "d": 96, "bn": 128, "schedule": "cp_dot1_s3",
                                "mask": "causal"}]))
    index = []
    for kind, variants in sets:
        for v in variants:
            name, text, sizes = emit(kind, v)
            with open(os.path.join(out_dir, name + ".mlir"), "w") as f:
                f.write(text)
            index.append({"name": name, "file": name + ".mlir", "kind": kind, "sizes": sizes,
                          "params": {k: (list(x) if isinstance(x, tuple) else x) for k, x in v.items()}})
    with open(os.path.join(out_dir, "variants.json"), "w") as f:
        json.dump(index, f, indent=1)
    print(f"{len(index)} variants in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
