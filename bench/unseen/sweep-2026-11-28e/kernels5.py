#!/usr/bin/env python3
"""sweep5: epilogue stress loops (panel/chunk evaluation after the pipelined loop).
python3 kernels5.py writes every loop and schedule into this folder."""
import sys, os, math, json
# The fourth sweep's generator, with FP8 element sizes (it knew 16- and 32-bit ones).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sweep-2026-11-28d"))
import gen
from gen import Epi, sched
gen.BYTES.update({"f8E4M3FN": 1, "f8E5M2": 1})
gen.OUT = os.path.dirname(os.path.abspath(__file__))  # this sweep's folder, not the fourth's

# ------------------------------------------------------------------ helpers on Epi
def iota(e, off, dim, shape=None):
    r = e.v("io"); shape = shape or f"tensor<{e.BM}x{e.BN}xi32>"
    e.lines.append(f"{r} = tile.iota {off}, dim = {dim} : {shape}"); return r
def iop(e, o, a, b=None, dt="i32"):
    r = e.v("i"); e.lines.append(f"{r} = {o} {a}{', ' + b if b else ''} : {e.T(dt)}"); return r
def icst(e, val):
    r = e.v("ic"); e.lines.append(f"{r} = arith.constant dense<{val}> : {e.T('i32')}"); return r
def cmpi(e, pred, a, b):
    r = e.v("m"); e.lines.append(f"{r} = arith.cmpi {pred}, {a}, {b} : {e.T('i32')}"); return r
def cmpf(e, pred, a, b):
    r = e.v("m"); e.lines.append(f"{r} = arith.cmpf {pred}, {a}, {b} : {e.T()}"); return r
def sel(e, c, a, b):
    r = e.v("s"); e.lines.append(f"{r} = arith.select {c}, {a}, {b} : {e.T('i1')}, {e.T()}"); return r
def idx_i32(e, v):
    r = e.v("x"); e.lines.append(f"{r} = arith.index_cast {v} : index to i32"); return r
def colred(e, kind, x):
    r = e.v("cr"); e.lines.append(f"{r} = tile.reduce {kind} {x}, dim = 0 : {e.T()} -> tensor<{e.BN}xf32>"); return r
def bcast_col(e, x):
    r = e.v("bc"); e.lines.append(f"{r} = tile.broadcast {x}, dim = 0 : tensor<{e.BN}xf32> -> {e.T()}"); return r
def store_vec(e, name, x, dt="f32", along="row", coords=None):
    n = e.BM if along == "row" else e.BN
    if dt != "f32":
        t = e.v("vt"); e.lines.append(f"{t} = arith.truncf {x} : tensor<{n}xf32> to tensor<{n}x{dt}>"); x = t
    if along == "row":
        e.arg(name, f"!tile.desc<1x{n}x{dt}>", f"N ceildiv {e.BN}, M")
        c = coords or f"{e.pid_n}, {e.mc}"
    else:
        e.arg(name, f"!tile.desc<1x{n}x{dt}>", f"M ceildiv {e.BM}, N")
        c = coords or f"{'%tm' if e.pid_n == '%tn' else '%pm'}, {e.nc}"
    e.lines.append(f"tile.store %{name}[{c}], {x} : !tile.desc<1x{n}x{dt}>, tensor<{n}x{dt}>")
def store_at(e, name, x, dt, shape, coords):
    e.arg(name, f"!tile.desc<{e.BM}x{e.BN}x{dt}>", shape)
    if dt != "f32":
        t = e.v("t"); e.lines.append(f"{t} = arith.truncf {x} : {e.T()} to {e.T(dt)}"); x = t
    e.lines.append(f"tile.store %{name}[{coords}], {x} : !tile.desc<{e.BM}x{e.BN}x{dt}>, {e.T(dt)}")
def rowvec_load(e, name, before=False):
    e.arg(name, f"!tile.desc<{e.BM}xf32>", "M")
    r = e.v("rv"); L = e.pre if before else e.lines
    L.append(f"{r} = tile.load %{name}[{e.mc}] : !tile.desc<{e.BM}xf32> -> tensor<{e.BM}xf32>"); return r
def unary(e, o, x): return e.op(o, x)
def softmax_rows(e, x):
    m = e.rowred("max", x); d = e.op("arith.subf", x, e.bcast_row(m)); p = e.op("math.exp", d)
    s = e.rowred("sum", p); return m, s, p

E = {}
def gemm(name, BM, BN, fn, **kw):
    gen.gemm(name, BM, BN, fn, **kw); E[name] = kw

# ================================================================== GEMM epilogues
def f_five_dtypes(e):
    x = e.op("arith.addf", "%acc", e.vec("CB", "col"))
    for nm, dt in (("C32", "f32"), ("Cbf", "bf16"), ("Cf16", "f16"), ("Ce4", "f8E4M3FN"), ("Ce5", "f8E5M2")):
        e.store(nm, x, dt)
    return x
gemm("g01_128x128_same_value_5dtypes", 128, 128, f_five_dtypes, comment="acc + colbias stored five times: f32, bf16, f16, e4m3, e5m2")

def f_store_and_reduce(e):
    x = e.op("arith.mulf", "%acc", e.const("0.125"))
    mx = e.rowred("max", x); sm = e.rowred("sum", x)
    store_vec(e, "RMAX", mx); store_vec(e, "RSUM", sm, "bf16")
    y = e.op("arith.divf", x, e.bcast_row(sm)); e.store("C", y, "bf16")
    e.store("X", x, "f16"); return y
gemm("g02_128x256_store_and_rowreduce", 128, 256, f_store_and_reduce,
     comment="x = acc/8 stored f16 AND reduced (row max f32, row sum bf16, 1-d stores) AND normalized by its row sum (bf16)")

def f_softmax(e):
    m, s, p = softmax_rows(e, "%acc")
    y = e.op("arith.divf", p, e.bcast_row(s)); e.store("P", y, "bf16")
    l = e.vop("arith.addf", m, e.v("q") and (lambda q: (e.lines.append(f"{q} = math.log {s} : tensor<{e.BM}xf32>"), q)[1])(e.v("lg")))
    store_vec(e, "LSE", l); return y
gemm("g03_128x128_softmax_over_n", 128, 128, f_softmax, defaults=(4096, 128, 4096),
     comment="softmax over the N=128 columns after a GEMM: exp read by a row sum (whole) and by the division (panel); LSE 1-d")
gemm("g03b_128x256_softmax_over_n", 128, 256, f_softmax, defaults=(4096, 256, 4096),
     comment="the same softmax at 128x256 (the exp tile whole beside the accumulator)")

def f_add_rmsnorm(e):
    x = e.op("arith.addf", "%acc", e.load_tile("R", "bf16"))
    e.store("RES", x, "bf16")
    ss = e.rowred("sum", e.op("arith.mulf", x, x))
    invn = e.v("q"); e.lines.append(f"{invn} = arith.constant dense<{1.0/e.BN}> : tensor<{e.BM}xf32>")
    eps = e.v("q"); e.lines.append(f"{eps} = arith.constant dense<1.0e-06> : tensor<{e.BM}xf32>")
    ms = e.vop("arith.addf", e.vop("arith.mulf", ss, invn), eps)
    r = e.v("q"); e.lines.append(f"{r} = math.rsqrt {ms} : tensor<{e.BM}xf32>")
    y = e.op("arith.mulf", e.op("arith.mulf", x, e.bcast_row(r)), e.vec("GAM", "col"))
    e.store("C", y, "bf16"); store_vec(e, "RSTD", r); return y
