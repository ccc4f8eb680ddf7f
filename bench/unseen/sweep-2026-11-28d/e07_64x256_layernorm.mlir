// 64x256: layer-norm of each row of the tile (N = 256 per program), gamma/beta columns, mean and rstd out
module {
  func.func @e07_64x256_layernorm(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %GAM: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %BET: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %MEAN: !tile.desc<1x64xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 256, M)>},
      %RSTD: !tile.desc<1x64xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 256, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 256 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<64x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<64x64xbf16>, tensor<256x64xbf16> -> tensor<64x256xf32>
        scf.yield %d : tensor<64x256xf32>
      }
      %red1 = tile.reduce sum %acc, dim = 1 : tensor<64x256xf32> -> tensor<64xf32>
      %q2 = arith.constant dense<0.00390625> : tensor<64xf32>
      %q3 = arith.mulf %red1, %q2 : tensor<64xf32>
      %bb4 = tile.broadcast %q3, dim = 1 : tensor<64xf32> -> tensor<64x256xf32>
      %v5 = arith.subf %acc, %bb4 : tensor<64x256xf32>
      %v6 = arith.mulf %v5, %v5 : tensor<64x256xf32>
      %red7 = tile.reduce sum %v6, dim = 1 : tensor<64x256xf32> -> tensor<64xf32>
      %q8 = arith.mulf %red7, %q2 : tensor<64xf32>
      %q9 = arith.constant dense<1.0e-05> : tensor<64xf32>
      %q11 = arith.addf %q8, %q9 : tensor<64xf32>
      %q10 = math.rsqrt %q11 : tensor<64xf32>
      %bb12 = tile.broadcast %q10, dim = 1 : tensor<64xf32> -> tensor<64x256xf32>
      %v13 = arith.mulf %v5, %bb12 : tensor<64x256xf32>
      %s14 = tile.load %GAM[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
      %b15 = tile.broadcast %s14, dim = 0 : tensor<256xf32> -> tensor<64x256xf32>
      %v16 = arith.mulf %v13, %b15 : tensor<64x256xf32>
      %s17 = tile.load %BET[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
      %b18 = tile.broadcast %s17, dim = 0 : tensor<256xf32> -> tensor<64x256xf32>
      %v19 = arith.addf %v16, %b18 : tensor<64x256xf32>
      %t20 = arith.truncf %v19 : tensor<64x256xf32> to tensor<64x256xbf16>
      tile.store %C[%m0, %n0], %t20 : !tile.desc<64x256xbf16>, tensor<64x256xbf16>
      tile.store %MEAN[%pn, %m0], %q3 : !tile.desc<1x64xf32>, tensor<64xf32>
      tile.store %RSTD[%pn, %m0], %q10 : !tile.desc<1x64xf32>, tensor<64xf32>
    return
  }
}
