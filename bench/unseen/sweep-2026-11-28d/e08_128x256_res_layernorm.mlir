// 128x256: residual + layer-norm rows, mean/rstd vectors out, 3 stages
module {
  func.func @e08_128x256_res_layernorm(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %GAM: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %BET: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %MEAN: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 256, M)>},
      %RSTD: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 256, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 256 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %r1 = tile.load %R[%m0, %n0] : !tile.desc<128x256xbf16> -> tensor<128x256xbf16>
      %e2 = arith.extf %r1 : tensor<128x256xbf16> to tensor<128x256xf32>
      %v3 = arith.addf %acc, %e2 : tensor<128x256xf32>
      %red4 = tile.reduce sum %v3, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
      %q5 = arith.constant dense<0.00390625> : tensor<128xf32>
      %q6 = arith.mulf %red4, %q5 : tensor<128xf32>
      %bb7 = tile.broadcast %q6, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
      %v8 = arith.subf %v3, %bb7 : tensor<128x256xf32>
      %v9 = arith.mulf %v8, %v8 : tensor<128x256xf32>
      %red10 = tile.reduce sum %v9, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
      %q11 = arith.mulf %red10, %q5 : tensor<128xf32>
      %q12 = arith.constant dense<1.0e-05> : tensor<128xf32>
      %q14 = arith.addf %q11, %q12 : tensor<128xf32>
      %q13 = math.rsqrt %q14 : tensor<128xf32>
      %bb15 = tile.broadcast %q13, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
      %v16 = arith.mulf %v8, %bb15 : tensor<128x256xf32>
      %s17 = tile.load %GAM[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
      %b18 = tile.broadcast %s17, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
      %v19 = arith.mulf %v16, %b18 : tensor<128x256xf32>
      %s20 = tile.load %BET[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
      %b21 = tile.broadcast %s20, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
      %v22 = arith.addf %v19, %b21 : tensor<128x256xf32>
      %t23 = arith.truncf %v22 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %t23 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
      tile.store %MEAN[%pn, %m0], %q6 : !tile.desc<1x128xf32>, tensor<128xf32>
      tile.store %RSTD[%pn, %m0], %q13 : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
