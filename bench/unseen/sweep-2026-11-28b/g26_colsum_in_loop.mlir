// Column sums inside the K loop (tile.reduce sum dim = 0 on a loop value): each K block's partial product P_k is
// computed from zero, added to the running sum, and its column sums are accumulated into a carried per-column
// vector (sum_k colsum(P_k) = colsum(C), a check on the row reduction's new lowering). Outputs C (f32) and
// CS[M/128, N] (f32).
module {
  func.func @g26_colsum_in_loop(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %CS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %vz = arith.constant dense<0.0> : tensor<128xf32>
    %r:2 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero, %cs = %vz)
        -> (tensor<128x128xf32>, tensor<128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %p = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %c2 = arith.addf %c, %p {tile.sched = #tile.sched<"Acc", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %ps = tile.reduce sum %p, dim = 0 {tile.sched = #tile.sched<"Acc", stage = 2, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %cs2 = arith.addf %cs, %ps {tile.sched = #tile.sched<"Acc", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      scf.yield %c2, %cs2 : tensor<128x128xf32>, tensor<128xf32>
    }
    tile.store %C[%m0, %n0], %r#0 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    tile.store %CS[%pm, %n0], %r#1 : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