gemm("g04_128x256_add_rmsnorm_two_out", 128, 256, f_add_rmsnorm, stage=1, wait=0, defaults=(4096, 256, 4096),
     comment="fused add + RMSNorm: new residual (acc+R) bf16 out, normalized * gamma bf16 out, rstd 1-d; N = tile width")
gemm("g04b_128x128_add_rmsnorm_two_out", 128, 128, f_add_rmsnorm, defaults=(4096, 128, 4096),
     comment="the same at 128x128")

def f_colreduce(e):
    cs = colred(e, "sum", "%acc"); store_vec(e, "CSUM", cs, along="col")
    cm = colred(e, "max", "%acc")
    y = e.op("arith.subf", "%acc", bcast_col(e, cm)); e.store("C", y, "bf16")
    store_vec(e, "CMAX", cm, "bf16", along="col"); return y
gemm("g05_128x128_colreduce_center", 128, 128, f_colreduce,
     comment="column sum and max over the tile's rows (dim 0), 1-d f32/bf16 stores, acc - colmax stored bf16")

def f_direct_and_gelu(e):
    e.store("C32", "%acc", "f32")
    h = e.const("0.5"); rs2 = e.const("0.70710678"); one = e.const("1.0")
    g = e.op("arith.mulf", e.op("arith.mulf", "%acc", h), e.op("arith.addf", e.op("math.erf", e.op("arith.mulf", "%acc", rs2)), one))
    e.store("G", g, "bf16"); return g
gemm("g06_128x256_direct_f32_and_erf_gelu", 128, 256, f_direct_and_gelu,
     comment="the accumulator stored directly (f32) and exact erf-GELU of it (libdevice erff) bf16")

def f_iota_tails(e):
    cols = iota(e, "%n0", 1); rows = iota(e, "%m0", 0)
    nl = e.v("nb"); e.lines.append(f"%Ni = arith.index_cast %N : index to i32")
    e.lines.append(f"{nl} = tensor.splat %Ni : {e.T('i32')}")
    ml = e.v("mb"); e.lines.append(f"%Mi = arith.index_cast %M : index to i32")
    e.lines.append(f"{ml} = tensor.splat %Mi : {e.T('i32')}")
    ok = e.v("ok"); e.lines.append(f"{ok} = arith.andi {cmpi(e, 'slt', cols, nl)}, {cmpi(e, 'slt', rows, ml)} : {e.T('i1')}")
    y = sel(e, ok, e.op("arith.mulf", "%acc", "%acc"), e.const("0.0"))
    e.store("C", y, "bf16")
    rs = e.rowred("sum", y); store_vec(e, "RS", rs); return y
gemm("g07_128x128_iota_mask_tails", 128, 128, f_iota_tails, defaults=(1000, 1000, 1000),
     comment="acc^2 with columns >= N and rows >= M zeroed by iota/cmpi/select (tails), stored bf16; row sum of it 1-d")

def f_tril(e):
    cols = iota(e, "%n0", 1); rows = iota(e, "%m0", 0)
    ok = cmpi(e, "sge", rows, cols)
    y = sel(e, ok, "%acc", e.const("0xFF800000")); e.store("C", y, "f16")
    y2 = sel(e, ok, e.op("math.exp", "%acc"), e.const("0.0")); e.store("E", y2, "bf16"); return y
gemm("g08_128x128_tril_mask_two_out", 128, 128, f_tril, dt="f16", defaults=(2048, 2048, 512),
     comment="lower-triangular mask from two iotas: -inf above the diagonal (f16 out) and exp(acc) or 0 (bf16 out)")

def f_tables(e):
    rb = rowvec_load(e, "RB", before=True)
    e.arg("SC", "!tile.desc<4xf32>", "4")
    e.lines.append("%sct = tile.load %SC[%c0] : !tile.desc<4xf32> -> tensor<4xf32>")
    e.lines.append("%sc0 = tensor.extract %sct[%c0] : tensor<4xf32>")
    e.lines.append(f"%scs = tensor.splat %sc0 : {e.T()}")
    x = e.op("arith.addf", e.op("arith.mulf", "%acc", "%scs"), e.bcast_row(rb))
    x = e.op("arith.mulf", x, e.vec("CS", "col"))
    e.store("C", x, "bf16"); return x
gemm("g09_128x192_rowbias_before_colscale_extract", 128, 192, f_tables, defaults=(4096, 3072, 4096),
     comment="per-tensor scale by tensor.extract (splat), a row bias loaded before the loop, a column scale after it")

def f_resident_before(e):
    e.arg("R", f"!tile.desc<{e.BM}x{e.BN}xbf16>", "M, N")
    e.pre.append(f"%rr = tile.load %R[%m0, %n0] : !tile.desc<{e.BM}x{e.BN}xbf16> -> {e.T('bf16')}")
    e.pre.append(f"%rre = arith.extf %rr : {e.T('bf16')} to {e.T()}")
    e.pre.append(f"%rrs = arith.mulf %rre, %rre : {e.T()}")
    x = e.op("arith.addf", "%acc", "%rrs"); e.store("C", x, "bf16"); return x
gemm("g10_128x128_resident_math_before_loop", 128, 128, f_resident_before,
     comment="R loaded before the loop AND its extf and square written before the loop; read only after it")
def f_iota_before(e):
    e.pre.append(f"%colsb = tile.iota %n0, dim = 1 : {e.T('i32')}")
    e.pre.append(f"%colsf = arith.sitofp %colsb : {e.T('i32')} to {e.T()}")
    x = e.op("arith.addf", "%acc", "%colsf"); e.store("C", x, "bf16"); return x
gemm("g10b_128x256_iota_before_loop", 128, 256, f_iota_before,
     comment="column positions (iota, sitofp) computed before the loop, added after it")

gemm("g11_256x128_f32res_f16out", 256, 128, gen.E_res("f32", "f16"), stage=1, wait=0, dt="f16",
     comment="256 rows on two consumer WGs (two row blocks each): f32 residual, f16 output")
gemm("g12_128x96_bf16res_f32out", 128, 96, gen.E_res("bf16", "f32", colbias=True), defaults=(4096, 3072, 4096),
     comment="N tile 96 (three 64-byte panels of bf16, three 128-byte f32 panels): bf16 residual + col bias, f32 out")
gemm("g13_128x160_gelu_bf16", 128, 160, lambda e: (lambda y: (e.store("C", y, "bf16"), y)[1])(e.gelu_tanh(e.op("arith.addf", "%acc", e.vec("CB", "col")))),
     defaults=(4096, 3200, 4096), comment="N tile 160 (five 64-byte panels): tanh GELU(acc + bias)")
gemm("g14_192x192_res_silu", 192, 192, lambda e: (lambda y: (e.store("C", y, "bf16"), y)[1])(e.silu(e.op("arith.addf", "%acc", e.load_tile("R", "bf16")))),
     stage=1, wait=0, defaults=(3072, 3072, 4096), comment="192x192 on three consumer WGs: silu(acc + R)")

def f_plain(odt, math_=True):
    def f(e):
        x = e.op("arith.mulf", "%acc", e.const("2.0")) if math_ else "%acc"
        e.store("C", x, odt); return x
    return f
