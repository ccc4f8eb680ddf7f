#!/usr/bin/env python3
"""Writes the wrong (or odd) kernels z*.mlir from base.mlir: python3 mkbad.py"""
base = open("base.mlir").read()
def sub(*pairs):
    s = base
    for a, b in pairs:
        assert a in s, a
        s = s.replace(a, b, 1)
    return s
V = {}
LOOP = "    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {"
# 1 unicode kernel name (quoted symbol): PTX .entry names allow [A-Za-z0-9_$]
V["z01_unicode_kernel_name"] = sub(("func.func @gemm(", 'func.func @"gémm_κ"('))
# 2 kernel name with a dot and a leading digit
V["z02_dotted_digit_kernel_name"] = sub(("func.func @gemm(", 'func.func @"1gemm.v2"('))
# 3 unit name: unicode + very long
V["z03_unicode_long_unit_name"] = sub(('"loadA"', '"ロードA_' + "x" * 5000 + '"'), ('"MMA"', '"MMA\u00e9\u2603"'))
# 4 two sequential pipelined loops
V["z04_two_sequential_loops"] = sub(("    tile.store %C[%m0, %n0], %acc", """    %acc2 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %acc) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA2", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB2", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA2", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tile.store %C[%m0, %n0], %acc2"""))
# 5 outer loop with iter_args around the K loop (not a tile loop): accumulate two passes
V["z05_outer_loop_with_iter_args"] = sub((LOOP, """    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %acc = scf.for %r = %c0 to %c2 step %c1 iter_args(%o = %zero) -> (tensor<128x128xf32>) {
    %acci = scf.for %k = %c0 to %K step %c64 iter_args(%c = %o) -> (tensor<128x128xf32>) {"""),
    ("      scf.yield %d : tensor<128x128xf32>\n    }\n", "      scf.yield %d : tensor<128x128xf32>\n    }\n    scf.yield %acci : tensor<128x128xf32>\n    }\n"))
# 6 loop over i32 instead of index
V["z06_i32_loop"] = sub((LOOP, """    %k0i = arith.constant 0 : i32
    %k64i = arith.constant 64 : i32
    %Ki = arith.index_cast %K : index to i32
    %acc = scf.for %ki = %k0i to %Ki step %k64i iter_args(%c = %zero) -> (tensor<128x128xf32>) : i32 {
      %k = arith.index_cast %ki : i32 to index"""))
# 7 empty loop (no loads, just yield) and the real work nowhere: no loop to pipeline
V["z07_empty_loop"] = sub((LOOP, LOOP.replace("%acc =", "%acc0 =") + "\n      scf.yield %c : tensor<128x128xf32>\n    }\n    %acc = scf.for %kk = %c0 to %c0 step %c64 iter_args(%c2 = %acc0) -> (tensor<128x128xf32>) {"), )
V["z07_empty_loop"] = base.replace("""      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d""", "      scf.yield %c")
# 8 malformed tile.sched: stage as a float, and an unknown key
V["z08_sched_float_stage"] = sub(('#tile.sched<"loadA", stage = 0,', '#tile.sched<"loadA", stage = 0.5,'))
V["z08b_sched_unknown_key"] = sub(('#tile.sched<"loadA", stage = 0, order = 1, group = 0>', '#tile.sched<"loadA", stage = 0, order = 1, group = 0, warp = 3>'))
V["z08c_sched_huge_order"] = sub(('#tile.sched<"loadA", stage = 0, order = 1, group = 0>', '#tile.sched<"loadA", stage = 0, order = 99999999999999999999, group = 0>'))
V["z08d_sched_order_2p40"] = sub(('#tile.sched<"loadA", stage = 0, order = 1, group = 0>', '#tile.sched<"loadA", stage = 0, order = 1099511627776, group = 0>'))
# 9 tile.warpgroups as i32 array; tile.grid as an integer; defaults as float
V["z09_warpgroups_i32"] = sub(("tile.warpgroups = array<i64: 1, 2>", "tile.warpgroups = array<i32: 1, 2>"))
V["z09b_grid_int"] = sub(("tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>", "tile.grid = 64"))
V["z09c_defaults_float"] = sub(("K = 1024 : i64}", "K = 1024.0 : f32}"))
V["z09d_shape_with_dims"] = sub(("%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>}", "%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<(d0)[M, N, K] -> (M, d0)>}"))
# 10 grid of zero CTAs at the defaults / negative shape
V["z10_grid_zero_at_sizes"] = sub(("-> (M ceildiv 128, N ceildiv 128)>", "-> ((M - 1024) ceildiv 128, N ceildiv 128)>"))
V["z10b_negative_shape"] = sub(("%C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>}", "%C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M - 2048, N)>}"))
# 11 tile.init with NaN / inf
V["z11_init_nan"] = sub(("%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>}", "%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>, tile.init = array<f64: 0x7FF8000000000000, 1.0>}"))
V["z11b_init_huge"] = sub(("%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>}", "%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>, tile.init = array<f64: -1.0e300, 1.0e300>}"))
# 12 loop whose trip count is zero at some sizes (a start past the end): valid, must compile
V["z12_zero_trip_by_size"] = sub(("%c0 to %K step %c64", "%M to %K step %c64"))
# 13 loop step as a size
V["z13_step_is_size"] = sub(("%K: index {tile.size = \"K\"})", "%K: index {tile.size = \"K\"}, %BK: index {tile.size = \"BK\"})"),
    ("affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>", "affine_map<()[M, N, K, BK] -> (M ceildiv 128, N ceildiv 128)>"),
    ("K = 1024 : i64}", "K = 1024 : i64, BK = 64 : i64}"),
    ("%c0 to %K step %c64", "%c0 to %K step %BK"))
