#!/usr/bin/env python3
"""Writes the attention kernels a08-a13 of this sweep (python3 gen_attn.py)."""
import math

def softmax_body(sname, S, scale_name, extra_pre, P_T):
    """the online softmax on score tile %s0 (name of value) -> returns text; uses %m, %l."""
    return ""

def attn(name, *, D=128, BQ=128, BK=128, dt="bf16", vdt=None, cross=False, bias=None,
         window=False, softcap=None, alibi=False, causal=False, lo_from_window=False,
         wg=2, comment=""):
    vdt = vdt or dt
    sizes = "B, H, SQ, SKV" if cross else "B, H, S"
    SQ = "SQ" if cross else "S"
    SKV = "SKV" if cross else "S"
    extra_sizes = ", W" if window else ""
    syms = f"()[{sizes}{extra_sizes}]"
    args = []
    args.append(f'%Q: !tile.desc<1x{BQ}x{D}x{dt}> {{tile.shape = affine_map<{syms} -> (B * H, {SQ}, {D})>}}')
    args.append(f'%K: !tile.desc<1x{BK}x{D}x{dt}> {{tile.shape = affine_map<{syms} -> (B * H, {SKV}, {D})>}}')
    args.append(f'%V: !tile.desc<1x{BK}x{D}x{vdt}> {{tile.shape = affine_map<{syms} -> (B * H, {SKV}, {D})>}}')
    if bias:
        args.append(f'%BIAS: !tile.desc<1x{BQ}x{BK}x{bias}> {{tile.shape = affine_map<{syms} -> (B * H, {SQ}, {SKV})>}}')
    args.append(f'%O: !tile.desc<1x{BQ}x{D}x{vdt}> {{tile.shape = affine_map<{syms} -> (B * H, {SQ}, {D})>}}')
    args.append('%B: index {tile.size = "B"}')
    args.append('%H: index {tile.size = "H"}')
    if cross:
        args.append('%SQ: index {tile.size = "SQ"}')
        args.append('%SKV: index {tile.size = "SKV"}')
    else:
        args.append('%S: index {tile.size = "S"}')
    if window:
        args.append('%W: index {tile.size = "W"}')
    defaults = "B = 2, H = 16, " + ("SQ = 2048, SKV = 3072" if cross else "S = 4096") + (", W = 1024" if window else "")
    defaults = ", ".join(f"{kv.split('=')[0].strip()} = {kv.split('=')[1].strip()} : i64" for kv in defaults.split(", "))
    wgs = f"1, {wg}"
    L = []
    L.append(f"// {comment}")
    L.append("module {")
    L.append(f"  func.func @{name}(")
    L.append(",\n".join("      " + a for a in args) + ")")
    L.append(f"      attributes {{tile.kernel,")
    L.append(f"                  tile.grid = affine_map<{syms} -> ({SQ} ceildiv {BQ}, B * H)>,")
    L.append(f"                  tile.defaults = {{{defaults}}},")
    L.append(f"                  tile.warpgroups = array<i64: {wgs}>}} {{")
    T = lambda shape, e="f32": f"tensor<{shape}x{e}>"
    SS = f"{BQ}x{BK}"; OO = f"{BQ}x{D}"
    L.append("    %c0 = arith.constant 0 : index")
    L.append(f"    %cBQ = arith.constant {BQ} : index")
    L.append(f"    %cBK = arith.constant {BK} : index")
    L.append("    %qblk = tile.program_id 0 : index")
    L.append("    %bh = tile.program_id 1 : index")
    L.append("    %q0 = arith.muli %qblk, %cBQ : index")
    L.append(f"    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x{BQ}x{D}x{dt}> -> {T(f'{BQ}x{D}', dt)}")
    L.append(f"    %zero_s = arith.constant dense<0.0> : {T(SS)}")
    L.append(f"    %zero_o = arith.constant dense<0.0> : {T(OO)}")
    sc = 1.4426950408889634 / math.sqrt(D)
    if softcap:
        # s = cap * tanh(qk / (cap sqrt(d))) then * log2e
        L.append(f"    %pre = arith.constant dense<{1.0/(softcap*math.sqrt(D))!r}> : {T(SS)}")
        L.append(f"    %cap = arith.constant dense<{softcap*1.4426950408889634!r}> : {T(SS)}")
    else:
        L.append(f"    %scale = arith.constant dense<{sc!r}> : {T(SS)}")
    L.append(f"    %m_init = arith.constant dense<-1.0e30> : {T(BQ)}")
    L.append(f"    %l_init = arith.constant dense<0.0> : {T(BQ)}")
    L.append(f"    %neg = arith.constant dense<-1.0e30> : {T(SS)}")
    hi = f"%{SKV}"
    lo = "%c0"
    if causal:
        L.append("    %q_end = arith.addi %q0, %cBQ : index")
        L.append(f"    %hi = arith.minui %q_end, %{SKV} : index")
        hi = "%hi"
    if window:
        L.append("    %wi = arith.index_cast %W : index to i32")
        L.append(f"    %wsp = tensor.splat %wi : {T(SS,'i32')}")
        L.append(f"    %zi = arith.constant dense<0> : {T(SS,'i32')}")
        if lo_from_window:
            # first key block any row of this q block can see: (q0 + 1 - W) rounded down, clamped at 0
            L.append("    %c1 = arith.constant 1 : index")
            L.append("    %qa = arith.addi %q0, %c1 : index")
            L.append("    %ok0 = arith.cmpi ugt, %qa, %W : index")
            L.append("    %d0 = arith.subi %qa, %W : index")
            L.append("    %d1 = arith.select %ok0, %d0, %c0 : index")
            L.append("    %blk = arith.divui %d1, %cBK : index")
            L.append("    %lo = arith.muli %blk, %cBK : index")
            lo = "%lo"
    if alibi:
        # slope_h = 2^(-8 (h + 1) / H), h = bh mod H
        L.append("    %h = arith.remui %bh, %H : index")
        L.append("    %c1a = arith.constant 1 : index")
        L.append("    %h1 = arith.addi %h, %c1a : index")
        L.append("    %h1i = arith.index_cast %h1 : index to i32")
        L.append("    %Hi = arith.index_cast %H : index to i32")
        L.append("    %h1f = arith.sitofp %h1i : i32 to f32")
        L.append("    %Hf = arith.sitofp %Hi : i32 to f32")
        L.append("    %m8 = arith.constant -8.0 : f32")
        L.append("    %e0 = arith.mulf %h1f, %m8 : f32")
        L.append("    %e1 = arith.divf %e0, %Hf : f32")
        L.append("    %slope = math.exp2 %e1 : f32")
        L.append("    %l2e = arith.constant 1.4426950408889634 : f32")
        L.append("    %slope2 = arith.mulf %slope, %l2e : f32")
        L.append(f"    %slopes = tensor.splat %slope2 : {T(SS)}")
    L.append(f"    %res:3 = scf.for %j = {lo} to {hi} step %cBK")
    L.append("        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)")
    L.append(f"        -> ({T(OO)}, {T(BQ)}, {T(BQ)}) {{")
    sched = lambda n, st, o: f'tile.sched = #tile.sched<"{n}", stage = {st}, order = {o}, group = 1>'
    sm = lambda: sched("Softmax", 1, 1)
    L.append(f'      %k = tile.load %K[%bh, %j, %c0] {{tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}}')
    L.append(f"          : !tile.desc<1x{BK}x{D}x{dt}> -> {T(f'{BK}x{D}', dt)}")
    L.append(f"      %s = tile.dot %q, %k, %zero_s {{transpose_b, {sched('MMA0',1,0)}}}")
    L.append(f"          : {T(f'{BQ}x{D}', dt)}, {T(f'{BK}x{D}', dt)} -> {T(SS)}")
    cur = "%s"
    L.append(f"      %sm = tile.mask {cur}, %q0, %j, %{SKV} {{{'causal, ' if causal else ''}{sm()}}} : {T(SS)}")
    cur = "%sm"
    if softcap:
        L.append(f"      %sp = arith.mulf {cur}, %pre {{{sm()}}} : {T(SS)}")
        L.append(f"      %st = math.tanh %sp {{{sm()}}} : {T(SS)}")
        L.append(f"      %ss = arith.mulf %st, %cap {{{sm()}}} : {T(SS)}")
    else:
        L.append(f"      %ss = arith.mulf {cur}, %scale {{{sm()}}} : {T(SS)}")
    cur = "%ss"
    if bias:
        L.append(f'      %bt = tile.load %BIAS[%bh, %q0, %j] {{tile.sched = #tile.sched<"loadBias", stage = 0, order = 6, group = 0>}}')
        L.append(f"          : !tile.desc<1x{BQ}x{BK}x{bias}> -> {T(SS, bias)}")
        if bias != "f32":
            L.append(f"      %btf = arith.extf %bt {{{sm()}}} : {T(SS, bias)} to {T(SS)}")
            bsrc = "%btf"
        else:
            bsrc = "%bt"
        L.append(f"      %l2 = arith.constant dense<1.4426950408889634> : {T(SS)}")
        L.append(f"      %bl = arith.mulf {bsrc}, %l2 {{{sm()}}} : {T(SS)}")
        L.append(f"      %sb = arith.addf {cur}, %bl {{{sm()}}} : {T(SS)}")
        cur = "%sb"
    if alibi or window:
        L.append(f"      %rows = tile.iota %q0, dim = 0 {{{sm()}}} : {T(SS,'i32')}")
        L.append(f"      %cols = tile.iota %j, dim = 1 {{{sm()}}} : {T(SS,'i32')}")
    if alibi:
        L.append(f"      %rel = arith.subi %cols, %rows {{{sm()}}} : {T(SS,'i32')}")
        L.append(f"      %relf = arith.sitofp %rel {{{sm()}}} : {T(SS,'i32')} to {T(SS)}")
        L.append(f"      %ab0 = arith.mulf %relf, %slopes {{{sm()}}} : {T(SS)}")
        L.append(f"      %sa = arith.addf {cur}, %ab0 {{{sm()}}} : {T(SS)}")
        cur = "%sa"
    if window:
        L.append(f"      %dist = arith.subi %rows, %cols {{{sm()}}} : {T(SS,'i32')}")
        L.append(f"      %past = arith.cmpi sge, %dist, %zi {{{sm()}}} : {T(SS,'i32')}")
        L.append(f"      %near = arith.cmpi slt, %dist, %wsp {{{sm()}}} : {T(SS,'i32')}")
        L.append(f"      %okw = arith.andi %past, %near {{{sm()}}} : {T(SS,'i1')}")
        L.append(f"      %sw = arith.select %okw, {cur}, %neg {{{sm()}}} : {T(SS,'i1')}, {T(SS)}")
        cur = "%sw"
    L.append(f"      %mx = tile.reduce max {cur}, dim = 1 {{{sm()}}} : {T(SS)} -> {T(BQ)}")
    L.append(f"      %mn = arith.maximumf %m, %mx {{{sm()}}} : {T(BQ)}")
    L.append(f"      %mnb = tile.broadcast %mn, dim = 1 {{{sm()}}} : {T(BQ)} -> {T(SS)}")
    L.append(f"      %d = arith.subf {cur}, %mnb {{{sm()}}} : {T(SS)}")
    L.append(f"      %p = math.exp2 %d {{{sm()}}} : {T(SS)}")
    L.append(f"      %ps = tile.reduce sum %p, dim = 1 {{{sm()}}} : {T(SS)} -> {T(BQ)}")
    L.append(f"      %dm = arith.subf %m, %mn {{{sm()}}} : {T(BQ)}")
    L.append(f"      %alpha = math.exp2 %dm {{{sm()}}} : {T(BQ)}")
    L.append(f"      %la = arith.mulf %l, %alpha {{{sm()}}} : {T(BQ)}")
    L.append(f"      %ln = arith.addf %la, %ps {{{sm()}}} : {T(BQ)}")
    L.append(f"      %pb = arith.truncf %p {{{sm()}}} : {T(SS)} to {T(SS, vdt)}")
    L.append(f"      %ab = tile.broadcast %alpha, dim = 1 {{{sched('MUL',1,2)}}} : {T(BQ)} -> {T(OO)}")
    L.append(f"      %accs = arith.mulf %acc, %ab {{{sched('MUL',1,2)}}} : {T(OO)}")
    L.append(f'      %v = tile.load %V[%bh, %j, %c0] {{tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}}')
    L.append(f"          : !tile.desc<1x{BK}x{D}x{vdt}> -> {T(f'{BK}x{D}', vdt)}")
    L.append(f"      %acc2 = tile.dot %pb, %v, %accs {{{sched('MMA1',1,3)}}}")
    L.append(f"          : {T(SS, vdt)}, {T(f'{BK}x{D}', vdt)} -> {T(OO)}")
    L.append(f"      scf.yield %acc2, %mn, %ln : {T(OO)}, {T(BQ)}, {T(BQ)}")
    L.append("    }")
    L.append(f"    %lb = tile.broadcast %res#2, dim = 1 : {T(BQ)} -> {T(OO)}")
    L.append(f"    %o = arith.divf %res#0, %lb : {T(OO)}")
    L.append(f"    %ob = arith.truncf %o : {T(OO)} to {T(OO, vdt)}")
    L.append(f"    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x{BQ}x{D}x{vdt}>, {T(OO, vdt)}")
    L.append("    return")
    L.append("  }")
    L.append("}")
    open(name + ".mlir", "w").write("\n".join(L) + "\n")

