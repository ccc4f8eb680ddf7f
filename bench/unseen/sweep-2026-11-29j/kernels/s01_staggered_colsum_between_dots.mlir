// Linear (unnormalized) attention-like loop with a column reduction between its two dots:
// S = Q K^T; CS += colsum(S) (tile.reduce sum, dim = 0: across both consumer warp groups,
// through shared memory and consumer barriers); O += bf16(S) V. Consumers staggered: the turn
// spans MMA0 .. MMA1, so the column reduction (which waits for both consumer warp groups) sits
// inside the turn.
module {
  func.func @s01(
      %Q: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, S] -> (BH, S, 64)>},
      %K: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, S] -> (BH, S, 64)>},
      %V: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, S] -> (BH, S, 64)>},
      %O: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, S] -> (BH, S, 64)>},
      %CS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[BH, S] -> (BH, S)>},
      %BH: index {tile.size = "BH"}, %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BH, S] -> (S ceildiv 128, BH)>,
                  tile.defaults = {BH = 16 : i64, S = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>, tile.consumers = "staggered"} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %qb = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qb, %c128 : index
    %zs = arith.constant dense<0.0> : tensor<128x128xf32>
    %zo = arith.constant dense<0.0> : tensor<128x64xf32>
    %zc = arith.constant dense<0.0> : tensor<128xf32>
    %sc = arith.constant dense<0.0625> : tensor<128x128xf32>
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
    %res:2 = scf.for %j = %c0 to %S step %c128 iter_args(%acc = %zo, %cs = %zc) -> (tensor<128x64xf32>, tensor<128xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q, %k, %zs {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %ss = arith.mulf %s, %sc {tile.sched = #tile.sched<"Red", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %r = tile.reduce sum %ss, dim = 0 {tile.sched = #tile.sched<"Red", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %cs2 = arith.addf %cs, %r {tile.sched = #tile.sched<"Red", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %p = arith.truncf %ss {tile.sched = #tile.sched<"Conv", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %o = tile.dot %p, %v, %acc {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>} : tensor<128x128xbf16>, tensor<128x64xbf16> -> tensor<128x64xf32>
      scf.yield %o, %cs2 : tensor<128x64xf32>, tensor<128xf32>
    }
    %ob = arith.truncf %res#0 : tensor<128x64xf32> to tensor<128x64xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
    tile.store %CS[%bh, %q0], %res#1 : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