gemm("g15_128x24_bf16_narrow", 128, 24, f_plain("bf16"), defaults=(2048, 384, 1024),
     comment="N tile 24 (48-byte rows: one unswizzled panel of 24 columns), 2*acc stored bf16")
gemm("g15b_128x40_f16_narrow", 128, 40, f_plain("f16"), dt="f16", defaults=(2048, 640, 1024),
     comment="N tile 40 (80-byte rows), f16")
gemm("g15c_64x56_bf16_narrow", 64, 56, f_plain("bf16"), defaults=(2048, 896, 1024),
     comment="N tile 56 (112-byte rows), one consumer warp group")
gemm("g15d_128x24_f32_narrow", 128, 24, f_plain("f32"), defaults=(2048, 384, 1024),
     comment="N tile 24 f32 out (96-byte rows: one unswizzled panel)")
gemm("g15e_128x24_f32_direct", 128, 24, f_plain("f32", False), defaults=(2048, 384, 1024),
     comment="N tile 24, the accumulator stored directly (no math)")
gemm("g15f_128x200_bf16", 128, 200, f_plain("bf16"), defaults=(2048, 2000, 1024),
     comment="N tile 200: 400-byte rows, 128-byte panels of 64 columns, the last one 8 columns")
gemm("g15g_128x72_f32", 128, 72, f_plain("f32"), defaults=(2048, 1152, 1024),
     comment="N tile 72 f32: 288-byte rows, 32-byte panels of 8 columns (9 panels)")

def f_math_chain(e):
    x = "%acc"
    sp = e.op("math.log", e.op("arith.addf", e.op("math.exp", x), e.const("1.0")))      # softplus
    a = e.op("math.sqrt", e.op("math.absf", x))
    b = e.op("math.rsqrt", e.op("arith.addf", e.op("arith.mulf", x, x), e.const("1.0")))
    t = e.op("math.tanh", e.op("arith.mulf", sp, b))
    er = e.op("math.erf", e.op("arith.mulf", a, e.const("0.1")))
    y = e.op("arith.addf", e.op("arith.mulf", t, er), e.op("math.exp2", e.op("arith.negf", a)))
    e.store("C", y, "bf16"); return y
gemm("g16_64x64_1wg_math_chain", 64, 64, f_math_chain, defaults=(2048, 2048, 2048),
     comment="64x64, one consumer WG: softplus, sqrt|x|, rsqrt(x^2+1), tanh, erf, exp2 chain")
gemm("g17_128x256_math_chain", 128, 256, f_math_chain,
     comment="the same chain on a 128x256 cooperative tile")

def f_int_dropout(e):
    cols = iota(e, "%n0", 1); rows = iota(e, "%m0", 0)
    h = iop(e, "arith.addi", iop(e, "arith.muli", rows, icst(e, 40503)), cols)
    h = iop(e, "arith.xori", h, iop(e, "arith.shrui", h, icst(e, 13)))
    h = iop(e, "arith.muli", h, icst(e, 1274126177))
    keep = cmpi(e, "ne", iop(e, "arith.remui", h, icst(e, 10)), icst(e, 0))
    hf = e.v("hf"); e.lines.append(f"{hf} = arith.uitofp {iop(e, 'arith.andi', h, icst(e, 255))} : {e.T('i32')} to {e.T()}")
    y = sel(e, keep, e.op("arith.mulf", "%acc", e.const("1.1111111")), e.const("0.0"))
    e.store("C", y, "bf16"); e.store("H", hf, "f16"); return y
gemm("g18_128x128_int_hash_dropout", 128, 128, f_int_dropout,
     comment="integer math after the loop: an iota hash (muli, xori, shrui, remui, andi) as dropout mask; hash byte stored f16")

def f_i32_store(e):
    cols = iota(e, "%n0", 1)
    e.arg("I", f"!tile.desc<{e.BM}x{e.BN}xi32>", "M, N")
    e.lines.append(f"tile.store %I[%m0, %n0], {cols} : !tile.desc<{e.BM}x{e.BN}xi32>, {e.T('i32')}")
    e.store("C", "%acc", "bf16"); return "%acc"
gemm("g19_128x128_i32_store", 128, 128, f_i32_store, comment="expected refused: an i32 tile stored")

def f_splat_store(e):
    e.arg("Z", f"!tile.desc<{e.BM}x{e.BN}xbf16>", "M, N")
    e.lines.append(f"%zc = arith.constant dense<0.0> : {e.T('bf16')}")
    e.lines.append(f"tile.store %Z[%m0, %n0], %zc : !tile.desc<{e.BM}x{e.BN}xbf16>, {e.T('bf16')}")
    e.lines.append("%pmi = arith.index_cast %pm : index to i32")
    e.lines.append("%pmf = arith.sitofp %pmi : i32 to f32")
    e.lines.append(f"%pms = tensor.splat %pmf : {e.T()}")
    e.store("P", "%pms", "f32")
    e.store("C", "%acc", "bf16"); return "%acc"
gemm("g20_128x128_splat_const_stores", 128, 128, f_splat_store,
     comment="stores of an arith.constant bf16 tile (zeros) and of tensor.splat(float(pid)) f32, beside C")

def f_dead(e):
    d1 = e.op("math.exp", "%acc"); e.rowred("sum", d1)
    e.arg("DR", f"!tile.desc<{e.BM}x{e.BN}xbf16>", "M, N")
    e.lines.append(f"%dr = tile.load %DR[%m0, %n0] : !tile.desc<{e.BM}x{e.BN}xbf16> -> {e.T('bf16')}")
    e.lines.append(f"%dre = arith.extf %dr : {e.T('bf16')} to {e.T()}")
    e.op("arith.addf", "%dre", d1)
    e.store("C", "%acc", "bf16"); return "%acc"
gemm("g21_128x256_dead_ops_after", 128, 256, f_dead,
     comment="dead ops after the loop: exp, its row sum, a load, its extf and a sum, none read")

def f_shifted(e):
    e.store("C", "%acc", "bf16")
    e.lines.append(f"%n1 = arith.addi %n0, %N : index")
    y = e.silu("%acc")
    store_at(e, "C", y, "bf16", "M, 2 * N", "%m0, %n1")   # the same descriptor name: fix below
    return y
def f_shifted2(e):
    e.arg("CC", f"!tile.desc<{e.BM}x{e.BN}xbf16>", "M, 2 * N")
    e.lines.append(f"%cb0 = arith.truncf %acc : {e.T()} to {e.T('bf16')}")
    e.lines.append(f"tile.store %CC[%m0, %n0], %cb0 : !tile.desc<{e.BM}x{e.BN}xbf16>, {e.T('bf16')}")
    e.lines.append(f"%n1 = arith.addi %n0, %N : index")
    y = e.silu("%acc")
    e.lines.append(f"%cb1 = arith.truncf {y} : {e.T()} to {e.T('bf16')}")
    e.lines.append(f"tile.store %CC[%m0, %n1], %cb1 : !tile.desc<{e.BM}x{e.BN}xbf16>, {e.T('bf16')}")
    return y
gemm("g22_128x128_concat_shifted_second_store", 128, 128, f_shifted2, defaults=(4096, 4096, 2048),
     comment="one output [M, 2N]: acc at column n0, silu(acc) at column n0 + N (a store shifted by a size)")

