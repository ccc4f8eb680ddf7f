#!/usr/bin/env python3
"""Generator (copied from sweep-2026-11-28d, extended for sweep5) of the loops (GEMM epilogues, persistent/ping-pong, attention)."""
import os, json
OUT = os.path.dirname(os.path.abspath(__file__))
SCH = os.path.join(OUT, "schedules")
BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f8E4M3FN": 1, "f8E5M2": 1}

def w(name, text):
    open(os.path.join(OUT, name + ".mlir"), "w").write(text)

def sched(name, d):
    open(os.path.join(SCH, name + ".json"), "w").write(json.dumps(d, indent=1) + "\n")

class Epi:
    """Builds the epilogue: args (descriptors) and lines; %acc is the f32 result."""
    def __init__(s, BM, BN, mc="%m0", nc="%n0", pid_n="%pn"):
        s.BM, s.BN, s.args, s.lines, s.pre, s.n = BM, BN, [], [], [], 0
        s.mc, s.nc, s.pid_n = mc, nc, pid_n
    def v(s, p="v"):
        s.n += 1; return f"%{p}{s.n}"
    def T(s, dt="f32"): return f"tensor<{s.BM}x{s.BN}x{dt}>"
    def arg(s, name, desc, shape):
        s.args.append(f"%{name}: {desc} {{tile.shape = affine_map<()[M, N, K] -> ({shape})>}}")
    def load_tile(s, name, dt, before=False):
        s.arg(name, f"!tile.desc<{s.BM}x{s.BN}x{dt}>", "M, N")
        r = s.v("r"); L = s.pre if before else s.lines
        L.append(f"{r} = tile.load %{name}[{s.mc}, {s.nc}] : !tile.desc<{s.BM}x{s.BN}x{dt}> -> {s.T(dt)}")
        if dt != "f32":
            e = s.v("e"); L.append(f"{e} = arith.extf {r} : {s.T(dt)} to {s.T()}"); return e
        return r
    def vec(s, name, along, before=False):
        # along='row': one value per row (length BM, indexed by m); 'col': per column (BN, by n)
        n = s.BM if along == "row" else s.BN
        s.arg(name, f"!tile.desc<{n}xf32>", "M" if along == "row" else "N")
        r = s.v("s"); b = s.v("b"); L = s.pre if before else s.lines
        L.append(f"{r} = tile.load %{name}[{s.mc if along=='row' else s.nc}] : !tile.desc<{n}xf32> -> tensor<{n}xf32>")
        L.append(f"{b} = tile.broadcast {r}, dim = {1 if along=='row' else 0} : tensor<{n}xf32> -> {s.T()}")
        return b
    def op(s, o, a, b=None):
        r = s.v()
        s.lines.append(f"{r} = {o} {a}{', ' + b if b else ''} : {s.T()}"); return r
    def const(s, val):
        r = s.v("k"); s.lines.append(f"{r} = arith.constant dense<{val}> : {s.T()}"); return r
    def store(s, name, x, dt):
        s.arg(name, f"!tile.desc<{s.BM}x{s.BN}x{dt}>", "M, N")
        if dt != "f32":
            t = s.v("t"); s.lines.append(f"{t} = arith.truncf {x} : {s.T()} to {s.T(dt)}"); x = t
        s.lines.append(f"tile.store %{name}[{s.mc}, {s.nc}], {x} : !tile.desc<{s.BM}x{s.BN}x{dt}>, {s.T(dt)}")
    def rowred(s, kind, x):
        r = s.v("red"); s.lines.append(f"{r} = tile.reduce {kind} {x}, dim = 1 : {s.T()} -> tensor<{s.BM}xf32>"); return r
    def vop(s, o, a, b=None, n=None):
        n = n or s.BM; r = s.v("q")
        s.lines.append(f"{r} = {o} {a}{', ' + b if b else ''} : tensor<{n}xf32>"); return r
    def bcast_row(s, x):
        r = s.v("bb"); s.lines.append(f"{r} = tile.broadcast {x}, dim = 1 : tensor<{s.BM}xf32> -> {s.T()}"); return r
    def store_rowvec(s, name, x):
        s.arg(name, f"!tile.desc<1x{s.BM}xf32>", f"N ceildiv {s.BN}, M")
        s.lines.append(f"tile.store %{name}[{s.pid_n}, {s.mc}], {x} : !tile.desc<1x{s.BM}xf32>, tensor<{s.BM}xf32>")
    def silu(s, x):
        n = s.op("arith.negf", x); e = s.op("math.exp", n); one = s.const("1.0")
        d = s.op("arith.addf", e, one); return s.op("arith.divf", x, d)
    def sigmoid(s, x):
        n = s.op("arith.negf", x); e = s.op("math.exp", n); one = s.const("1.0")
        d = s.op("arith.addf", e, one); return s.op("arith.divf", one, d)
    def gelu_tanh(s, x):
        c = s.const("0.7978845608"); h = s.const("0.5"); k = s.const("0.044715"); one = s.const("1.0")
        x3 = s.op("arith.mulf", s.op("arith.mulf", x, x), x)
        inner = s.op("arith.mulf", s.op("arith.addf", x, s.op("arith.mulf", x3, k)), c)
        t = s.op("math.tanh", inner)
        return s.op("arith.mulf", s.op("arith.mulf", x, h), s.op("arith.addf", t, one))

