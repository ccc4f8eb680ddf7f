// Persistent cooperative 128x256 GEMM with A stored [K, M] (transpose_a) and B stored [K, N] (N-major): C = A^T B
module {
  func.func @p05_persistent_amajor_bnmajor(
      %A: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (K, M)>},
      %B: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (K, N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 4096 : i64, N = 6144 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c256 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c256 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%k, %m0] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
        %b = tile.load %B[%k, %n0] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<64x256xbf16> -> tensor<64x256xbf16>
        %d = tile.dot %a, %b, %c {transpose_a, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<64x128xbf16>, tensor<64x256xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    }
    return
  }
}
