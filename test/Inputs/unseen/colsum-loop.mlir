// A reduction over rows (dim = 0) inside the pipelined loop: each K step's product P_k = A_k B_k^T
// (a dot of its own) is added to C and its column sums to a carried vector, so the vector ends as
// C's column sums (stored beside C, as its maxima of the last step). Two consumer warp groups.
module {
  func.func @colsum_loop(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %CS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128, N)>},
      %CM: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %zv = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %acc, %csum, %cmax = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero, %v = %zv, %w = %zv)
        -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %c2 = arith.addf %c, %d {tile.sched = #tile.sched<"Sums", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %s = tile.reduce sum %d, dim = 0 {tile.sched = #tile.sched<"Sums", stage = 2, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %v2 = arith.addf %v, %s {tile.sched = #tile.sched<"Sums", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      %mx = tile.reduce max %d, dim = 0 {tile.sched = #tile.sched<"Sums", stage = 2, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      scf.yield %c2, %v2, %mx : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    tile.store %CS[%pm, %n0], %csum : !tile.desc<1x128xf32>, tensor<128xf32>
    tile.store %CM[%pm, %n0], %cmax : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
