// C = A B^T + C2 D2^T accumulated in one loop (two dots chained on one accumulator)
module {
  func.func @g04_sum_two_products(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C2: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %D2: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
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
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %c2 = tile.load %C2[%m0, %k] {tile.sched = #tile.sched<"loadC", stage = 0, order = 3, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d2 = tile.load %D2[%n0, %k] {tile.sched = #tile.sched<"loadD", stage = 0, order = 4, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %e = tile.dot %c2, %d2, %d {transpose_b, tile.sched = #tile.sched<"MMA2", stage = 1, order = 1, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %e : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
