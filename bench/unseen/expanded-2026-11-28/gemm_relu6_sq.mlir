// A GEMM with a squared ReLU6 epilogue written with the ops Normalize.cpp expands:
// C = bf16(clampf(A B^T, 0, 6) ^ 2) (math.clampf, then math.fpowi by a constant 2), then a
// per-element rotation written with math.sincos: D = sin(C) + cos(C) in f32 (a second
// output). 128x128 tiles, a producer and two consumer warp groups.
module {
  func.func @gemm_relu6_sq(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %D: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %lo = arith.constant dense<0.0> : tensor<128x128xf32>
    %hi = arith.constant dense<6.0> : tensor<128x128xf32>
    %two = arith.constant dense<2> : tensor<128x128xi32>
    %r6 = math.clampf %acc to [%lo, %hi] : tensor<128x128xf32>
    %sq = math.fpowi %r6, %two : tensor<128x128xf32>, tensor<128x128xi32>
    %cb = arith.truncf %sq : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    %s, %c = math.sincos %sq : tensor<128x128xf32>
    %rot = arith.addf %s, %c : tensor<128x128xf32>
    tile.store %D[%m0, %n0], %rot : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