def f_two_chains(e):
    s = e.sigmoid("%acc"); t = e.op("math.tanh", "%acc")
    e.store("S", s, "bf16"); e.store("T", t, "f16")
    e.store("ST", e.op("arith.mulf", s, t), "bf16"); return s
gemm("g23_128x256_two_chains_three_stores", 128, 256, f_two_chains,
     comment="acc read by two chains (sigmoid, tanh) stored separately and their product stored third")

# ---- loops with other loop shapes
def gemm_custom(name, text): gen.w(name, text)
HDR = """module {{
  func.func @{name}(
      {args},
      %M: index {{tile.size = "M"}}, %N: index {{tile.size = "N"}}, %K: index {{tile.size = "K"}})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> {grid}>,
                  tile.defaults = {{M = {M} : i64, N = {N} : i64, K = {K} : i64}},
                  tile.warpgroups = array<i64: 1, {cwg}>{extra}}} {{
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
"""
def sh(shape): return f"{{tile.shape = affine_map<()[M, N, K] -> ({shape})>}}"
def S(n, st, o, g, w=0): return f'{{tile.sched = #tile.sched<"{n}", stage = {st}, order = {o}, group = {g}{", wait = %d" % w if w else ""}>}}'
def St(n, st, o, g, w=0): return S(n, st, o, g, w)[1:-1]

def swiglu(name, BM, BN, persistent=False, pp=False, defaults=(4096, 4096, 4096)):
    A = f"tensor<{BM}x64xbf16>"; B = f"tensor<{BN}x64xbf16>"; T = f"tensor<{BM}x{BN}xf32>"; TB = f"tensor<{BM}x{BN}xbf16>"
    args = ",\n      ".join([f"%A: !tile.desc<{BM}x64xbf16> {sh('M, K')}", f"%W1: !tile.desc<{BN}x64xbf16> {sh('N, K')}",
                            f"%W3: !tile.desc<{BN}x64xbf16> {sh('N, K')}", f"%C: !tile.desc<{BM}x{BN}xbf16> {sh('M, N')}"])
    grid = "(132)" if persistent else f"(M ceildiv {BM}, N ceildiv {BN})"
    extra = ',\n                  tile.consumers = "pingpong"' if pp else ""
    t = HDR.format(name=name, args=args, grid=grid, M=defaults[0], N=defaults[1], K=defaults[2], cwg=2, extra=extra)
    body = f"""%zero = arith.constant dense<0.0> : {T}
      %one = arith.constant dense<1.0> : {T}
      %r:2 = scf.for %k = %c0 to %K step %c64 iter_args(%c1 = %zero, %c3 = %zero) -> ({T}, {T}) {{
        %a = tile.load %A[%m0, %k] {S("loadA", 0, 1, 0)} : !tile.desc<{BM}x64xbf16> -> {A}
        %b1 = tile.load %W1[%n0, %k] {S("loadB1", 0, 2, 0)} : !tile.desc<{BN}x64xbf16> -> {B}
        %b3 = tile.load %W3[%n0, %k] {S("loadB3", 0, 3, 0)} : !tile.desc<{BN}x64xbf16> -> {B}
        %d1 = tile.dot %a, %b1, %c1 {{transpose_b, {St("MMA1", 1, 0, 1)}}} : {A}, {B} -> {T}
        %d3 = tile.dot %a, %b3, %c3 {{transpose_b, {St("MMA3", 1, 1, 1)}}} : {A}, {B} -> {T}
        scf.yield %d1, %d3 : {T}, {T}
      }}
      %ng = arith.negf %r#0 : {T}
      %ex = math.exp %ng : {T}
      %de = arith.addf %ex, %one : {T}
      %si = arith.divf %r#0, %de : {T}
      %h = arith.mulf %si, %r#1 : {T}
      %hb = arith.truncf %h : {T} to {TB}
      tile.store %C[%m0, %n0], %hb : !tile.desc<{BM}x{BN}xbf16>, {TB}
"""
    if persistent:
        core = f"""    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tmn = arith.ceildivui %M, %c{BM} : index
    %tnn = arith.ceildivui %N, %c{BN} : index
    %tiles = arith.muli %tmn, %tnn : index
    scf.for %t = %pid to %tiles step %nprog {{
      %tm = arith.divui %t, %tnn : index
      %tn = arith.remui %t, %tnn : index
      %m0 = arith.muli %tm, %c{BM} : index
      %n0 = arith.muli %tn, %c{BN} : index
      {body}    }}
"""
    else:
        core = f"""    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c{BM} : index
    %n0 = arith.muli %pn, %c{BN} : index
      {body}"""
    gen.w(name, "// SwiGLU MLP up-projection: two accumulators (A W1^T, A W3^T), silu(acc1) * acc3 after the loop\n"
          + t.replace("    %c0 = arith.constant 0 : index\n", "    %c0 = arith.constant 0 : index\n" + (f"    %c{BN} = arith.constant {BN} : index\n" if BN not in (64, 128, 256) else ""), 1)
          + core + "    return\n  }\n}\n")
swiglu("g24_128x128_swiglu_two_acc", 128, 128)
swiglu("g24b_128x64_pp_swiglu_two_acc", 128, 64, persistent=True, pp=True, defaults=(4096, 4096, 2048))

def init_kernel(name, init, BM=128, BN=128, defaults=(4096, 4096, 4096), kloop=None, comment=""):
    T = f"tensor<{BM}x{BN}xf32>"; TB = f"tensor<{BM}x{BN}xbf16>"
    args = [f"%A: !tile.desc<{BM}x64xbf16> {sh('M, K')}", f"%B: !tile.desc<{BN}x64xbf16> {sh('N, K')}",
            f"%C: !tile.desc<{BM}x{BN}xf32> {sh('M, N')}", f"%D: !tile.desc<{BM}x{BN}xbf16> {sh('M, N')}"]
    pre = ""
    if init == "loaded":
        args.append(f"%CI: !tile.desc<{BM}x{BN}xf32> {sh('M, N')}")
        pre = f"    %init = tile.load %CI[%m0, %n0] : !tile.desc<{BM}x{BN}xf32> -> {T}\n"
    elif init == "const":
        pre = f"    %init = arith.constant dense<1.5> : {T}\n"
    else:
        pre = f"    %init = arith.constant dense<0.0> : {T}\n"
    lo, hi = "%c0", "%K"
    grid = f"(M ceildiv {BM}, N ceildiv {BN})"
    if kloop == "splitk":
        # grid z = 4 splits of ceil(K/4) rounded to 64; the last split may get no K block
        args[2] = f"%C: !tile.desc<1x{BM}x{BN}xf32> {{tile.shape = affine_map<()[M, N, K] -> (4, M, N)>}}"
        pre += """    %pz = tile.program_id 2 : index
    %c4 = arith.constant 4 : index
    %kq = arith.ceildivui %K, %c4 : index
    %kq64 = arith.ceildivui %kq, %c64 : index
    %ks = arith.muli %kq64, %c64 : index
    %kbeg = arith.muli %pz, %ks : index
    %kend0 = arith.addi %kbeg, %ks : index
    %kend = arith.minui %kend0, %K : index
"""
        lo, hi = "%kbeg", "%kend"; grid = f"(M ceildiv {BM}, N ceildiv {BN}, 4)"
    t = HDR.format(name=name, args=",\n      ".join(args), grid=grid, M=defaults[0], N=defaults[1], K=defaults[2], cwg=2, extra="")
    cst = "%pz, %m0, %n0" if kloop == "splitk" else "%m0, %n0"
    cty = f"!tile.desc<1x{BM}x{BN}xf32>" if kloop == "splitk" else f"!tile.desc<{BM}x{BN}xf32>"
    t += f"""    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c{BM} : index
    %n0 = arith.muli %pn, %c{BN} : index
{pre}    %acc = scf.for %k = {lo} to {hi} step %c64 iter_args(%c = %init) -> ({T}) {{
      %a = tile.load %A[%m0, %k] {S("loadA", 0, 1, 0)} : !tile.desc<{BM}x64xbf16> -> tensor<{BM}x64xbf16>
      %b = tile.load %B[%n0, %k] {S("loadB", 0, 2, 0)} : !tile.desc<{BN}x64xbf16> -> tensor<{BN}x64xbf16>
      %d = tile.dot %a, %b, %c {{transpose_b, {St("MMA", 2, 0, 1, 1)}}} : tensor<{BM}x64xbf16>, tensor<{BN}x64xbf16> -> {T}
      scf.yield %d : {T}
    }}
    tile.store %C[{cst}], %acc : {cty}, {T}
    %half = arith.constant dense<0.5> : {T}
    %y = arith.mulf %acc, %half : {T}
    %th = math.tanh %y : {T}
    %yb = arith.truncf %th : {T} to {TB}
    tile.store %D[%m0, %n0], %yb : !tile.desc<{BM}x{BN}xbf16>, {TB}
    return
  }}
}}
"""
    gen.w(name, f"// {comment}\n" + t)
