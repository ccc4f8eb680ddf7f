#!/usr/bin/env python3
"""Writes the deliberately wrong kernels x01-x20 of this sweep from small bases (python3 mkbad.py)."""
import re
BASE = open('../k16_cluster2_nonpersistent_shareB.mlir').read().replace(' tile.cluster = 2,', '')
BASE = BASE.replace('@gemm_cl2', '@gemm')
def w(name, text, comment):
    text = re.sub(r'^(// .*\n)+', '', text)
    open(name + '.mlir', 'w').write('// WRONG on purpose: ' + comment + '\n' + text)
def rep(t, a, b, n=1):
    assert t.count(a) >= 1, a
    return t.replace(a, b) if n == 0 else t.replace(a, b, n)

# x01: addf mixing bf16 and f32 tiles in the epilogue
t = rep(BASE, '    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n',
        '    %cb0 = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n'
        '    %cb = arith.addf %cb0, %acc : tensor<128x256xbf16>\n')
w('x01_addf_bf16_f32_mix', t, 'arith.addf of a bf16 tile and an f32 tile')
# x02: dot K mismatch: B box 256x32
t = rep(BASE, '!tile.desc<256x64xbf16>', '!tile.desc<256x32xbf16>', 0)
t = rep(t, 'tensor<256x64xbf16>', 'tensor<256x32xbf16>', 0)
w('x02_dot_k_disagree', t, 'the dot reads A 128x64 and B 256x32 (transpose_b): K 64 vs 32')
# x03: tile.init on the output
t = rep(BASE, "%C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>}",
        "%C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>, tile.init = array<f64: 0.0, 1.0>}")
w('x03_init_on_output', t, 'tile.init on the stored tensor C')
# x04: store an i32 1-d vector (row ids) as an extra output
t = rep(BASE, "      %M: index", "      %IDS: !tile.desc<128xi32> {tile.shape = affine_map<()[M, N, K] -> (M)>},\n      %M: index")
t = rep(t, "    return\n", "    %ids = tile.iota %m0, dim = 0 : tensor<128xi32>\n    tile.store %IDS[%m0], %ids : !tile.desc<128xi32>, tensor<128xi32>\n    return\n")
w('x04_store_i32_vector', t, 'stores a 1-d i32 vector (tile.iota of the row ids)')
# x05: tile.cluster = 3
t = rep(BASE, 'attributes {tile.kernel,', 'attributes {tile.kernel, tile.cluster = 3,')
w('x05_cluster3', t, 'tile.cluster = 3 (only 1, 2, 4)')
# x06: tile.registers not setmaxnreg counts
t = rep(BASE, 'tile.warpgroups = array<i64: 1, 2>}', 'tile.warpgroups = array<i64: 1, 2>, tile.registers = array<i64: 100, 200>}')
w('x06_registers_not_mult8', t, 'tile.registers = 100, 200: not multiples of 8 (setmaxnreg)')
# x07: pingpong consumers on a non-persistent kernel
t = rep(BASE, 'tile.warpgroups = array<i64: 1, 2>}', 'tile.warpgroups = array<i64: 1, 2>, tile.consumers = "pingpong"}')
w('x07_pingpong_nonpersistent', t, 'tile.consumers = "pingpong" on a kernel with no tile loop')
# x08: reduce on a bf16 tile
t = rep(BASE, "    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n",
        "    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n"
        "    %rm = tile.reduce max %cb, dim = 1 : tensor<128x256xbf16> -> tensor<128xbf16>\n")
w('x08_reduce_bf16', t, 'tile.reduce max of a bf16 tile')
# x09: program_id 2 on a 2-D grid
t = rep(BASE, '%pn = tile.program_id 1 : index', '%pn = tile.program_id 2 : index')
w('x09_program_id2_on_2d_grid', t, 'tile.program_id 2 while tile.grid has 2 dimensions (always 0)')
# x10: yield type mismatch (f16 accumulator into f32 iter_arg)
t = rep(BASE, '      scf.yield %d : tensor<128x256xf32>\n',
        '      %dh = arith.truncf %d {tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x256xf32> to tensor<128x256xf16>\n      scf.yield %dh : tensor<128x256xf16>\n')