attn("a08_cross_d32_f32bias_bk64", D=32, BK=64, cross=True, bias="f32",
     comment="Cross-attention, head dim 32, SQ != SKV, an f32 additive bias tensor [B*H, SQ, SKV] loaded per key block (bk 64).")
attn("a09_swa_size_W_causal_softcap_lo", D=128, BK=64, window=True, causal=True, softcap=30.0, lo_from_window=True,
     comment="Causal sliding window whose width W is a kernel size; the loop starts at the first key block the window reaches (a nonzero, size-dependent offset); tanh softcapping (cap 30).")
attn("a10_alibi_scalar_slope_f16qk_bf16v", D=64, dt="f16", vdt="bf16", alibi=True,
     comment="ALiBi with the per-head slope 2^(-8(h+1)/H) computed by scalar f32 math from program_id; Q and K f16, V and O bf16 (the two dots differ in dtype).")
attn("a11_d32_bk256", D=32, BK=256,
     comment="Head dim 32 with a 256-key block: a 128x256 score tile per iteration.")
attn("a12_d256_bq192_bk64_causal_3wg", D=256, BQ=192, BK=64, causal=True, wg=3,
     comment="Head dim 256, 192 query rows per program over three consumer warp groups, 64-key blocks, causal.")
attn("a13_d80_cross_bf16bias_causal", D=80, BK=64, cross=True, bias="bf16", causal=True,
     comment="Cross-attention (SQ != SKV) at head dim 80 with a bf16 bias tensor and a causal (top-left) mask.")
