// Per-(row, K-block of 128) dequant scales for A (SA [K/128, M]) and for B (SB [K/128, N]) applied to each block's partial product in the loop; bf16 operands, f32 out
module {
  func.func @g08_blockscale_k128_bf16(
      %A: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 128, M)>},
      %SB: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 128, N)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 128 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %kb = arith.divui %k, %cBK : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %sa = tile.load %SA[%kb, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 3, group = 0>} : !tile.desc<1x128xf32> -> tensor<128xf32>
      %sb = tile.load %SB[%kb, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 4, group = 0>} : !tile.desc<1x128xf32> -> tensor<128xf32>
      %p = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      %sab = tile.broadcast %sa, dim = 1 {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %sbb = tile.broadcast %sb, dim = 0 {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %p1 = arith.mulf %p, %sab {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %p2 = arith.mulf %p1, %sbb {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %e = arith.addf %c, %p2 {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      scf.yield %e : tensor<128x128xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
