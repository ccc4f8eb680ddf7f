// Two dots per K step into one accumulator, consumers staggered: C = A B^T + A upcast(B2, SB2)^T
// (a bf16 weight plus an mxfp8 correction weight). The upcast is read as the second dot's B, so
// the consumers write it into shared memory (both warp groups, then a consumer barrier); it sits
// between the turn's first and last dot.
module {
  func.func @s02(
      %A: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %B2: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SB: !tile.desc<4x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>, tile.consumers = "staggered"} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 3, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 4, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %b2 = tile.load %B2[%n0, %k] {tile.sched = #tile.sched<"loadB2", stage = 0, order = 5, group = 0>} : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %sb = tile.load %SB[%ks, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 6, group = 0>} : !tile.desc<4x128xf8E8M0FNU> -> tensor<4x128xf8E8M0FNU>
      %d0 = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      %u = tile.upcast %b2, %sb {tile.sched = #tile.sched<"Upcast", stage = 1, order = 1, group = 1>} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xbf16>
      %d1 = tile.dot %a, %u, %d0 {transpose_b, tile.sched = #tile.sched<"MMA1", stage = 1, order = 2, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      scf.yield %d1 : tensor<128x128xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