attn("a14_d64_bq64_bk192_1wg", D=64, BQ=64, BK=192, wg=1,
     comment="Head dim 64, 64 query rows per program on one consumer warp group, 192-key blocks (a 64x192 score tile, a K = 192 P V dot).")

def fp8_attn(name):
    attn(name, D=128, comment="tmp")
    t = open(name + ".mlir").read()
    t = t.replace("// tmp", "// FP8 (e4m3) attention, head dim 128: Q, K e4m3 (S = Q K^T, K-major), V stored transposed [B*H, 128, S] (e4m3, read with\n// transpose_b so the P V dot is K-major too), P quantized to e4m3 in registers as the P V dot's A; O bf16.")
    t = t.replace("!tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},\n      %K", "!tile.desc<1x128x128xf8E4M3FN> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},\n      %K")
    t = t.replace("%K: !tile.desc<1x128x128xbf16>", "%K: !tile.desc<1x128x128xf8E4M3FN>")
    t = t.replace("%V: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>}",
                  "%V: !tile.desc<1x128x128xf8E4M3FN> {tile.shape = affine_map<()[B, H, S] -> (B * H, 128, S)>}")
    t = t.replace("%q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>",
                  "%q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>")
    t = t.replace(": !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>\n      %s = tile.dot",
                  ": !tile.desc<1x128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>\n      %s = tile.dot")
    t = t.replace(": tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>\n      %sm",
                  ": tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>\n      %sm")
    t = t.replace("to tensor<128x128xbf16>\n      %ab", "to tensor<128x128xf8E4M3FN>\n      %ab")
    t = t.replace("%v = tile.load %V[%bh, %j, %c0]", "%v = tile.load %V[%bh, %c0, %j]")
    t = t.replace(": !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>\n      %acc2 = tile.dot %pb, %v, %accs {",
                  ": !tile.desc<1x128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>\n      %acc2 = tile.dot %pb, %v, %accs {transpose_b, ")
    t = t.replace(": tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>\n      scf.yield",
                  ": tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>\n      scf.yield")
    open(name + ".mlir", "w").write(t)
fp8_attn("a15_fp8_e4m3_attention_vt_regA")
