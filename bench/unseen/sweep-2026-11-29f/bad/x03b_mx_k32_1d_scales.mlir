// mxfp8 GEMM (tile.dot_scaled) with a 128x128 tile and a K step of 32: 1 e8m0 scales per row per step,
// stored transposed (SA [K/32, M], SB [K/32, N]) so that each step's scales are a 1x128 / 1x128 box.
module {
  func.func @mx32(
      %A: !tile.desc<128x32xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %SA: !tile.desc<1x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, M)>},
      %B: !tile.desc<128x32xf8E5M2> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SB: !tile.desc<1x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 3072 : i64, N = 2048 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cM = arith.constant 128 : index
    %cN = arith.constant 128 : index
    %cK = arith.constant 32 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cM : index
    %n0 = arith.muli %pn, %cN : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %cK iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x32xf8E4M3FN> -> tensor<128x32xf8E4M3FN>
      %sa = tile.load %SA[%ks, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 2, group = 0>} : !tile.desc<1x128xf8E8M0FNU> -> tensor<128xf8E8M0FNU>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>} : !tile.desc<128x32xf8E5M2> -> tensor<128x32xf8E5M2>
      %sb = tile.load %SB[%ks, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 4, group = 0>} : !tile.desc<1x128xf8E8M0FNU> -> tensor<128xf8E8M0FNU>
      %d = tile.dot_scaled %a, %sa, %b, %sb, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>} : tensor<128x32xf8E4M3FN>, tensor<128xf8E8M0FNU>, tensor<128x32xf8E5M2>, tensor<128xf8E8M0FNU> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