init_kernel("g25_128x128_acc_init_loaded_C", "loaded", comment="C_out = C_in + A B^T: the accumulator's init is an f32 tile loaded before the loop; f32 and tanh bf16 outputs")
init_kernel("g26_128x128_acc_init_const", "const", comment="the accumulator starts at 1.5 (a non-zero constant init; zero-trip branch gives it)")
init_kernel("g27_128x128_splitk_zero_trip", "zero", kloop="splitk", defaults=(2048, 2048, 192),
            comment="split-K over grid z = 4 (K=192: splits of 64, the 4th has no K block: zero-trip loop); f32 partials [4, M, N] + tanh bf16")
init_kernel("g27b_128x128_splitk_const_init_zero_trip", "const", kloop="splitk", defaults=(2048, 2048, 192),
            comment="split-K zero-trip with a constant init 1.5")

def fp8_fn(e):
    e.arg("SA", "!tile.desc<4xf32>", "4"); e.arg("SB", "!tile.desc<4xf32>", "4")
    e.lines += ["%sat = tile.load %SA[%c0] : !tile.desc<4xf32> -> tensor<4xf32>",
                "%sbt = tile.load %SB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>",
                "%sa = tensor.extract %sat[%c0] : tensor<4xf32>", "%sb = tensor.extract %sbt[%c0] : tensor<4xf32>",
                "%s = arith.mulf %sa, %sb : f32", f"%ss = tensor.splat %s : {e.T()}"]
    x = e.op("arith.mulf", "%acc", "%ss")
    amax = e.rowred("max", e.op("math.absf", x)); store_vec(e, "AMAX", amax)
    q = e.op("arith.divf", x, e.bcast_row(amax))
    e.store("Q4", e.op("arith.mulf", q, e.const("448.0")), "f8E4M3FN")
    e.store("Q5", e.op("arith.mulf", q, e.const("57344.0")), "f8E5M2")
    e.store("C", x, "bf16"); return x
gemm("g28_128x256_fp8_gemm_fp8_outs_amax", 128, 256, fp8_fn, dt="f8E4M3FN", BK=128,
     comment="e4m3 GEMM, per-tensor scales (extract), row absmax 1-d, per-row quantized e4m3 and e5m2 outputs, bf16 out")

def f_scalar_sel(e):
    e.lines.append("%first = arith.cmpi eq, %pn, %c0 : index")
    d = e.op("arith.mulf", "%acc", e.const("2.0"))
    r = e.v("ss"); e.lines.append(f"{r} = arith.select %first, %acc, {d} : {e.T()}")
    e.store("C", r, "bf16"); return r
gemm("g29_128x128_scalar_cond_select", 128, 128, f_scalar_sel,
     comment="a select whose condition is an i1 scalar (pid_n == 0) after the loop")

def f_store_bcast(e):
    mx = e.rowred("max", "%acc")
    e.store("MB", e.bcast_row(mx), "bf16")
    e.store("C", e.op("arith.subf", "%acc", e.bcast_row(mx)), "bf16"); return "%acc"
gemm("g30_128x128_store_broadcast_of_rowmax", 128, 128, f_store_bcast,
     comment="a 2-d store of tile.broadcast(rowmax) itself, and acc - rowmax")

gemm("g31_128x128_res_bias_cluster2", 128, 128, gen.E_res("bf16", "bf16", rowbias=True, colbias=True),
     comment="row+col bias + residual; run with schedules/c2.json (cluster 2)")

def f_both_dims(e):
    rs = e.rowred("sum", "%acc"); cs = colred(e, "sum", "%acc")
    y = e.op("arith.divf", e.op("arith.mulf", "%acc", "%acc"), e.op("arith.mulf", e.bcast_row(rs), bcast_col(e, cs)))
    e.store("C", y, "f32"); store_vec(e, "RS", rs, "f16"); store_vec(e, "CS", cs, "bf16", along="col"); return y
gemm("g32_128x128_row_and_col_reduce", 128, 128, f_both_dims,
     comment="row sums and column sums of the tile, acc^2 / (rowsum * colsum) f32 out, both vectors stored 16-bit")

def f_vec_dtypes(e):
    rs = e.rowred("sum", "%acc")
    store_vec(e, "V32", rs); store_vec(e, "V16", rs, "f16"); store_vec(e, "VB", rs, "bf16"); store_vec(e, "V8", rs, "f8E4M3FN")
    e.store("C", "%acc", "bf16"); return "%acc"
gemm("g33_128x128_rowsum_1d_in_4_dtypes", 128, 128, f_vec_dtypes,
     comment="a row sum stored as 1-d f32, f16, bf16 and e4m3 vectors")

def f_ext_from_computed(e):
    x = e.op("arith.mulf", "%acc", e.const("3.0"))
    e.lines.append(f"%x00 = tensor.extract {x}[%c0, %c0] : {e.T()}")
    e.lines.append(f"%xs = tensor.splat %x00 : {e.T()}")
    y = e.op("arith.subf", x, "%xs"); e.store("C", y, "bf16"); return y
gemm("g34_128x128_extract_of_computed_tile", 128, 128, f_ext_from_computed,
     comment="expected refused: tensor.extract of an element of a tile computed after the loop")

def f_bshd(e):
    return None
# ================================================================== persistent / ping-pong
gemm("p01_pp_128x128_f32_e4m3_rowmax_tails", 128, 128,
     lambda e: (lambda x: (e.store("C32", x, "f32"), e.store("C8", x, "f8E4M3FN"), store_vec(e, "RM", e.rowred("max", x)), x)[3])(
         e.op("arith.mulf", "%acc", e.vec("CS", "col"))),
     persistent=True, consumers="pingpong", stage=2, defaults=(3000, 2000, 1000),
     comment="ping-pong: acc * colscale stored f32 and e4m3, row max 1-d; tails in M, N, K")
