#!/usr/bin/env python3
"""Attention kernels of sweep-2026-11-29b. python3 gen_attn.py writes a*.mlir."""

def softmax_body(bk, d, sched=True, pre="", mask_line=None, extra_s=""):
    S = lambda n, st, o: f' {{tile.sched = #tile.sched<"{n}", stage = {st}, order = {o}, group = 1>}}' if sched else ''
    sm = S("Softmax", 1, 1)
    mul = S("MUL", 1, 2)
    out = []
    out.append(mask_line)
    out.append(extra_s)
    out.append(f"""      %ss = arith.mulf %sm, %scale{sm} : tensor<128x{bk}xf32>
      %mx = tile.reduce max %ss, dim = 1{sm} : tensor<128x{bk}xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx{sm} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1{sm} : tensor<128xf32> -> tensor<128x{bk}xf32>
      %dd = arith.subf %ss, %mnb{sm} : tensor<128x{bk}xf32>
      %p = math.exp2 %dd{sm} : tensor<128x{bk}xf32>
      %ps = tile.reduce sum %p, dim = 1{sm} : tensor<128x{bk}xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn{sm} : tensor<128xf32>
      %alpha = math.exp2 %dm{sm} : tensor<128xf32>
      %la = arith.mulf %l, %alpha{sm} : tensor<128xf32>
      %ln = arith.addf %la, %ps{sm} : tensor<128xf32>
      %pb = arith.truncf %p{sm} : tensor<128x{bk}xf32> to tensor<128x{bk}xbf16>
      %ab = tile.broadcast %alpha, dim = 1{mul} : tensor<128xf32> -> tensor<128x{d}xf32>
      %accs = arith.mulf %acc, %ab{mul} : tensor<128x{d}xf32>""")
    return "\n".join(x for x in out if x)

def attn(name, d, bk=128, qdt="bf16", vdt="bf16", comment="", extra_args="", extra_pre="", kdesc=None,
         qload=None, kload=None, vload=None, store=None, mask=None, extra_s="", grid=None, shapes=None,
         sizes="B, H, S", defaults="B = 2 : i64, H = 16 : i64, S = 4096 : i64", loop_lo="%c0", loop_hi="%S"):
    sh = shapes or f"affine_map<()[{sizes}] -> (B * H, S, {d})>"
    qd = f"!tile.desc<1x128x{d}x{qdt}>"
    kd = kdesc or f"!tile.desc<1x{bk}x{d}x{qdt}>"
    vd = f"!tile.desc<1x{bk}x{d}x{vdt}>"
    od = f"!tile.desc<1x128x{d}xbf16>"
    qload = qload or f"%q = tile.load %Q[%bh, %q0, %c0] : {qd} -> tensor<128x{d}x{qdt}>"
    kload = kload or f'%k = tile.load %K[%bh, %j, %c0] {{tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}} : {kd} -> tensor<{bk}x{d}x{qdt}>'
    vload = vload or f'%v = tile.load %V[%bh, %j, %c0] {{tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}} : {vd} -> tensor<{bk}x{d}x{vdt}>'
    store = store or f"tile.store %O[%bh, %q0, %c0], %ob : {od}, tensor<128x{d}xbf16>"
    mask = mask or f'      %sm = tile.mask %s, %q0, %j, %S {{tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}} : tensor<128x{bk}xf32>'
    grid = grid or f"affine_map<()[{sizes}] -> (S ceildiv 128, B * H)>"
    scale = 1.4426950408889634 / d ** 0.5
    return f"""// {comment}
module {{
  func.func @{name}(
      %Q: {qd} {{tile.shape = {sh}}},
      %K: {kd} {{tile.shape = {sh}}},
      %V: {vd} {{tile.shape = {sh}}},
      %O: {od} {{tile.shape = {sh}}},{extra_args}
      {", ".join(f'%{s}: index {{tile.size = "{s}"}}' for s in sizes.split(", "))})
      attributes {{tile.kernel,
                  tile.grid = {grid},
                  tile.defaults = {{{defaults}}},
                  tile.warpgroups = array<i64: 1, 2>}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c{bk}x = arith.constant {bk} : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %c128 : index
{extra_pre}
    {qload}
    %zero_s = arith.constant dense<0.000000e+00> : tensor<128x{bk}xf32>
    %zero_o = arith.constant dense<0.000000e+00> : tensor<128x{d}xf32>
    %scale = arith.constant dense<{scale!r}> : tensor<128x{bk}xf32>
    %m_init = arith.constant dense<0xFF800000> : tensor<128xf32>
    %l_init = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %res:3 = scf.for %j = {loop_lo} to {loop_hi} step %c{bk}x
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x{d}xf32>, tensor<128xf32>, tensor<128xf32>) {{
      {kload}
      %s = tile.dot %q, %k, %zero_s {{transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}}
          : tensor<128x{d}x{qdt}>, tensor<{bk}x{d}x{qdt}> -> tensor<128x{bk}xf32>
{softmax_body(bk, d, mask_line=mask, extra_s=extra_s)}
      {vload}
      %acc2 = tile.dot %pb{"" if vdt == "bf16" else "h"}, %v, %accs {{tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}}
          : tensor<128x{bk}x{vdt}>, tensor<{bk}x{d}x{vdt}> -> tensor<128x{d}xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x{d}xf32>, tensor<128xf32>, tensor<128xf32>
    }}
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x{d}xf32>
    %o = arith.divf %res#0, %lb : tensor<128x{d}xf32>
    %ob = arith.truncf %o : tensor<128x{d}xf32> to tensor<128x{d}xbf16>
    {store}
    return
  }}
}}
"""

