#!/usr/bin/env python3
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *

def mmas(stage, wait=1, extra=None, **kw):
    d = {"format": "stagecraft-schedule", "version": 1, "kernel": "",
         "ops": [{"name": "MMA", "stage": stage, "order": 0, "group": 1, **({"wait": wait} if wait else {})},
                 {"name": "loadA", "stage": 0, "order": 1, "group": 0},
                 {"name": "loadB", "stage": 0, "order": 2, "group": 0}] + (extra or [])}
    d.update(kw); return d

# ---- epilogue-heavy GEMMs
gemm("e01_256_bk32_6st_resf32", 128, 256, E_res("f32", "bf16"), BK=32, stage=4,
     comment="C = A B^T + R(f32), bf16 out, 128x256, BK 32, six ring stages (144 KiB); R 128 KiB only after the loop fits",
     defaults=(4096, 4096, 4096))
gemm("e02_256_f16_res_gate", 128, 256, E_res("f16", "f16", gate="f16"), dt="f16",
     comment="f16: C = (A B^T + R) * sigmoid(G), 128x256, 4 ring stages; R, G after the loop")
gemm("e03_256_f32out_bf16res", 128, 256, E_res("bf16", "f32"),
     comment="f32 output (128 KiB staging) with a bf16 residual, 128x256, 4 stages")
gemm("e04_256_f32res_f32gate_f32out", 128, 256, E_res("f32", "f32", gate="f32"),
     comment="expected refused: R, G f32 (256 KiB) cannot fit even after the loop")
gemm("e05_128_rowbias_colbias_res", 128, 128, E_res("bf16", "bf16", rowbias=True, colbias=True), stage=3,
     comment="128x128: row bias + column bias + bf16 residual, five ring stages (MMA stage 3 wait 1)")
gemm("e06_192x128_res_colbias", 192, 128, E_res("bf16", "bf16", colbias=True), stage=2,
     comment="192x128 on three consumer warp groups: residual + column bias", defaults=(3072, 4096, 4096))
gemm("e07_64x256_layernorm", 64, 256, E_layernorm("bf16"), stage=2,
     comment="64x256: layer-norm of each row of the tile (N = 256 per program), gamma/beta columns, mean and rstd out",
     defaults=(8192, 256, 4096))
gemm("e08_128x256_res_layernorm", 128, 256, E_layernorm("bf16", with_res="bf16"), stage=1,
     comment="128x256: residual + layer-norm rows, mean/rstd vectors out, 3 stages", defaults=(8192, 256, 4096))
gemm("e09_256x128_rowcol_f16out", 256, 128, E_rowcol("f16"), stage=2,
     comment="256x128 (two consumer warp groups, 128 rows each): row and column scales, f16 output")
gemm("e10_128x256_pre_and_gelu", 128, 256, E_two_out("bf16", "bf16", "gelu"), stage=2,
     comment="two outputs: pre-activation and tanh-GELU, both bf16 (two 64 KiB stagings)")
gemm("e11_128x192_pre_f32_silu_f16", 128, 192, E_two_out("f32", "f16", "silu"), stage=2,
     comment="128x192: pre-activation f32 + SiLU f16 outputs")
gemm("e12_128x256_3tiles_f16", 128, 256, lambda e: (lambda x: (e.store("C", x, "bf16"), x)[1])(
        e.op("arith.mulf", e.op("arith.addf", e.op("arith.addf", "%acc", e.load_tile("R1", "f16")), e.load_tile("R2", "f16")), e.load_tile("G", "f16"))),
     comment="expected refused: three 64 KiB epilogue tiles + 64 KiB staging do not fit even after the loop")
gemm("e13_64x256_f32res_f32out_2out", 64, 256, lambda e: (lambda x: (e.store("C32", x, "f32"), e.store("C16", x, "bf16"), x)[2])(
        e.op("arith.addf", "%acc", e.load_tile("R", "f32"))), stage=3, BK=64,
     comment="64x256, f32 residual, f32 and bf16 outputs, MMA stage 3 (5 ring copies)")
