# Generates bad/b*.mlir: deliberately wrong variants of kernels/l01 and l02 (one mistake each).
import re, json
L1 = open('kernels/l01_linear_attn_exclusive.mlir').read()
L2 = open('kernels/l02_retention_decay_inclusive.mlir').read()
def w(name, text, old=None, new=None, base=L1):
    t = base
    if old is not None:
        assert old in t, (name, old)
        t = t.replace(old, new)
    open('bad/' + name + '.mlir', 'w').write('// BAD: ' + text + '\n' + t)
# b01: the state as an M-major register A (transpose_a on a computed tile)
w('b01_register_a_transposed', 'the rounded state read M-major (transpose_a) as a register A',
  '%ot = tile.dot %sb, %q, %zo {transpose_b,', '%ot = tile.dot %sb, %q, %zo {transpose_a, transpose_b,')
# b02: bf16 accumulator carried (dot acc must be f32)
w('b02_bf16_state_acc', 'the state carried in bf16 and used as the dot accumulator',
  '%s2 = tile.dot %v, %k, %s {transpose_a, tile.sched = #tile.sched<"MMA_S", stage = 1, order = 6, group = 1>} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>',
  '%s2 = tile.dot %v, %k, %sb {transpose_a, tile.sched = #tile.sched<"MMA_S", stage = 1, order = 6, group = 1>} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<128x128xbf16>')
# b03: extract with an i32 index
w('b03_extract_i32_index', 'tensor.extract indexed by an i32 instead of an index',
  '%gj = tensor.extract %g[%jb] : tensor<64xf32>', '%jb32 = arith.index_cast %jb : index to i32\n      %gj = tensor.extract %g[%jb32] : tensor<64xf32>', base=L2)
# b04: state stored in the loop at a fixed coordinate each iteration
w('b04_store_same_tile_each_iter', 'the running state stored every iteration at the same coordinates',
  'scf.yield %s2 : tensor<128x128xf32>\n    }\n    tile.store %Sf[%bh, %c0, %c0], %st',
  'tile.store %Sf[%bh, %c0, %c0], %s2 {tile.sched = #tile.sched<"storeS", stage = 1, order = 7, group = 1>} : !tile.desc<1x128x128xf32>, tensor<128x128xf32>\n      scf.yield %s2 : tensor<128x128xf32>\n    }\n    tile.store %Sf[%bh, %c0, %c0], %st')
# b05: transposes swapped on the state update (V^T K written as V K^T: contraction sizes differ)
w('b05_state_update_wrong_transpose', 'S^T += V^T K written with transpose_b instead of transpose_a',
  '%s2 = tile.dot %v, %k, %s {transpose_a,', '%s2 = tile.dot %v, %k, %s {transpose_b,')
# b06: extract from a tile the loop makes (refused at the op)
w('b06_extract_of_loop_tile', 'the decay read by tensor.extract from the state (a tile the loop computes)',
  '%gj = tensor.extract %g[%jb] : tensor<64xf32>', '%gj = tensor.extract %s[%c0, %jb] : tensor<128x128xf32>', base=L2)
# b07: decay via a 1-d vector used both ways
w('b07_iota_f32', 'tile.iota with f32 elements',
  '%zo = arith.constant dense<0.0> : tensor<128x64xf32>', '%zo = arith.constant dense<0.0> : tensor<128x64xf32>\n    %io = tile.iota %c0, dim = 0 : tensor<128x64xf32>')
# b08: store of O^T whose coordinate moves less than the box (j/2)
w('b08_store_moves_half_box', 'O^T stored at column j/2: moves 32 per iteration, the box is 64 wide',
  'tile.store %Ot[%bh, %c0, %j], %otb', '%jh = arith.divui %j, %c2 : index\n      tile.store %Ot[%bh, %c0, %jh], %otb')