w('x10_yield_type_mismatch', t, 'the loop yields an f16 tile for an f32 iter_arg')
# x11: a unit shared by a dot and a truncf (the dot not alone in its unit), plus wait on the truncf
t = rep(BASE, '      scf.yield %d : tensor<128x256xf32>\n',
        '      %dr = arith.maximumf %d, %c {tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x256xf32>\n      scf.yield %dr : tensor<128x256xf32>\n')
w('x11_dot_shares_unit', t, 'an arith.maximumf named MMA like the dot (a dot must be alone in its unit)')
# x12: math split over two consumer groups: a relu in group 2 after the dot in group 1
t = rep(BASE, '      scf.yield %d : tensor<128x256xf32>\n',
        '      %z = arith.constant dense<0.0> : tensor<128x256xf32>\n      %dr = arith.maximumf %d, %z {tile.sched = #tile.sched<"Relu", stage = 2, order = 3, group = 2>} : tensor<128x256xf32>\n      scf.yield %dr : tensor<128x256xf32>\n')
w('x12_math_in_two_groups', t, 'the dot runs in group 1 and a relu of its result in group 2')
# x13: broadcast dim 0 of a row vector into a tile with the wrong shape
t = rep(BASE, "    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n",
        "    %rs = tile.reduce sum %acc, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>\n"
        "    %rb = tile.broadcast %rs, dim = 0 : tensor<128xf32> -> tensor<128x256xf32>\n"
        "    %ac2 = arith.subf %acc, %rb : tensor<128x256xf32>\n"
        "    %cb = arith.truncf %ac2 : tensor<128x256xf32> to tensor<128x256xbf16>\n")
w('x13_broadcast_wrong_dim', t, 'a row-sum vector (128) broadcast with dim = 0 into 128x256 (needs dim = 1)')
# x14: grid references too few symbols / sizes and tile.defaults names an unknown size
t = rep(BASE, 'tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64}', 'tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64, L = 4 : i64}')
w('x14_defaults_unknown_size', t, 'tile.defaults names L, which is not a kernel size')
# x15: a 1-d i32 tile used as a dot operand after sitofp... instead: load a tile with a 3-D box where the descriptor is rank 2 coordinates
t = rep(BASE, '%a = tile.load %A[%m0, %k]', '%a = tile.load %A[%m0, %k, %c0]')
w('x15_load_three_coords', t, 'three coordinates for a rank-2 descriptor')
# x16: tile.mask on a bf16 score tile
t = rep(BASE, "    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n",
        "    %cb0 = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>\n"
        "    %cb = tile.mask %cb0, %m0, %n0, %N {causal} : tensor<128x256xbf16>\n")
w('x16_mask_bf16', t, 'tile.mask (causal) on a bf16 tile')
# x17: loop with a negative/zero step constant
t = rep(BASE, 'scf.for %k = %c0 to %K step %c64', 'scf.for %k = %c0 to %K step %czero')
t = rep(t, '    %c64 = arith.constant 64 : index\n', '    %c64 = arith.constant 64 : index\n    %czero = arith.constant 0 : index\n')
w('x17_loop_step_zero', t, 'the pipelined loop steps by 0')
# x18: wait on a load
t = rep(BASE, '#tile.sched<"loadA", stage = 0, order = 1, group = 0>', '#tile.sched<"loadA", stage = 0, order = 1, group = 0, wait = 2>')
w('x18_wait_on_load', t, 'wait = 2 on a tile.load (wait is for dots)')
# x19: store coordinate count / store into the loaded A (aliasing in and out): C stored through A's descriptor type
t = rep(BASE, "    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>\n",
        "    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>\n"
        "    %half = tile.load %C[%m0, %n0] : !tile.desc<128x256xbf16> -> tensor<128x256xbf16>\n"
        "    tile.store %C[%n0, %m0], %half : !tile.desc<128x256xbf16>, tensor<128x256xbf16>\n")
w('x19_reload_stored_output', t, 'reads C back after storing it and stores it again transposed-coordinates (read-after-write through TMA in one kernel)')
# x20: f32 dot operands
t = rep(BASE, '!tile.desc<128x64xbf16>', '!tile.desc<128x64xf32>', 0)
t = rep(t, 'tensor<128x64xbf16>', 'tensor<128x64xf32>', 0)
w('x20_dot_f32_operands', t, 'tf32-style dot: f32 operands')