gemm("e14_128x128_res_f32out_rms", 128, 128, lambda e: (lambda x: (
        e.store("C", e.op("arith.mulf", x, e.bcast_row(e.v("dummy") and (lambda ss: (e.lines.append(f"%rq = math.rsqrt {ss} : tensor<128xf32>"), '%rq')[1])(
            e.rowred("sum", e.op("arith.mulf", x, x))))), "f32"), x)[1])(
        e.op("arith.addf", "%acc", e.load_tile("R", "bf16"))), stage=2,
     comment="128x128: f32 out = (AB^T+R) * rsqrt(rowsum((AB^T+R)^2)) (rms-ish), bf16 residual", defaults=(4096, 128, 4096))

# ---- persistent / ping-pong
gemm("p01_pers_128x128_res_tails", 128, 128, E_res("bf16", "bf16"), persistent=True, stage=2,
     defaults=(3000, 2000, 1000), comment="persistent cooperative 128x128 + bf16 residual; M, N not multiples of the tile, K of BK")
gemm("p02_pp_128x128_bias_silu_res", 128, 128, lambda e: (lambda x: (e.store("C", x, "bf16"), x)[1])(
        e.op("arith.addf", e.silu(e.op("arith.addf", "%acc", e.vec("CB", "col"))), e.load_tile("R", "bf16"))),
     persistent=True, consumers="pingpong", stage=2, defaults=(4000, 3000, 1000),
     comment="ping-pong 128x128: silu(AB^T + colbias) + R, tails in M and N, K=1000")
gemm("p03_pers_128x256_res", 128, 256, E_res("bf16", "bf16"), persistent=True, stage=2,
     comment="expected refused: persistent 128x256 + residual (tile counted twice beside the rings)")
gemm("p04_pers_128x256_res_s1", 128, 256, E_res("bf16", "bf16"), persistent=True, stage=1, wait=0,
     comment="persistent 128x256 + residual with 2 ring stages (MMA stage 1, wait 0): 96 KiB ring + 2x64 KiB", defaults=(4096, 4096, 4096))
gemm("p05_pp_128x128_two_out_f16", 128, 128, E_two_out("f16", "bf16", "silu"), persistent=True, consumers="pingpong", stage=2, dt="f16",
     defaults=(4096, 4096, 2048), comment="ping-pong f16 128x128: pre-activation f16 + silu bf16 outputs")
gemm("p06_pers_rowsum_ktail", 128, 128, lambda e: (lambda x: (e.store("C", x, "f16"), e.store_rowvec("RS", e.rowred("sum", x)), x)[2])(
        e.op("arith.mulf", "%acc", e.vec("SC", "col"))), persistent=True, stage=2, defaults=(2048, 1536, 1000),
     comment="persistent 128x128: column scale, f16 out and row-sum vector out (written at [tn, m0]); K tail")
gemm("p07_pers_staggered_128x256", 128, 256, E_res("bf16", "bf16"), persistent=True, consumers="staggered", stage=1, wait=0,
     comment="persistent staggered consumers 128x256 + residual, 2 ring stages")
gemm("p08_pp_128x64_res_f32", 128, 64, E_res("f32", "f32"), persistent=True, consumers="pingpong", stage=3,
     defaults=(4096, 4096, 4096), comment="ping-pong 128x64 tiles with an f32 residual and f32 out, MMA stage 3")
gemm("p09_pp_64x256_res_gate", 64, 256, E_res("bf16", "bf16", gate="bf16"), persistent=True, consumers="pingpong", cwg=2, stage=2,
     comment="ping-pong 64x256 tiles + residual + gate")

# ---- attention with epilogues
attn("a01_d64_bk128_gate", 64, gate="bf16", comment="attention d64, 128-key blocks, output gate O * (1 + exp(-G))")
attn("a02_d96_bk64_resf32_f16out", 96, BKV=64, res="f32", odt="f16", comment="d96, 64-key blocks, O + R(f32), f16 output")
attn("a03_d128_bk64_gqa8_lse_f32out", 128, BKV=64, G=8, lse="f32", odt="f32", defaults=(2, 32, 4096),
     comment="d128, 64-key blocks, GQA 8 query heads per KV head via index math; O f32, LSE f32")