t = open('bad/b08_store_moves_half_box.mlir').read().replace('%c64 = arith.constant 64 : index', '%c64 = arith.constant 64 : index\n    %c2 = arith.constant 2 : index', 1)
open('bad/b08_store_moves_half_box.mlir', 'w').write(t)
# b09: two dots of different M in one loop (the O^T dot on 64 rows of the state)
w('b09_ot_dot_of_other_m', 'the second dot on a 64-row register A (the loop\'s other dot has M = 128)',
  '%sb = arith.truncf %s {tile.sched = #tile.sched<"cvtS", stage = 1, order = 0, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>\n      %ot = tile.dot %sb, %q, %zo {transpose_b, tile.sched = #tile.sched<"MMA_O", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>\n      %otb = arith.truncf %ot {tile.sched = #tile.sched<"storeO", stage = 1, order = 2, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>\n      tile.store %Ot[%bh, %c0, %j], %otb {tile.sched = #tile.sched<"storeO", stage = 1, order = 2, group = 1>} : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>',
  '%qq = arith.extf %q {tile.sched = #tile.sched<"cvtS", stage = 1, order = 0, group = 1>} : tensor<64x128xbf16> to tensor<64x128xf32>\n      %qb = arith.truncf %qq {tile.sched = #tile.sched<"cvtS", stage = 1, order = 0, group = 1>} : tensor<64x128xf32> to tensor<64x128xbf16>\n      %ot = tile.dot %qb, %k, %zo2 {transpose_b, tile.sched = #tile.sched<"MMA_O", stage = 1, order = 1, group = 1>} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>\n      %otb = arith.truncf %ot {tile.sched = #tile.sched<"storeO", stage = 1, order = 2, group = 1>} : tensor<64x64xf32> to tensor<64x64xbf16>\n      tile.store %Ot2[%bh, %j, %c0], %otb {tile.sched = #tile.sched<"storeO", stage = 1, order = 2, group = 1>} : !tile.desc<1x64x64xbf16>, tensor<64x64xbf16>')
t = open('bad/b09_ot_dot_of_other_m.mlir').read()
t = t.replace('%Ot: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, 128, T)>},', '%Ot2: !tile.desc<1x64x64xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 64)>},')
t = t.replace('%zo = arith.constant dense<0.0> : tensor<128x64xf32>', '%zo2 = arith.constant dense<0.0> : tensor<64x64xf32>')
open('bad/b09_ot_dot_of_other_m.mlir', 'w').write(t)
# schedules (for kernels/l01 or l02)
S = {
 's01_same_iter_stage': {"ops": [{"name": "MMA_O", "stage": 0, "order": 1, "group": 1}]},
 's02_carried_late': {"ops": [{"name": "cvtS", "stage": 2, "order": 0, "group": 1}, {"name": "MMA_O", "stage": 2, "order": 1, "group": 1}, {"name": "storeO", "stage": 2, "order": 2, "group": 1}]},
 's03_carried_distance': {"ops": [{"name": "MMA_S", "stage": 3, "order": 6, "group": 1}]},
 's04_wait_on_store': {"ops": [{"name": "storeO", "stage": 1, "order": 2, "group": 1, "wait": 1}]},
 's05_math_in_producer': {"ops": [{"name": "cvtS", "stage": 1, "order": 0, "group": 0}]},
 's06_wrong_kernel': {"kernel": "retention", "ops": [{"name": "MMA_S", "stage": 1, "order": 6, "group": 1}]},
 's07_wait_8': {"ops": [{"name": "MMA_S", "stage": 1, "order": 6, "group": 1, "wait": 8}]},
 's08_stage_negative': {"ops": [{"name": "MMA_S", "stage": -1, "order": 6, "group": 1}]},
 's09_load_after_use_same_stage': {"ops": [{"name": "loadQ", "stage": 1, "order": 9, "group": 0}]},
 's10_pingpong_nonpersistent': {"consumers": "pingpong", "ops": []},
 's11_registers_over': {"registers": [24, 256], "ops": []},
 's12_cluster2_bh': {"cluster": 2, "ops": []},
}
for k, v in S.items():
    json.dump(v, open('bad/' + k + '.json', 'w'))
