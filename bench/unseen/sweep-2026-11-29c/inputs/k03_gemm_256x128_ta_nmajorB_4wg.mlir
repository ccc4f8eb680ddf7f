// GEMM C = A^T B with A stored [K, M] (M-major) and B stored [K, N] (N-major), both transposed
// w.r.t. the usual layout; 256x128 tile over four consumer warp groups; f16 output.
module {
  func.func @gemm_tn(
      %A: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (K, M)>},
      %B: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (K, N)>},
      %C: !tile.desc<256x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 256, N ceildiv 128)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 4>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c256 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<256x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<256x128xf32>) {
      %a = tile.load %A[%k, %m0] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<64x256xbf16> -> tensor<64x256xbf16>
      %b = tile.load %B[%k, %n0] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %a, %b, %c {transpose_a, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<64x256xbf16>, tensor<64x128xbf16> -> tensor<256x128xf32>
      scf.yield %d : tensor<256x128xf32>
    }
    %cb = arith.truncf %acc : tensor<256x128xf32> to tensor<256x128xf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<256x128xf16>, tensor<256x128xf16>
    return
  }
}
