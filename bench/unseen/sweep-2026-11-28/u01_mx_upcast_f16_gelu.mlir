// mxfp8 GEMM (e5m2 A with scales, e4m3 B with scales) upcast to f16, 64x128 tile, tanh epilogue, f32 out.
module {
  func.func @u01(
      %A: !tile.desc<64x128xf8E5M2> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %SA: !tile.desc<4x64xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, M)>},
      %B: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SB: !tile.desc<4x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>},
      %C: !tile.desc<64x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<64x128xf32>) {
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x128xf8E5M2> -> tensor<64x128xf8E5M2>
      %sa = tile.load %SA[%ks, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 3, group = 0>}
          : !tile.desc<4x64xf8E8M0FNU> -> tensor<4x64xf8E8M0FNU>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 4, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %sb = tile.load %SB[%ks, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 5, group = 0>}
          : !tile.desc<4x128xf8E8M0FNU> -> tensor<4x128xf8E8M0FNU>
      %au = tile.upcast %a, %sa {tile.sched = #tile.sched<"Upcast", stage = 1, order = 1, group = 1>}
          : tensor<64x128xf8E5M2>, tensor<4x64xf8E8M0FNU> -> tensor<64x128xf16>
      %bu = tile.upcast %b, %sb {tile.sched = #tile.sched<"Upcast", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xf16>
      %d = tile.dot %au, %bu, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<64x128xf16>, tensor<128x128xf16> -> tensor<64x128xf32>
      scf.yield %d : tensor<64x128xf32>
    }
    %t = math.tanh %acc : tensor<64x128xf32>
    tile.store %C[%m0, %n0], %t : !tile.desc<64x128xf32>, tensor<64x128xf32>
    return
  }
}
