// 
module {
  func.func @q_noC_nobias_np(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %G: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %RS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 256, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 3000 : i64, N = 2000 : i64, K = 1000 : i64},
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
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %k1 = arith.constant dense<2.0> : tensor<128x256xf32>
      %v2 = arith.mulf %acc, %k1 : tensor<128x256xf32>
      %k3 = arith.constant dense<0.7978845608> : tensor<128x256xf32>
      %k4 = arith.constant dense<0.5> : tensor<128x256xf32>
      %k5 = arith.constant dense<0.044715> : tensor<128x256xf32>
      %k6 = arith.constant dense<1.0> : tensor<128x256xf32>
      %v7 = arith.mulf %v2, %v2 : tensor<128x256xf32>
      %v8 = arith.mulf %v7, %v2 : tensor<128x256xf32>
      %v9 = arith.mulf %v8, %k5 : tensor<128x256xf32>
      %v10 = arith.addf %v2, %v9 : tensor<128x256xf32>
      %v11 = arith.mulf %v10, %k3 : tensor<128x256xf32>
      %v12 = math.tanh %v11 : tensor<128x256xf32>
      %v13 = arith.mulf %v2, %k4 : tensor<128x256xf32>
      %v14 = arith.addf %v12, %k6 : tensor<128x256xf32>
      %v15 = arith.mulf %v13, %v14 : tensor<128x256xf32>
      %t16 = arith.truncf %v15 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %G[%m0, %n0], %t16 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
      %red17 = tile.reduce sum %v2, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
      tile.store %RS[%pn, %m0], %red17 : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