V["z13"] = None
# 14 tile.program_id with a negative dim
V["z14_program_id_neg"] = sub(("%pn = tile.program_id 1 : index", "%pn = tile.program_id -1 : index"))
# 15 dot into an f16 accumulator / i32 desc as operand
V["z15_dot_f16_acc"] = sub(("%zero = arith.constant dense<0.0> : tensor<128x128xf32>", "%zero = arith.constant dense<0.0> : tensor<128x128xf16>"),
    ("iter_args(%c = %zero) -> (tensor<128x128xf32>)", "iter_args(%c = %zero) -> (tensor<128x128xf16>)"),
    ("tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>\n      scf.yield %d : tensor<128x128xf32>", "tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf16>\n      scf.yield %d : tensor<128x128xf16>"),
    ("tile.store %C[%m0, %n0], %acc : !tile.desc<128x128xf32>, tensor<128x128xf32>", "%accf = arith.extf %acc : tensor<128x128xf16> to tensor<128x128xf32>\n    tile.store %C[%m0, %n0], %accf : !tile.desc<128x128xf32>, tensor<128x128xf32>"))
# 16 tile.shape result that is a float? a map with a mod by a size (non-affine in MLIR terms -> parse error)
V["z16_shape_mod_size"] = sub(("-> (M, N)>}", "-> (M, N mod K)>}"))
# 17 function with a kernel twice (two kernels in one module, no --kernel)
V["z17_two_kernels"] = base.replace("  }\n}\n", "  }\n" + base.split("module {\n",1)[1].replace("@gemm(", "@gemm2(").rsplit("}\n",1)[0] + "}\n")
# 18 a size name with spaces / unicode / empty name
V["z18_size_name_unicode"] = sub(('%K: index {tile.size = "K"}', '%K: index {tile.size = "K ü"}'))
V["z18b_size_name_empty"] = sub(('%K: index {tile.size = "K"}', '%K: index {tile.size = ""}'))
# 19 tile.cluster as a string, consumers unknown
V["z19_cluster_string"] = sub(("tile.warpgroups = array<i64: 1, 2>}", 'tile.warpgroups = array<i64: 1, 2>, tile.cluster = "2"}'))
V["z19b_consumers_unknown"] = sub(("tile.warpgroups = array<i64: 1, 2>}", 'tile.warpgroups = array<i64: 1, 2>, tile.consumers = "roundrobin"}'))
# 20 store of the accumulator with coordinates swapped (a valid but odd kernel): m and n swapped on a non-square grid
V["z20_defaults_huge_flops"] = sub(("tile.defaults = {M = 1024 : i64, N = 1024 : i64, K = 1024 : i64}", "tile.defaults = {M = 2147483647 : i64, N = 2147483647 : i64, K = 2147483647 : i64}"))
for n, t in V.items():
    if t is None: continue
    open(n + ".mlir", "w").write(t)
    print(n)