gemm("p02_pers_128x256_three_stores_tails", 128, 256,
     lambda e: (lambda x: (e.store("C", x, "bf16"), e.store("G", e.gelu_tanh(x), "bf16"), store_vec(e, "RS", e.rowred("sum", x)), x)[3])(
         e.op("arith.addf", "%acc", e.vec("CB", "col"))),
     persistent=True, stage=2, defaults=(3000, 2000, 1000),
     comment="persistent cooperative 128x256: pre-activation bf16, tanh-GELU bf16, row sum f32; tails")
gemm("p03_pp_128x128_rmsnorm_gamma", 128, 128, f_add_rmsnorm, persistent=True, consumers="pingpong", stage=1, wait=0,
     defaults=(4096, 128, 4096), comment="ping-pong fused add + RMSNorm (N = 128 = tile): residual out, normed out, rstd")
gemm("p04_pers_128x128_iota_mask_tails", 128, 128, f_iota_tails, persistent=True, stage=2, defaults=(1000, 1000, 1000),
     comment="persistent: iota masks zero rows >= M and columns >= N (tails), row sums")
gemm("p05_pp_128x64_res_and_splat", 128, 64,
     lambda e: (lambda x: (e.store("C", x, "bf16"), e.lines.append(f"%cz = arith.constant dense<1.0> : {e.T('f16')}"),
                          e.arg("Z", f"!tile.desc<{e.BM}x{e.BN}xf16>", "M, N"),
                          e.lines.append(f"tile.store %Z[%m0, %n0], %cz : !tile.desc<{e.BM}x{e.BN}xf16>, {e.T('f16')}"), x)[4])(
         e.op("arith.addf", "%acc", e.load_tile("R", "bf16"))),
     persistent=True, consumers="pingpong", stage=2, defaults=(4096, 4096, 2048),
     comment="ping-pong 128x64: acc + R bf16, and a constant f16 tile of ones stored")
gemm("p06_pers_128x128_cluster2_colbias_e5m2", 128, 128,
     lambda e: (lambda x: (e.store("C", x, "f8E5M2"), e.store("Cb", x, "bf16"), x)[2])(
         e.op("arith.addf", "%acc", e.vec("CB", "col"))),
     persistent=True, stage=2, defaults=(4096, 4096, 4096),
     comment="persistent + cluster 2 (schedules/c2.json): col bias, e5m2 and bf16 outputs")
gemm("p07_pp_64x256_gelu_two_dtypes", 64, 256,
     lambda e: (lambda x: (e.store("C", x, "f16"), e.store("G", e.gelu_tanh(x), "bf16"), x)[2])(
         e.op("arith.addf", "%acc", e.vec("CB", "col"))),
     persistent=True, consumers="pingpong", cwg=2, stage=2, defaults=(4096, 4096, 4096),
     comment="ping-pong 64x256 tiles: pre-activation f16 + tanh-GELU bf16")
gemm("p08_pers_128x128_softmax_over_n", 128, 128, f_softmax, persistent=True, stage=2, defaults=(8192, 128, 2048),
     comment="persistent softmax over the 128 columns after the GEMM + LSE")
gemm("p09_pers_128x128_colreduce", 128, 128, f_colreduce, persistent=True, stage=2, defaults=(3000, 2000, 1000),
     comment="persistent cooperative column sum/max (dim 0) with tails")
gemm("p10_pp_128x128_math_chain_tails", 128, 128, f_math_chain, persistent=True, consumers="pingpong", stage=2, defaults=(3000, 2000, 1000),
     comment="ping-pong: the long transcendental chain (softplus, sqrt, rsqrt, tanh, erf, exp2), tails")
gemm("p11_pp_128x128_dropout_hash", 128, 128, f_int_dropout, persistent=True, consumers="pingpong", stage=2,
     comment="ping-pong: integer hash dropout + hash byte out")
gemm("p12_pers_128x24_narrow", 128, 24, f_plain("bf16"), persistent=True, stage=2, defaults=(2048, 384, 1024),
     comment="persistent N tile 24")

# ================================================================== attention
def attn(name, D, post, extra_args=(), BKV=128, BQ=128, dt="bf16", G=1, causal=False, defaults=(4, 16, 4096),
         comment="", persistent=False, odt="bf16"):
    cwg = BQ // 64
    scale = math.log2(math.e) / math.sqrt(D)
    kvshape = "B * H, S" if G == 1 else f"B * (H floordiv {G}), S"
    args = [f"%Q: !tile.desc<1x{BQ}x{D}x{dt}> {{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {D})>}}",
            f"%K: !tile.desc<1x{BKV}x{D}x{dt}> {{tile.shape = affine_map<()[B, H, S] -> ({kvshape}, {D})>}}",
            f"%V: !tile.desc<1x{BKV}x{D}x{dt}> {{tile.shape = affine_map<()[B, H, S] -> ({kvshape}, {D})>}}"]
    args += [a.format(BQ=BQ, D=D) for a in extra_args]
    TO = f"tensor<{BQ}x{D}xf32>"; TS = f"tensor<{BQ}x{BKV}xf32>"; TV = f"tensor<{BQ}xf32>"
    kvidx = "%bh"; gqa = ""
    if G > 1:
        gqa = f"""    %hh = arith.remui %bh, %H : index
    %bb = arith.divui %bh, %H : index
    %hkv = arith.divui %H, %cG : index
    %bbk = arith.muli %bb, %hkv : index
    %hk = arith.divui %hh, %cG : index
    %kvh = arith.addi %bbk, %hk : index
"""
        kvidx = "%kvh"
    hi = "%S"; cz = ""
    if causal:
        cz = f"    %qe = arith.addi %q0, %cBQ : index\n    %hi = arith.minui %qe, %S : index\n"; hi = "%hi"
    Sd = lambda nm, st, o, grp=1: f'{{tile.sched = #tile.sched<"{nm}", stage = {st}, order = {o}, group = {grp}>}}'
    sm = Sd("Softmax", 1, 1)
    smc = sm.replace("{tile.sched", "{causal, tile.sched") if causal else sm
    loop = f"""    %res:3 = scf.for %j = %c0 to {hi} step %cKV
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init) -> ({TO}, {TV}, {TV}) {{
      %k = tile.load %K[{kvidx}, %j, %c0] {Sd("loadK", 0, 4, 0)} : !tile.desc<1x{BKV}x{D}x{dt}> -> tensor<{BKV}x{D}x{dt}>
      %s = tile.dot %q, %k, %zero_s {{transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}} : tensor<{BQ}x{D}x{dt}>, tensor<{BKV}x{D}x{dt}> -> {TS}
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
      %ab = tile.broadcast %alpha, dim = 1 {Sd("MUL", 1, 2)} : {TV} -> {TO}
      %accs = arith.mulf %acc, %ab {Sd("MUL", 1, 2)} : {TO}
      %v = tile.load %V[{kvidx}, %j, %c0] {Sd("loadV", 0, 5, 0)} : !tile.desc<1x{BKV}x{D}x{dt}> -> tensor<{BKV}x{D}x{dt}>
      %acc2 = tile.dot %pb, %v, %accs {{tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}} : tensor<{BQ}x{BKV}x{dt}>, tensor<{BKV}x{D}x{dt}> -> {TO}
      scf.yield %acc2, %mn, %ln : {TO}, {TV}, {TV}
    }}
"""
    postl = "".join("    " + l.format(TO=TO, TV=TV, BQ=BQ, D=D) + "\n" for l in post)
    consts = f"    %c0 = arith.constant 0 : index\n    %cBQ = arith.constant {BQ} : index\n    %cKV = arith.constant {BKV} : index\n"
    if G > 1: consts += f"    %cG = arith.constant {G} : index\n"
    if persistent:
        head = f"""    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %nq = arith.ceildivui %S, %cBQ : index
    %bhn = arith.muli %B, %H : index
    %tiles = arith.muli %nq, %bhn : index
    scf.for %t = %pid to %tiles step %nprog {{
    %qblk = arith.remui %t, %nq : index
    %bh = arith.divui %t, %nq : index
"""
        grid = "(132)"; tail = "    }\n"
    else:
        head = "    %qblk = tile.program_id 0 : index\n    %bh = tile.program_id 1 : index\n"
        grid = f"(S ceildiv {BQ}, B * H)"; tail = ""
    text = f"""// {comment}
module {{
  func.func @{name}(
      {(","+chr(10)+"      ").join(args)},
      %B: index {{tile.size = "B"}}, %H: index {{tile.size = "H"}}, %S: index {{tile.size = "S"}})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> {grid}>,
                  tile.defaults = {{B = {defaults[0]} : i64, H = {defaults[1]} : i64, S = {defaults[2]} : i64}},
                  tile.warpgroups = array<i64: 1, {cwg}>}} {{
{consts}{head}    %q0 = arith.muli %qblk, %cBQ : index
{gqa}{cz}    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}x{dt}> -> tensor<{BQ}x{D}x{dt}>
    %zero_s = arith.constant dense<0.000000e+00> : {TS}
    %zero_o = arith.constant dense<0.000000e+00> : {TO}
    %scale = arith.constant dense<{scale!r}> : {TS}
    %m_init = arith.constant dense<0xFF800000> : {TV}
    %l_init = arith.constant dense<0.000000e+00> : {TV}
{loop}{postl}{tail}    return
  }}
}}
"""
    gen.w(name, text)