attn("a04_d256_bk64_bq64_gate", 256, BKV=64, BQ=64, gate="bf16", defaults=(2, 16, 4096),
     comment="d256, 64-query rows (one consumer WG), 64-key blocks, output gate")
attn("a05_d128_res_lse_bf16", 128, res="bf16", lse="bf16", comment="d128 O + residual, LSE as bf16")
attn("a06_d64_bk64_f16_causal_lse", 64, BKV=64, dt="f16", odt="f16", causal=True, lse="f32",
     comment="f16 operands, causal, d64, 64-key blocks, O f16, LSE f32")
attn("a07_d128_gate_res", 128, gate="bf16", res="bf16", defaults=(4, 16, 2048),
     comment="d128: gate and residual (two epilogue tiles)")
attn("a08_d96_gqa4_causal_gate", 96, G=4, causal=True, gate="f16", odt="f16", dt="f16", defaults=(2, 32, 3000),
     comment="d96 GQA-4 causal, f16, gate f16, S not a multiple of 128")
attn("a09_d256_bk64_bq128_res", 256, BKV=64, res="bf16", defaults=(2, 16, 2048),
     comment="d256, 128 rows, 64-key blocks, residual (acc 128x256 f32)")
attn("a10_d128_bk128_gqa2_lsef16_partial", 128, G=2, lse="f16", defaults=(3, 6, 1000),
     comment="d128 GQA-2, LSE f16; S=1000 partial tiles")

# ---- schedules
sched("s01_gemm_2st", mmas(1, 0))
sched("s02_gemm_staggered", mmas(2, 1, consumers="staggered"))
sched("s03_gemm_regs_40_232", mmas(2, 1, registers=[40, 232]))
sched("s04_gemm_loads_in_consumers", {"ops": [{"name": "loadA", "stage": 0, "order": 1, "group": 1},
                                               {"name": "loadB", "stage": 0, "order": 2, "group": 1},
                                               {"name": "MMA", "stage": 1, "order": 0, "group": 1}]})
sched("s05_bad_wait_on_load", {"ops": [{"name": "loadA", "stage": 0, "order": 1, "group": 0, "wait": 1}]})
sched("s06_bad_mma_before_loads_same_stage", mmas(0, 0))
sched("s07_bad_pingpong_nonpersistent", mmas(2, 1, consumers="pingpong"))
sched("s08_bad_load_after_mma_stage", {"ops": [{"name": "loadA", "stage": 3, "order": 1, "group": 0}]})
sched("s09_bad_unknown_unit", {"ops": [{"name": "loadR", "stage": 0, "order": 1, "group": 0}]})
sched("s10_attn_softmax_group0", {"ops": [{"name": "Softmax", "stage": 1, "order": 1, "group": 0}]})
sched("s11_gemm_cluster2", mmas(2, 1, cluster=2))
sched("s12_bad_regs_250", mmas(2, 1, registers=[40, 250]))
sched("s13_gemm_wait7", mmas(2, 7))
sched("s14_pingpong_2st", mmas(1, 0, consumers="pingpong"))
sched("s15_pingpong", mmas(2, 1, consumers="pingpong"))
sched("s16_attn_staggered", {"consumers": "staggered", "ops": []})
sched("s17_gemm_6st_bk32", mmas(4, 1))
sched("s18_mma_stage0_wait1_after", {"ops": [{"name": "MMA", "stage": 0, "order": 3, "group": 1, "wait": 1}]})
sched("s19_cooperative_on_pp", mmas(2, 1, consumers="cooperative"))
sched("s20_bad_group_split_math", {"ops": [{"name": "MUL", "stage": 1, "order": 2, "group": 2}]})

