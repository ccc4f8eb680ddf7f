// 128x192: pre-activation f32 + SiLU f16 outputs
module {
  func.func @e11_128x192_pre_f32_silu_f16(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<192x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %CB: !tile.desc<192xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %Cpre: !tile.desc<128x192xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Cact: !tile.desc<128x192xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 192)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x192xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c192 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x192xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<192x64xbf16> -> tensor<192x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<192x64xbf16> -> tensor<128x192xf32>
        scf.yield %d : tensor<128x192xf32>
      }
      %s1 = tile.load %CB[%n0] : !tile.desc<192xf32> -> tensor<192xf32>
      %b2 = tile.broadcast %s1, dim = 0 : tensor<192xf32> -> tensor<128x192xf32>
      %v3 = arith.addf %acc, %b2 : tensor<128x192xf32>
      tile.store %Cpre[%m0, %n0], %v3 : !tile.desc<128x192xf32>, tensor<128x192xf32>
      %v4 = arith.negf %v3 : tensor<128x192xf32>
      %v5 = math.exp %v4 : tensor<128x192xf32>
      %k6 = arith.constant dense<1.0> : tensor<128x192xf32>
      %v7 = arith.addf %v5, %k6 : tensor<128x192xf32>
      %v8 = arith.divf %v3, %v7 : tensor<128x192xf32>
      %t9 = arith.truncf %v8 : tensor<128x192xf32> to tensor<128x192xf16>
      tile.store %Cact[%m0, %n0], %t9 : !tile.desc<128x192xf16>, tensor<128x192xf16>
    return
  }
}