OD = lambda nm, dt: f"%{nm}: !tile.desc<1x{{BQ}}x{{D}}x{dt}> {{{{tile.shape = affine_map<()[B, H, S] -> (B * H, S, {{D}})>}}}}"
LD = lambda nm, dt: f"%{nm}: !tile.desc<1x{{BQ}}x{dt}> {{{{tile.shape = affine_map<()[B, H, S] -> (B * H, S)>}}}}"
NORM = ["%lb = tile.broadcast %res#2, dim = 1 : {TV} -> {TO}", "%o = arith.divf %res#0, %lb : {TO}"]
LSE = ["%l2 = math.log2 %res#2 : {TV}", "%lse = arith.addf %res#1, %l2 : {TV}"]
_n = [0]
def st(nm, v, dt, shape="{BQ}x{D}", coords="%bh, %q0, %c0"):
    r = []; _n[0] += 1
    if dt != "f32":
        r.append(f"%{nm}_t{_n[0]} = arith.truncf {v} : tensor<{shape}xf32> to tensor<{shape}x{dt}>"); v = f"%{nm}_t{_n[0]}"
    r.append(f"tile.store %{nm}[{coords}], {v} : !tile.desc<1x{shape}x{dt}>, tensor<{shape}x{dt}>"); return r
def stv(nm, v, dt): return st(nm, v, dt, shape="{BQ}", coords="%bh, %q0")

attn("a01_d128_o_two_dtypes_lse_three_dtypes", 128,
     NORM + st("O", "%o", "bf16") + st("O32", "%o", "f32") + LSE + stv("L32", "%lse", "f32") + stv("LB", "%lse", "bf16") + stv("LH", "%lse", "f16"),
     extra_args=[OD("O", "bf16"), OD("O32", "f32"), LD("L32", "f32"), LD("LB", "bf16"), LD("LH", "f16")], defaults=(2, 16, 2048),
     comment="d128: O stored bf16 and f32, LSE stored f32, bf16 and f16")
attn("a02_d64_o_e4m3_lse_ln", 64,
     NORM + st("O", "%o", "f8E4M3FN") + LSE + ["%ln2 = arith.constant dense<0.693147182> : {TV}", "%lsen = arith.mulf %lse, %ln2 : {TV}"] + stv("L", "%lsen", "f32"),
     extra_args=[OD("O", "f8E4M3FN"), LD("L", "f32")], comment="d64: O quantized to e4m3, natural-log LSE (log2 * ln 2)")
attn("a03_d128_gqa4_gate_res_rmsnorm_f16", 128,
     NORM + ["%g = tile.load %G[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}xf16> -> tensor<{BQ}x{D}xf16>",
             "%gf = arith.extf %g : tensor<{BQ}x{D}xf16> to {TO}", "%gn = arith.negf %gf : {TO}", "%ge = math.exp %gn : {TO}",
             "%one = arith.constant dense<1.0> : {TO}", "%gd = arith.addf %ge, %one : {TO}", "%og = arith.divf %o, %gd : {TO}",
             "%r = tile.load %R[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}xf16> -> tensor<{BQ}x{D}xf16>",
             "%rf = arith.extf %r : tensor<{BQ}x{D}xf16> to {TO}", "%x = arith.addf %og, %rf : {TO}",
             "%x2 = arith.mulf %x, %x : {TO}", "%ss = tile.reduce sum %x2, dim = 1 : {TO} -> {TV}",
             "%invd = arith.constant dense<0.0078125> : {TV}", "%ms = arith.mulf %ss, %invd : {TV}",
             "%eps = arith.constant dense<1.0e-6> : {TV}", "%mse = arith.addf %ms, %eps : {TV}", "%rs = math.rsqrt %mse : {TV}",
             "%rsb = tile.broadcast %rs, dim = 1 : {TV} -> {TO}", "%y = arith.mulf %x, %rsb : {TO}"] + st("O", "%y", "f16"),
     extra_args=[OD("G", "f16"), OD("R", "f16"), OD("O", "f16")], dt="f16", G=4, defaults=(2, 32, 2048),
     comment="d128 GQA-4 f16: sigmoid gate, residual, then RMSNorm over d of the result (row reduce after the loop), f16 out")
attn("a04_d64_causal_lse_e5m2_o_f16", 64,
     NORM + st("O", "%o", "f16") + LSE + stv("L", "%lse", "f8E5M2"),
     extra_args=[OD("O", "f16"), LD("L", "f8E5M2")], causal=True, BKV=64, dt="f16", defaults=(4, 16, 3000),
     comment="d64 causal f16, 64-key blocks, S = 3000: O f16 and an e5m2 LSE (1-d FP8 store)")
attn("a05_pers_d128_gate_lse", 128,
     NORM + ["%g = tile.load %G[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}xbf16> -> tensor<{BQ}x{D}xbf16>",
             "%gf = arith.extf %g : tensor<{BQ}x{D}xbf16> to {TO}", "%og = arith.mulf %o, %gf : {TO}"] + st("O", "%og", "bf16") + LSE + stv("L", "%lse", "f32"),
     extra_args=[OD("G", "bf16"), OD("O", "bf16"), LD("L", "f32")], persistent=True, defaults=(4, 16, 4000),
     comment="persistent attention d128: O * G (bf16 gate), LSE f32; S = 4000 (partial last q block)")