# ---- more epilogue-load stress
def le_store(body, e):
    # also stores, each iteration, a scaled copy of the A tile (stream output at [m0, k])
    e.arg("AC", f"!tile.desc<{e.BM}x64xbf16>", "M, K")
    body = body + [
      f'%ax = arith.extf %a {{tile.sched = #tile.sched<"copyA", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x64xbf16> to tensor<{e.BM}x64xf32>',
      f'%ay = arith.mulf %ax, %ax {{tile.sched = #tile.sched<"copyA", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x64xf32>',
      f'%az = arith.truncf %ay {{tile.sched = #tile.sched<"copyA", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x64xf32> to tensor<{e.BM}x64xbf16>',
      f'tile.store %AC[%m0, %k], %az {{tile.sched = #tile.sched<"storeA", stage = 2, order = 4, group = 1>}} : !tile.desc<{e.BM}x64xbf16>, tensor<{e.BM}x64xbf16>']
    return body, f"scf.yield %d : tensor<{e.BM}x{e.BN}xf32>"
gemm("e15_128x256_res_and_loopstore", 128, 256, E_res("bf16", "bf16"), loop_extra=le_store, defaults=(4096, 4096, 2048),
     comment="a loop that also stores (A*A each K step, only pid_n = any: every program writes the same values) + a residual that needs the after-loop load")
gemm("e15b_128x128_res_and_loopstore", 128, 128, E_res("bf16", "bf16"), loop_extra=le_store, defaults=(2048, 128, 2048),
     comment="the same at 128x128 and N = 128 (one column of programs: each A tile written once)")

def both_fn(e):
    r = e.load_tile("R", "f32", before=True)   # read in the loop and after it
    x = e.op("arith.subf", "%acc", r)
    e.store("C", x, "bf16"); return x
def both_loop(body, e):
    body = body + [f'%d2 = arith.addf %d, %r1 {{tile.sched = #tile.sched<"addR", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x{e.BN}xf32>']
    return body, f"scf.yield %d2 : tensor<{e.BM}x{e.BN}xf32>"
gemm("e16_128x128_f32R_in_and_after", 128, 128, both_fn, loop_extra=both_loop, defaults=(2048, 2048, 1024),
     comment="R (f32) loaded before the loop, added every K step and subtracted after: read in the loop and after it")
gemm("e16b_128x256_f32R_in_and_after", 128, 256, both_fn, loop_extra=both_loop, defaults=(2048, 2048, 1024),
     comment="expected refused: the same at 128x256 (R 128 KiB live through the loop + 192 KiB ring)")

def ab_fn(e):
    e.arg("AB", "!tile.desc<4xf32>", "4")
    e.lines.append("%abt = tile.load %AB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>")
    e.lines.append("%al = tensor.extract %abt[%c0] : tensor<4xf32>")
    e.lines.append("%c1i = arith.constant 1 : index")
    e.lines.append("%be = tensor.extract %abt[%c1i] : tensor<4xf32>")
    e.lines.append(f"%als = tensor.splat %al : {e.T()}")
    e.lines.append(f"%bes = tensor.splat %be : {e.T()}")
    r = e.load_tile("R", "bf16")
    x = e.op("arith.addf", e.op("arith.mulf", "%acc", "%als"), e.op("arith.mulf", r, "%bes"))
    e.store("C", x, "bf16"); return x
gemm("e17_128x256_alpha_beta_extract", 128, 256, ab_fn,
     comment="C = alpha A B^T + beta R, alpha/beta read by tensor.extract of a 4xf32 tile loaded after the loop, R after the loop (128x256)")

def kb_fn(e):
    e.arg("KS", "!tile.desc<64xf32>", "K ceildiv 64")
    e.pre.append("%kst = tile.load %KS[%c0] : !tile.desc<64xf32> -> tensor<64xf32>")
    e.lines.append("%k0s = tensor.extract %kst[%c0] : tensor<64xf32>")
    e.lines.append(f"%k0b = tensor.splat %k0s : {e.T()}")
    r = e.load_tile("R", "bf16")
    x = e.op("arith.addf", e.op("arith.mulf", "%acc", "%k0b"), r)
    e.store("C", x, "bf16"); return x
