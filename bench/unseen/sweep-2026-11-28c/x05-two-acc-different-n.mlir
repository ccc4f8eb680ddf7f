// Fused projections sharing A: C = A B1^T (128-wide tile) and E = A B2^T (64-wide tile, N2 = N/2) in one loop, two accumulators of different shapes
module {
  func.func @x05_two_acc_different_n(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %B2: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N floordiv 2, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %E: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N floordiv 2)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 64 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %zero2 = arith.constant dense<0.0> : tensor<128x64xf32>
    %c64x = arith.constant 64 : index
    %n2 = arith.muli %pn, %c64x : index
    %acc:2 = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero, %c2 = %zero2) -> (tensor<128x128xf32>, tensor<128x64xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b2 = tile.load %B2[%n2, %k] {tile.sched = #tile.sched<"loadB2", stage = 0, order = 3, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %e = tile.dot %a, %b2, %c2 {transpose_b, tile.sched = #tile.sched<"MMA2", stage = 2, order = 1, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      scf.yield %d, %e : tensor<128x128xf32>, tensor<128x64xf32>
    }
    %cb = arith.truncf %acc#0 : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    %eb = arith.truncf %acc#1 : tensor<128x64xf32> to tensor<128x64xbf16>
    tile.store %E[%m0, %n2], %eb : !tile.desc<128x64xbf16>, tensor<128x64xbf16>
    return
  }
}
