// FP8 GEMM mixing e5m2 activations (A) and e4m3 weights (B), per-row scales of A and per-column
// scales of B (f32 vectors loaded before the loop, tile.init in [0.5, 2)), an e5m2 output.
module {
  func.func @fp8mix(
      %A: !tile.desc<128x128xf8E5M2> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (M)>, tile.init = array<f64: 0.5, 2.0>},
      %SB: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>, tile.init = array<f64: 0.5, 2.0>},
      %C: !tile.desc<128x128xf8E5M2> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %sa = tile.load %SA[%m0] : !tile.desc<128xf32> -> tensor<128xf32>
    %sb = tile.load %SB[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x128xf8E5M2> -> tensor<128x128xf8E5M2>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x128xf8E5M2>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %sab = tile.broadcast %sa, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %sbb = tile.broadcast %sb, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %t0 = arith.mulf %acc, %sab : tensor<128x128xf32>
    %t1 = arith.mulf %t0, %sbb : tensor<128x128xf32>
    %c8 = arith.truncf %t1 : tensor<128x128xf32> to tensor<128x128xf8E5M2>
    tile.store %C[%m0, %n0], %c8 : !tile.desc<128x128xf8E5M2>, tensor<128x128xf8E5M2>
    return
  }
}
