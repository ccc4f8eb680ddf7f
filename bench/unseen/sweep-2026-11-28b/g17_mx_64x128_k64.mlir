// mxfp8 block-scaled GEMM (tile.dot_scaled) at a 64x128 tile, K step 64 (64-byte FP8 rows), scales [K/32, M] as 2x64 / 2x128 boxes; one consumer warp group.
// Block-scaled (mxfp8) GEMM: C[M, N] = sum_k (A[m, k] 2^SA(m, k/32)) (B[n, k] 2^SB(n, k/32)),
// e4m3 A [M, K] and B [N, K] (both K-major), one e8m0 scale per 32 elements of
// K, f32 accumulation, bf16 result: Triton's tl.dot_scaled on mxfp8.
//
// The scales are stored transposed, SA [K/32, M] and SB [K/32, N], so that a
// K step of 128 takes a 4 x 128 tile of each: a TMA box 128 bytes wide (a
// [M, K/32] layout would give boxes of 4 bytes, below TMA's 16).
//
// One program computes a 128x128 tile of C on two consumer warp groups of 64
// rows, fed by a producer warp group (group 0) that loads A, B and their
// scales two stages ahead, each on its own ring. sm_90a has no block-scaled
// MMA: the dot_scaled runs as two tile.upcast (A into registers, B into
// shared memory, bf16, exact) and a bf16 wgmma, all in the MMA's unit;
// mxfp8_gemm_upcast.mlir writes the upcasts as a unit of their own.
// Steady state: MMA(i) loadA(i+2) loadSA(i+2) loadB(i+2) loadSB(i+2).
module {
  func.func @g17_mx_64x128_k64(
      %A: !tile.desc<64x64xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %SA: !tile.desc<2x64xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, M)>},
      %B: !tile.desc<128x64xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SB: !tile.desc<2x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>},
      %C: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 128 : index
    %cBK = arith.constant 64 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32>
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<64x128xf32>) {
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
      %sa = tile.load %SA[%ks, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 2, group = 0>}
          : !tile.desc<2x64xf8E8M0FNU> -> tensor<2x64xf8E8M0FNU>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xf8E4M3FN> -> tensor<128x64xf8E4M3FN>
      %sb = tile.load %SB[%ks, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 4, group = 0>}
          : !tile.desc<2x128xf8E8M0FNU> -> tensor<2x128xf8E8M0FNU>
      %d = tile.dot_scaled %a, %sa, %b, %sb, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<64x64xf8E4M3FN>, tensor<2x64xf8E8M0FNU>, tensor<128x64xf8E4M3FN>, tensor<2x128xf8E8M0FNU> -> tensor<64x128xf32>
      scf.yield %d : tensor<64x128xf32>
    }
    %cb = arith.truncf %acc : tensor<64x128xf32> to tensor<64x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<64x128xbf16>, tensor<64x128xbf16>
    return
  }
}
