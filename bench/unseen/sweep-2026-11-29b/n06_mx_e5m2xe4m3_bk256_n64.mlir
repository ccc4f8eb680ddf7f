// Block-scaled (mx) dot: e5m2 A x e4m3 B, K step 256 (8 scale rows per step, scales stored
// transposed), a 128x64 output tile, f32 output.
module {
  func.func @mx256(
      %A: !tile.desc<128x256xf8E5M2> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %SA: !tile.desc<8x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, M)>},
      %B: !tile.desc<64x256xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SB: !tile.desc<8x64xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>},
      %C: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 64)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %acc = scf.for %k = %c0 to %K step %c256 iter_args(%c = %zero) -> (tensor<128x64xf32>) {
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x256xf8E5M2> -> tensor<128x256xf8E5M2>
      %sa = tile.load %SA[%ks, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 2, group = 0>}
          : !tile.desc<8x128xf8E8M0FNU> -> tensor<8x128xf8E8M0FNU>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}
          : !tile.desc<64x256xf8E4M3FN> -> tensor<64x256xf8E4M3FN>
      %sb = tile.load %SB[%ks, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 4, group = 0>}
          : !tile.desc<8x64xf8E8M0FNU> -> tensor<8x64xf8E8M0FNU>
      %d = tile.dot_scaled %a, %sa, %b, %sb, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x256xf8E5M2>, tensor<8x128xf8E8M0FNU>, tensor<64x256xf8E4M3FN>, tensor<8x64xf8E8M0FNU> -> tensor<128x64xf32>
      scf.yield %d : tensor<128x64xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<128x64xf32>, tensor<128x64xf32>
    return
  }
}