def kb_loop(body, e):
    body = body + [
        "%kb = arith.divui %k, %c64 : index",
        "%ksc = tensor.extract %kst[%kb] : tensor<64xf32>",
        f'%kss = tensor.splat %ksc {{tile.sched = #tile.sched<"Scale", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x{e.BN}xf32>',
        f'%p = tile.dot %a, %b, %zero {{transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}} : tensor<{e.BM}x64xbf16>, tensor<{e.BN}x64xbf16> -> tensor<{e.BM}x{e.BN}xf32>',
        f'%ps = arith.mulf %p, %kss {{tile.sched = #tile.sched<"Scale", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x{e.BN}xf32>',
        f'%d2 = arith.addf %c, %ps {{tile.sched = #tile.sched<"Scale", stage = 2, order = 3, group = 1>}} : tensor<{e.BM}x{e.BN}xf32>']
    body = [l for l in body if not l.startswith("%d = tile.dot")]
    return body, f"scf.yield %d2 : tensor<{e.BM}x{e.BN}xf32>"
gemm("e18_128x128_kscale_extract_in_and_after", 128, 128, kb_fn, loop_extra=kb_loop, defaults=(2048, 2048, 4096), wait=1,
     comment="a per-K-block scale table (64 entries) read by tensor.extract in the loop and after it, plus a residual")

# ---- GEMM-like, layouts, tails
gemm("g01_amajor_128x256_res_tails", 128, 256, E_res("bf16", "bf16"), ta=True, defaults=(1000, 1000, 1000),
     comment="A stored M-major (transpose_a), residual, M N K all partial")
gemm("g02_bnmajor_128x192_rowscale_f16", 128, 192, E_rowcol("f16"), tb=False, dt="f16", defaults=(2000, 1920, 1000),
     comment="B N-major (no transpose_b), f16, 128x192, row+col scales, K tail")
gemm("g03_256x128_res_f32out_k32", 256, 128, E_res("bf16", "f32"), defaults=(2048, 2048, 32),
     comment="256x128, K = 32 (below one BK=64 tile), bf16 residual, f32 out")
gemm("g04_128x256_bk128_res_gate_3st", 128, 256, E_res("bf16", "bf16", gate="bf16"), BK=128, stage=1, wait=0,
     comment="BK 128 (96 KiB per stage), two ring stages (MMA stage 1 wait 0), residual + gate after the loop")
gemm("g05_192x128_f16_res_f32", 192, 128, E_res("f32", "f16"), dt="f16", defaults=(1536, 2048, 2048), stage=1,
     comment="192x128 f16 with an f32 residual, f16 out, three ring stages")

# ---- odd
def before_fn(e):
    r = e.load_tile("R", "f32", before=True)   # textually before the loop, read only after it
    x = e.op("arith.addf", "%acc", r); e.store("C", x, "bf16"); return x
gemm("x01_res_loaded_before_loop_bk32_6st", 128, 256, before_fn, BK=32, stage=4,
     comment="R (f32, 128 KiB) loaded before the loop but read only after it; 6 ring stages: fits only if moved after the loop")

def gather_fn(e):
    # a row-index table loaded after the loop picks which residual row-block to add (tensor.extract -> coordinate)
    e.arg("IDX", "!tile.desc<4xi32>", "M ceildiv 32")
    e.lines.append("%it = tile.load %IDX[%pm] : !tile.desc<4xi32> -> tensor<4xi32>")
    e.lines.append("%i0 = tensor.extract %it[%c0] : tensor<4xi32>")
    e.lines.append("%i0x = arith.index_cast %i0 : i32 to index")
    e.lines.append(f"%rm = arith.muli %i0x, %c{e.BM} : index")
    e.arg("R", f"!tile.desc<{e.BM}x{e.BN}xbf16>", "M, N")
    e.lines.append(f"%rg = tile.load %R[%rm, %n0] : !tile.desc<{e.BM}x{e.BN}xbf16> -> {e.T('bf16')}")
    e.lines.append(f"%rge = arith.extf %rg : {e.T('bf16')} to {e.T()}")
    x = e.op("arith.addf", "%acc", "%rge"); e.store("C", x, "bf16"); return x
gemm("x02_gathered_residual_128x256", 128, 256, gather_fn, defaults=(4096, 4096, 4096),
     comment="residual row-block chosen by an index table loaded after the loop (tensor.extract -> load coordinate)")