def gemm(name, BM, BN, epi_fn, BK=64, dt="bf16", cwg=None, stage=2, wait=1, defaults=(4096, 4096, 4096),
         comment="", persistent=False, consumers=None, ta=False, tb=True, loop_extra=None, nprog=132,
         extra_attrs=""):
    M, N, K = defaults
    cwg = cwg or max(1, min(BM // 64, 2)) if BM != 192 else 3
    e = Epi(BM, BN)
    if persistent:
        e.pid_n = "%tn"
    e.arg("A", f"!tile.desc<{BK}x{BM}x{dt}>" if ta else f"!tile.desc<{BM}x{BK}x{dt}>", "K, M" if ta else "M, K")
    e.arg("B", f"!tile.desc<{BN}x{BK}x{dt}>" if tb else f"!tile.desc<{BK}x{BN}x{dt}>", "N, K" if tb else "K, N")
    acc = epi_fn(e)
    grid = f"({nprog})" if persistent else f"(M ceildiv {BM}, N ceildiv {BN})"
    cons = f',\n                  tile.consumers = "{consumers}"' if consumers else ""
    AT = f"tensor<{BK}x{BM}x{dt}>" if ta else f"tensor<{BM}x{BK}x{dt}>"
    BT = f"tensor<{BN}x{BK}x{dt}>" if tb else f"tensor<{BK}x{BN}x{dt}>"
    ACC = f"tensor<{BM}x{BN}xf32>"
    acoord = "%k, %m0" if ta else "%m0, %k"
    bcoord = "%n0, %k" if tb else "%k, %n0"
    attrs = ", ".join(x for x in ["transpose_a" if ta else "", "transpose_b" if tb else ""] if x)
    attrs = (attrs + ", ") if attrs else ""
    waits = f", wait = {wait}" if wait else ""
    body = [
      f"%a = tile.load %A[{acoord}] {{tile.sched = #tile.sched<\"loadA\", stage = 0, order = 1, group = 0>}} : !tile.desc<{AT[7:-1]}> -> {AT}",
      f"%b = tile.load %B[{bcoord}] {{tile.sched = #tile.sched<\"loadB\", stage = 0, order = 2, group = 0>}} : !tile.desc<{BT[7:-1]}> -> {BT}",
      f"%d = tile.dot %a, %b, %c {{{attrs}tile.sched = #tile.sched<\"MMA\", stage = {stage}, order = 0, group = 1{waits}>}} : {AT}, {BT} -> {ACC}",
    ]
    yl = "scf.yield %d : " + ACC
    if loop_extra:
        body, yl = loop_extra(body, e)
    args = ",\n      ".join(e.args)
    ind = "      " if not persistent else "        "
    loop = (f"%acc = scf.for %k = %c0 to %K step %c{BK} iter_args(%c = %zero) -> ({ACC}) {{\n" +
            "".join(ind + "  " + l + "\n" for l in body) + ind + "  " + yl + "\n" + ind + "}")
    pre = "".join(ind + l + "\n" for l in e.pre)
    post = "".join(ind + l + "\n" for l in e.lines)
    if persistent:
        core = f"""    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c{BM} : index
    %tiles_n = arith.ceildivui %N, %c{BN} : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    scf.for %t = %pid to %tiles step %nprog {{
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c{BM} : index
      %n0 = arith.muli %tn, %c{BN} : index
{pre}      {loop}
{post}    }}
"""
    else:
        core = f"""    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c{BM} : index
    %n0 = arith.muli %pn, %c{BN} : index
{pre}    {loop}
{post}"""
    consts = sorted({BK, BM, BN, 64, 128, 256})
    cl = "".join(f"    %c{c} = arith.constant {c} : index\n" for c in consts)
    text = f"""// {comment}
module {{
  func.func @{name.replace('-', '_')}(
      {args},
      %M: index {{tile.size = "M"}}, %N: index {{tile.size = "N"}}, %K: index {{tile.size = "K"}})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> {grid}>,
                  tile.defaults = {{M = {M} : i64, N = {N} : i64, K = {K} : i64}},
                  tile.warpgroups = array<i64: 1, {cwg}>{cons}{extra_attrs}}} {{
    %c0 = arith.constant 0 : index
{cl}    %zero = arith.constant dense<0.000000e+00> : {ACC}
{core}    return
  }}
}}
"""
    w(name, text)

# ---------------------------------------------------------------- epilogues
def E_res(rdt, odt, gate=None, rowbias=False, colbias=False):
    def f(e):
        x = "%acc"
        if rowbias: x = e.op("arith.addf", x, e.vec("RB", "row"))
        if colbias: x = e.op("arith.addf", x, e.vec("CB", "col"))
        r = e.load_tile("R", rdt); x = e.op("arith.addf", x, r)
        if gate:
            g = e.load_tile("G", gate); x = e.op("arith.mulf", x, e.sigmoid(g))
        e.store("C", x, odt); return x
    return f

def E_two_out(odt1, odt2, act="gelu"):
    def f(e):
        x = e.op("arith.addf", "%acc", e.vec("CB", "col"))
        e.store("Cpre", x, odt1)
        y = e.gelu_tanh(x) if act == "gelu" else e.silu(x)
        e.store("Cact", y, odt2); return y
    return f

def E_rowcol(odt):
    def f(e):
        x = e.op("arith.mulf", "%acc", e.vec("SR", "row"))
        x = e.op("arith.mulf", x, e.vec("SC", "col"))
        e.store("C", x, odt); return x
    return f

def E_layernorm(odt, with_res=None):
    def f(e):
        x = "%acc"
        if with_res: x = e.op("arith.addf", x, e.load_tile("R", with_res))
        s = e.rowred("sum", x)
        invn = e.v("q"); e.lines.append(f"{invn} = arith.constant dense<{1.0/e.BN}> : tensor<{e.BM}xf32>")
        mean = e.vop("arith.mulf", s, invn)
        xc = e.op("arith.subf", x, e.bcast_row(mean))
        var = e.vop("arith.mulf", e.rowred("sum", e.op("arith.mulf", xc, xc)), invn)
        eps = e.v("q"); e.lines.append(f"{eps} = arith.constant dense<1.0e-05> : tensor<{e.BM}xf32>")
        rstd = e.v("q"); e.lines.append(f"{rstd} = math.rsqrt {e.vop('arith.addf', var, eps)} : tensor<{e.BM}xf32>")
        y = e.op("arith.mulf", xc, e.bcast_row(rstd))
        y = e.op("arith.addf", e.op("arith.mulf", y, e.vec("GAM", "col")), e.vec("BET", "col"))
        e.store("C", y, odt)
        e.store_rowvec("MEAN", mean); e.store_rowvec("RSTD", rstd); return y
    return f

# ---------------------------------------------------------------- attention
def attn(name, D, BKV=128, BQ=128, dt="bf16", G=1, causal=False, gate=None, res=None, odt="bf16",
         lse=None, defaults=(4, 16, 4096), comment="", sc1=1, negbig=False):
    import math
    cwg = BQ // 64
    scale = math.log2(math.e) / math.sqrt(D)
    kvshape = "B * H, S" if G == 1 else f"B * (H floordiv {G}), S"
    Bd, Hd, Sd = defaults
    args = [f"%Q: !tile.desc<1x{BQ}x{D}x{dt}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {D})>}}",
            f"%K: !tile.desc<1x{BKV}x{D}x{dt}> {{tile.shape = affine_map<()[B, H, S] -> ({kvshape}, {D})>}}",
            f"%V: !tile.desc<1x{BKV}x{D}x{dt}> {{tile.shape = affine_map<()[B, H, S] -> ({kvshape}, {D})>}}",
            f"%O: !tile.desc<1x{BQ}x{D}x{odt}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {D})>}}"]
    TO = f"tensor<{BQ}x{D}xf32>"; TS = f"tensor<{BQ}x{BKV}xf32>"; TV = f"tensor<{BQ}xf32>"
    post = []
    post.append(f"%lb = tile.broadcast %res#2, dim = 1 : {TV} -> {TO}")
    post.append(f"%o = arith.divf %res#0, %lb : {TO}")
    x = "%o"
    if gate:
        args.append(f"%G: !tile.desc<1x{BQ}x{D}x{gate}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {D})>}}")
        post += [f"%g = tile.load %G[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}x{gate}> -> tensor<{BQ}x{D}x{gate}>"]
        gf = "%g"
        if gate != "f32":
            post.append(f"%gf = arith.extf %g : tensor<{BQ}x{D}x{gate}> to {TO}"); gf = "%gf"
        post += [f"%gn = arith.negf {gf} : {TO}", f"%ge = math.exp %gn : {TO}",
                 f"%one = arith.constant dense<1.0> : {TO}", f"%gd = arith.addf %ge, %one : {TO}",
                 f"%xg = arith.mulf {x}, %gd : {TO}"]
        # o * (1 + e^-g): deliberately not a division, reference computes the same
        x = "%xg"
    if res:
        args.append(f"%R: !tile.desc<1x{BQ}x{D}x{res}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {D})>}}")
        post.append(f"%r = tile.load %R[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}x{res}> -> tensor<{BQ}x{D}x{res}>")
        rf = "%r"
        if res != "f32":
            post.append(f"%rf = arith.extf %r : tensor<{BQ}x{D}x{res}> to {TO}"); rf = "%rf"
        post.append(f"%xr = arith.addf {x}, {rf} : {TO}"); x = "%xr"
    if odt != "f32":
        post.append(f"%ob = arith.truncf {x} : {TO} to tensor<{BQ}x{D}x{odt}>"); x = "%ob"
    post.append(f"tile.store %O[%bh, %q0, %c0], {x} : !tile.desc<1x{BQ}x{D}x{odt}>, tensor<{BQ}x{D}x{odt}>")
    if lse:
        args.append(f"%L: !tile.desc<1x{BQ}x{lse}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S)>}}")
        post += [f"%l2 = math.log2 %res#2 : {TV}", f"%lse = arith.addf %res#1, %l2 : {TV}"]
        xl = "%lse"
        if lse != "f32":
            post.append(f"%lseb = arith.truncf %lse : {TV} to tensor<{BQ}x{lse}>"); xl = "%lseb"
        post.append(f"tile.store %L[%bh, %q0], {xl} : !tile.desc<1x{BQ}x{lse}>, tensor<{BQ}x{lse}>")
    kvidx = "%bh"
    gqa = ""
    if G > 1:
        gqa = f"""    %hh = arith.remui %bh, %H : index
    %bb = arith.divui %bh, %H : index
    %hkv = arith.divui %H, %c{G} : index
    %bbk = arith.muli %bb, %hkv : index
    %hk = arith.divui %hh, %c{G} : index
    %kvh = arith.addi %bbk, %hk : index
"""
        kvidx = "%kvh"
    hi = "%S"
    cz = ""
    if causal:
        cz = f"    %qe = arith.addi %q0, %c{BQ} : index\n    %hi = arith.minui %qe, %S : index\n"; hi = "%hi"
    S = lambda nm, st, o, grp=1: f'{{tile.sched = #tile.sched<"{nm}", stage = {st}, order = {o}, group = {grp}>}}'
    sm = S("Softmax", sc1, 1)
    smc = sm.replace("{tile.sched", "{causal, tile.sched") if causal else sm
    loop = f"""    %res:3 = scf.for %j = %c0 to {hi} step %c{BKV}
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init) -> ({TO}, {TV}, {TV}) {{
      %k = tile.load %K[{kvidx}, %j, %c0] {S("loadK", 0, 4, 0)} : !tile.desc<1x{BKV}x{D}x{dt}> -> tensor<{BKV}x{D}x{dt}>
      %s = tile.dot %q, %k, %zero_s {{transpose_b, tile.sched = #tile.sched<"MMA0", stage = {sc1}, order = 0, group = 1>}} : tensor<{BQ}x{D}x{dt}>, tensor<{BKV}x{D}x{dt}> -> {TS}
      %sm = tile.mask %s, %q0, %j, %S {smc} : {TS}
      %ss = arith.mulf %sm, %scale {sm} : {TS}
      %mx = tile.reduce max %ss, dim = 1 {sm} : {TS} -> {TV}
      %mn = arith.maximumf %m, %mx {sm} : {TV}
      %mnb = tile.broadcast %mn, dim = 1 {sm} : {TV} -> {TS}
      %d = arith.subf %ss, %mnb {sm} : {TS}
      %p = math.exp2 %d {sm} : {TS}
      %ps = tile.reduce sum %p, dim = 1 {sm} : {TS} -> {TV}
      %dm = arith.subf %m, %mn {sm} : {TV}
      %alpha = math.exp2 %dm {sm} : {TV}
      %la = arith.mulf %l, %alpha {sm} : {TV}
      %ln = arith.addf %la, %ps {sm} : {TV}
      %pb = arith.truncf %p {sm} : {TS} to tensor<{BQ}x{BKV}x{dt}>
      %ab = tile.broadcast %alpha, dim = 1 {S("MUL", sc1, 2)} : {TV} -> {TO}
      %accs = arith.mulf %acc, %ab {S("MUL", sc1, 2)} : {TO}
      %v = tile.load %V[{kvidx}, %j, %c0] {S("loadV", 0, 5, 0)} : !tile.desc<1x{BKV}x{D}x{dt}> -> tensor<{BKV}x{D}x{dt}>
      %acc2 = tile.dot %pb, %v, %accs {{tile.sched = #tile.sched<"MMA1", stage = {sc1}, order = 3, group = 1>}} : tensor<{BQ}x{BKV}x{dt}>, tensor<{BKV}x{D}x{dt}> -> {TO}
      scf.yield %acc2, %mn, %ln : {TO}, {TV}, {TV}
    }}
"""
    minit = "-1.0e+30" if negbig else "0xFF800000"
    text = f"""// {comment}
module {{
  func.func @{name.replace('-', '_')}(
      {(","+chr(10)+"      ").join(args)},
      %B: index {{tile.size = "B"}}, %H: index {{tile.size = "H"}}, %S: index {{tile.size = "S"}})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv {BQ}, B * H)>,
                  tile.defaults = {{B = {Bd} : i64, H = {Hd} : i64, S = {Sd} : i64}},
                  tile.warpgroups = array<i64: 1, {cwg}>}} {{
    %c0 = arith.constant 0 : index
    %c{BQ} = arith.constant {BQ} : index
{"" if BKV == BQ else f"    %c{BKV} = arith.constant {BKV} : index{chr(10)}"}{"" if G in (1, BQ, BKV) else f"    %c{G} = arith.constant {G} : index{chr(10)}"}    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %c{BQ} : index
{gqa}{cz}    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}x{dt}> -> tensor<{BQ}x{D}x{dt}>
    %zero_s = arith.constant dense<0.000000e+00> : {TS}
    %zero_o = arith.constant dense<0.000000e+00> : {TO}
    %scale = arith.constant dense<{scale!r}> : {TS}
    %m_init = arith.constant dense<{minit}> : {TV}
    %l_init = arith.constant dense<0.000000e+00> : {TV}
{loop}""" + "".join("    " + l + "\n" for l in post) + """    return
  }
}
"""
    w(name, text)