files = {}
files["a01_d112.mlir"] = attn("attn_d112", 112, comment="Attention at head dim 112 (224-byte rows: 128 + 96 bytes), 128-key blocks.")
files["a01b_d112_bk64.mlir"] = attn("attn_d112_bk64", 112, bk=64, comment="Attention at head dim 112, 64-key blocks.")
# FP8 Q and K (e4m3), bf16 V: S = Q K^T in FP8 with a descale from a 1-element f32 tensor.
files["a02_fp8qk_bf16v_descale.mlir"] = attn("attn_fp8qk", 128, qdt="f8E4M3FN", vdt="bf16",
    comment="Q and K in e4m3 (S = Q K^T an FP8 wgmma), V and O bf16; S multiplied by q_scale*k_scale read from a 1-element f32 tensor.",
    extra_args='\n      %QS: !tile.desc<4xf32> {tile.shape = affine_map<()[B, H, S] -> (1)>, tile.init = array<f64: 0.5, 2.0>},',
    extra_pre="""    %qst = tile.load %QS[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %qsv = tensor.extract %qst[%c0] : tensor<4xf32>
    %qss = tensor.splat %qsv : tensor<128x128xf32>""",
    mask='      %s2 = arith.mulf %s, %qss {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>\n      %sm = tile.mask %s2, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>')
# Bias rows picked by an i32 bucket table (one bucket per key block).
files["a03_bias_bucket_table_d64.mlir"] = attn("attn_bucket", 64,
    comment="d64; a per-key-block bias row chosen by an i32 table: bucket = T[j / 128] (table loaded before the loop), bias row Bias[bucket, 0:128] f32 added to every query row.",
    extra_args='\n      %T: !tile.desc<64xi32> {tile.shape = affine_map<()[B, H, S, NBK] -> (S ceildiv 128)>, tile.init = affine_map<()[B, H, S, NBK] -> (0, NBK)>},\n      %Bias: !tile.desc<1x128xf32> {tile.shape = affine_map<()[B, H, S, NBK] -> (NBK, 128)>},',
    sizes="B, H, S, NBK", defaults="B = 2 : i64, H = 16 : i64, S = 4096 : i64, NBK = 8 : i64",
    extra_pre="""    %tab = tile.load %T[%c0] : !tile.desc<64xi32> -> tensor<64xi32>""",
    extra_s="""      %jb = arith.divui %j, %c128 : index
      %bkt32 = tensor.extract %tab[%jb] : tensor<64xi32>
      %bkt = arith.index_cast %bkt32 : i32 to index
      %brow = tile.load %Bias[%bkt, %c0] {tile.sched = #tile.sched<"loadBias", stage = 0, order = 6, group = 0>} : !tile.desc<1x128xf32> -> tensor<128xf32>
      %bb = tile.broadcast %brow, dim = 0 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %sm2 = arith.addf %sm0, %bb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %sm = arith.mulf %sm2, %one {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>""",
    mask='      %one = arith.constant dense<1.0> : tensor<128x128xf32>\n      %sm0 = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>')
# 4-D tensors [B, H, S, D] with a 3-D grid (q blocks, H, B) and GQA by a size G (kv head = h / G).
files["a04_4d_grid3d_gqa_size_d64.mlir"] = attn("attn_4d_gqa", 64,
    comment="d64; Q/O [B, H, S, 64], K/V [B, H/G, S, 64] (4-D descriptors), grid (S/128, H, B); kv head = h / G, G a size.",
    sizes="B, H, S, G", defaults="B = 2 : i64, H = 16 : i64, S = 2048 : i64, G = 4 : i64",
    grid="affine_map<()[B, H, S, G] -> (S ceildiv 128, H, B)>",
    shapes="affine_map<()[B, H, S, G] -> (B, H, S, 64)>")
s = files["a04_4d_grid3d_gqa_size_d64.mlir"]
s = s.replace("!tile.desc<1x128x64xbf16>", "!tile.desc<1x1x128x64xbf16>")
s = s.replace("%bh = tile.program_id 1 : index", "%h = tile.program_id 1 : index\n    %b = tile.program_id 2 : index\n    %hk = arith.divui %h, %G : index")
s = s.replace("%Q[%bh, %q0, %c0]", "%Q[%b, %h, %q0, %c0]").replace("%K[%bh, %j, %c0]", "%K[%b, %hk, %j, %c0]")
s = s.replace("%V[%bh, %j, %c0]", "%V[%b, %hk, %j, %c0]").replace("%O[%bh, %q0, %c0]", "%O[%b, %h, %q0, %c0]")
kvshape = "affine_map<()[B, H, S, G] -> (B, H ceildiv G, S, 64)>"
lines = s.split("\n")
for i, ln in enumerate(lines):
    if ln.strip().startswith("%K:") or ln.strip().startswith("%V:"):
        lines[i] = ln.replace("affine_map<()[B, H, S, G] -> (B, H, S, 64)>", kvshape)
files["a04_4d_grid3d_gqa_size_d64.mlir"] = "\n".join(lines)
for n, t in files.items():
    open(n, "w").write(t)
    print(n)