def colstat_fn(e):
    r = e.load_tile("R", "bf16")
    x = e.op("arith.addf", "%acc", r)
    cs = e.v("cs"); e.lines.append(f"{cs} = tile.reduce max {x}, dim = 0 : {e.T()} -> tensor<{e.BN}xf32>")
    e.arg("CMAX", f"!tile.desc<1x{e.BN}xf32>", f"M ceildiv {e.BM}, N")
    e.lines.append(f"tile.store %CMAX[{'%tm' if e.pid_n == '%tn' else '%pm'}, %n0], {cs} : !tile.desc<1x{e.BN}xf32>, tensor<{e.BN}xf32>")
    e.store("C", x, "bf16"); return x
gemm("x03_res_colmax_128x256", 128, 256, colstat_fn, defaults=(4096, 4096, 4096),
     comment="residual after the loop + a per-column max over the tile's rows (dim 0 reduce, cross-warp) stored per row-block")
gemm("x03b_res_colmax_pp", 128, 128, colstat_fn, persistent=True, consumers="pingpong", stage=1, wait=0,
     comment="expected refused: column reduction in ping-pong consumers")

def postdot_fn(e):
    # second GEMM after the loop: C2 = bf16(acc) @ W^T with W loaded only after the loop (LoRA/MLP-like)
    e.arg("W", f"!tile.desc<128x{e.BN}xbf16>", "128, N")
    e.lines.append(f"%w = tile.load %W[%c0, %n0] : !tile.desc<128x{e.BN}xbf16> -> tensor<128x{e.BN}xbf16>")
    e.lines.append(f"%ab = arith.truncf %acc : {e.T()} to {e.T('bf16')}")
    e.lines.append(f"%z2 = arith.constant dense<0.0> : tensor<{e.BM}x128xf32>")
    e.lines.append(f"%o2 = tile.dot %ab, %w, %z2 {{transpose_b}} : {e.T('bf16')}, tensor<128x{e.BN}xbf16> -> tensor<{e.BM}x128xf32>")
    e.arg("C2", f"!tile.desc<{e.BM}x128xf32>", f"M, (N ceildiv {e.BN}) * 128")
    e.lines.append(f"%cn = arith.muli %pn, %c128 : index")
    e.lines.append(f"tile.store %C2[%m0, %cn], %o2 : !tile.desc<{e.BM}x128xf32>, tensor<{e.BM}x128xf32>")
    e.store("C", "%acc", "bf16"); return "%acc"
gemm("x05_postloop_dot_epilogue_W", 128, 128, postdot_fn, defaults=(2048, 2048, 2048),
     comment="a dot after the loop whose B (W, 128x128) is a tile only the epilogue reads; its A is the bf16 accumulator in registers")
gemm("x05b_postloop_dot_epilogue_W_256", 128, 256, postdot_fn, defaults=(2048, 2048, 2048),
     comment="same at 128x256 (W 64 KiB, 4 ring stages: W must be loaded after the loop)")

def sameA_fn(e):
    # the loop's own A descriptor loaded again after the loop (its first K block), added to the first 64 columns... via a 128x64 store
    e.lines.append(f"%a0 = tile.load %A[%m0, %c0] : !tile.desc<{e.BM}x64xbf16> -> tensor<{e.BM}x64xbf16>")
    e.lines.append(f"%a0f = arith.extf %a0 : tensor<{e.BM}x64xbf16> to tensor<{e.BM}x64xf32>")
    e.lines.append(f"%a0s = arith.mulf %a0f, %a0f : tensor<{e.BM}x64xf32>")
    e.lines.append(f"%a0r = tile.reduce sum %a0s, dim = 1 : tensor<{e.BM}x64xf32> -> tensor<{e.BM}xf32>")
    x = e.op("arith.addf", "%acc", e.bcast_row("%a0r"))
    e.store("C", x, "bf16"); return x
gemm("x06_loop_desc_reloaded_after", 128, 256, sameA_fn, defaults=(4096, 4096, 4096),
     comment="the loop's A descriptor loaded once more after the loop (row sums of squares of A's first K block added to C)")
