// Row reductions inside the K loop: each K block's partial product P_k = A_k B_k^T is computed from zero and added
// to the running sum; the loop also carries the running row max and row min (as -max(-x)) of the partial products.
// Outputs: C (f32) and two 1-d vectors per row block (PMAX, PMIN [N/128, M]).
module {
  func.func @g22_rowstats_in_loop(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %PMAX: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %PMIN: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
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
    %vinit = arith.constant dense<-1.0e30> : tensor<128xf32>
    %r:3 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero, %mx = %vinit, %mnn = %vinit)
        -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %p = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %c2 = arith.addf %c, %p {tile.sched = #tile.sched<"Stats", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %pmx = tile.reduce max %p, dim = 1 {tile.sched = #tile.sched<"Stats", stage = 2, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mx2 = arith.maximumf %mx, %pmx {tile.sched = #tile.sched<"Stats", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      %np = arith.negf %p {tile.sched = #tile.sched<"Stats", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %pmn = tile.reduce max %np, dim = 1 {tile.sched = #tile.sched<"Stats", stage = 2, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mn2 = arith.maximumf %mnn, %pmn {tile.sched = #tile.sched<"Stats", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      scf.yield %c2, %mx2, %mn2 : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    tile.store %C[%m0, %n0], %r#0 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    tile.store %PMAX[%pn, %m0], %r#1 : !tile.desc<1x128xf32>, tensor<128xf32>
    %pmin = arith.negf %r#2 : tensor<128xf32>
    tile.store %PMIN[%pn, %m0], %pmin : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
