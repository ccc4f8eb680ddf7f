// two outputs: pre-activation and tanh-GELU, both bf16 (two 64 KiB stagings)
module {
  func.func @e10_128x256_pre_and_gelu(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %CB: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %Cpre: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Cact: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
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
      %s1 = tile.load %CB[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
      %b2 = tile.broadcast %s1, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
      %v3 = arith.addf %acc, %b2 : tensor<128x256xf32>
      %t4 = arith.truncf %v3 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %Cpre[%m0, %n0], %t4 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
      %k5 = arith.constant dense<0.7978845608> : tensor<128x256xf32>
      %k6 = arith.constant dense<0.5> : tensor<128x256xf32>
      %k7 = arith.constant dense<0.044715> : tensor<128x256xf32>
      %k8 = arith.constant dense<1.0> : tensor<128x256xf32>
      %v9 = arith.mulf %v3, %v3 : tensor<128x256xf32>
      %v10 = arith.mulf %v9, %v3 : tensor<128x256xf32>
      %v11 = arith.mulf %v10, %k7 : tensor<128x256xf32>
      %v12 = arith.addf %v3, %v11 : tensor<128x256xf32>
      %v13 = arith.mulf %v12, %k5 : tensor<128x256xf32>
      %v14 = math.tanh %v13 : tensor<128x256xf32>
      %v15 = arith.mulf %v3, %k6 : tensor<128x256xf32>
      %v16 = arith.addf %v14, %k8 : tensor<128x256xf32>
      %v17 = arith.mulf %v15, %v16 : tensor<128x256xf32>
      %t18 = arith.truncf %v17 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %Cact[%m0, %n0], %t18 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