attn("a06_d96_bk64_two_outputs_shifted_rows", 96,
     NORM + st("O", "%o", "bf16") + ["%q1 = arith.addi %q0, %S : index", "%o2 = arith.mulf %o, %o : {TO}"] + st("O", "%o2", "bf16", coords="%bh, %q1, %c0"),
     extra_args=["%O: !tile.desc<1x{BQ}x{D}xbf16> {{tile.shape = affine_map<()[B, H, S] -> (B * H, 2 * S, {D})>}}"], BKV=64,
     defaults=(4, 16, 2048), comment="d96, 64-key blocks: O at rows q0 and O*O at rows q0 + S of one [BH, 2S, d] output")
attn("a07_d256_bq64_zero_row_guard", 256,
     ["%zv = arith.constant dense<0.0> : {TV}", "%onev = arith.constant dense<1.0> : {TV}", "%isz = arith.cmpf oeq, %res#2, %zv : {TV}",
      "%lsafe = arith.select %isz, %onev, %res#2 : tensor<{BQ}xi1>, {TV}", "%inv = arith.divf %onev, %lsafe : {TV}",
      "%ib = tile.broadcast %inv, dim = 1 : {TV} -> {TO}", "%o = arith.mulf %res#0, %ib : {TO}"] + st("O", "%o", "bf16"),
     extra_args=[OD("O", "bf16")], BQ=64, BKV=64, defaults=(2, 16, 2048),
     comment="d256, 64 query rows (one WG), 64-key blocks: 1/l with a zero-l guard (select on the 1-d vector), bf16 out")
attn("a08_d128_split_kv_partials", 128,
     st("OACC", "%res#0", "f32") + NORM + st("O", "%o", "bf16") + stv("M", "%res#1", "f32") + stv("L", "%res#2", "f32"),
     extra_args=[OD("OACC", "f32"), OD("O", "bf16"), LD("M", "f32"), LD("L", "f32")], defaults=(2, 16, 2048),
     comment="flash-decoding style partials: the unnormalized accumulator f32, normalized bf16, m and l vectors")
attn("a09_d64_o_iota_rowmask_tail", 64,
     NORM + ["%rows = tile.iota %q0, dim = 0 : tensor<{BQ}x{D}xi32>",
             "%Si = arith.index_cast %S : index to i32", "%Ss = tensor.splat %Si : tensor<{BQ}x{D}xi32>",
             "%inr = arith.cmpi slt, %rows, %Ss : tensor<{BQ}x{D}xi32>", "%z = arith.constant dense<0.0> : {TO}",
             "%om = arith.select %inr, %o, %z : tensor<{BQ}x{D}xi1>, {TO}"] + st("O", "%om", "bf16"),
     extra_args=[OD("O", "bf16")], defaults=(4, 16, 1000),
     comment="d64, S = 1000: rows >= S zeroed by an iota mask (NaN rows of the partial block)")
attn("a10_d128_bq192_res_f32", 128,
     NORM + ["%r = tile.load %R[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}xf32> -> {TO}", "%x = arith.addf %o, %r : {TO}"] + st("O", "%x", "bf16"),
     extra_args=[OD("R", "f32"), OD("O", "bf16")], BQ=192, defaults=(2, 16, 3072),
     comment="d128 with 192 query rows (three consumer WGs), f32 residual, bf16 out")

# ================================================================== schedules
sched_ = lambda n, d: gen.sched(n, d)
gen.SCH = os.path.join(gen.OUT, "schedules")
os.makedirs(gen.SCH, exist_ok=True)
sched_("c2", {"cluster": 2, "ops": []})
sched_("pp", {"consumers": "pingpong", "ops": []})
sched_("s1w0", {"ops": [{"name": "MMA", "stage": 1, "order": 0, "group": 1}]})

# ================================================================== extra (x-series)
sched_("stag", {"consumers": "staggered", "ops": []})
def f_store_col_bcast(e):
    cb = e.vec("CB", "col")
    e.store("BT", cb, "bf16")                      # a 2-d store of the broadcast column vector itself
    e.store("C", e.op("arith.addf", "%acc", cb), "bf16"); return cb
gemm("x02_128x128_store_of_col_broadcast", 128, 128, f_store_col_bcast,
     comment="a 2-d store of tile.broadcast(column bias) itself beside acc + bias")
def f_cmpf_mask_reduced(e):
    pos = cmpf(e, "ogt", "%acc", e.const("0.0"))
    y = sel(e, pos, "%acc", e.op("arith.mulf", "%acc", e.const("0.01")))   # leaky relu via mask
    e.store("C", y, "bf16")
    z = sel(e, pos, e.const("1.0"), e.const("0.0"))
    store_vec(e, "NPOS", e.rowred("sum", z)); return y
gemm("x03_128x256_cmpf_mask_stored_and_counted", 128, 256, f_cmpf_mask_reduced,
     comment="an i1 mask (acc > 0) used by a stored leaky-ReLU select and by a counted select (row sum of 1/0)")
gemm("x04_pp_128x128_iota_rows_tails", 128, 128, f_iota_tails, persistent=True, consumers="pingpong", stage=2, defaults=(1000, 1000, 1000),
     comment="ping-pong (two row blocks per WG): iota row/column masks with tails, row sum")
def f_clamp_e4m3(e):
    x = e.op("arith.mulf", "%acc", e.vec("SC", "col"))
    x = e.op("arith.minimumf", e.op("arith.maximumf", x, e.const("-448.0")), e.const("448.0"))
    y = e.v("fm"); e.lines.append(f"{y} = math.fma {x}, {e.const('0.5')}, {e.const('0.25')} : {e.T()}")
    e.store("Q", y, "f8E4M3FN"); e.store("AB", e.op("math.absf", y), "f16"); return y
gemm("x06_64x128_1wg_clamp_fma_e4m3", 64, 128, f_clamp_e4m3, defaults=(2048, 2048, 2048),
     comment="one consumer WG 64x128: clamp to +-448, fma, e4m3 and |.| f16 outputs")
def f_vec_both(e):
    rs = e.rowred("sum", "%acc"); inv = e.vop("arith.divf", e.v("q") and (lambda q: (e.lines.append(f"{q} = arith.constant dense<1.0> : tensor<{e.BM}xf32>"), q)[1])(e.v("one")), rs)
    store_vec(e, "INV", inv)
    e.store("C", e.op("arith.mulf", "%acc", e.bcast_row(inv)), "bf16"); return inv
gemm("x07_128x128_vec_math_1d_and_bcast", 128, 128, f_vec_both,
     comment="1/rowsum stored as a 1-d vector AND broadcast into the 2-d store")
def f_sigmoid_shared(e):
    s = e.sigmoid("%acc")
    e.store("S", s, "bf16"); e.store("SA", e.op("arith.mulf", s, "%acc"), "bf16"); return s
gemm("x08_128x256_sigmoid_and_silu_shared", 128, 256, f_sigmoid_shared,
     comment="sigmoid(acc) stored, and acc * sigmoid(acc) (SiLU) stored: the second store shares the first's sub-expression")
gemm("x08b_128x128_sigmoid_and_silu_shared", 128, 128, f_sigmoid_shared,
     comment="the same at 128x128")
