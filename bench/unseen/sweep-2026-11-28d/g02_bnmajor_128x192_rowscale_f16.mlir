// B N-major (no transpose_b), f16, 128x192, row+col scales, K tail
module {
  func.func @g02_bnmajor_128x192_rowscale_f16(
      %A: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<64x192xf16> {tile.shape = affine_map<()[M, N, K] -> (K, N)>},
      %SR: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (M)>},
      %SC: !tile.desc<192xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x192xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 192)>,
                  tile.defaults = {M = 2000 : i64, N = 1920 : i64, K = 1000 : i64},
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
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xf16> -> tensor<128x64xf16>
        %b = tile.load %B[%k, %n0] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<64x192xf16> -> tensor<64x192xf16>
        %d = tile.dot %a, %b, %c {tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xf16>, tensor<64x192xf16> -> tensor<128x192xf32>
        scf.yield %d : tensor<128x192xf32>
      }
      %s1 = tile.load %SR[%m0] : !tile.desc<128xf32> -> tensor<128xf32>
      %b2 = tile.broadcast %s1, dim = 1 : tensor<128xf32> -> tensor<128x192xf32>
      %v3 = arith.mulf %acc, %b2 : tensor<128x192xf32>
      %s4 = tile.load %SC[%n0] : !tile.desc<192xf32> -> tensor<192xf32>
      %b5 = tile.broadcast %s4, dim = 0 : tensor<192xf32> -> tensor<128x192xf32>
      %v6 = arith.mulf %v3, %b5 : tensor<128x192xf32>
      %t7 = arith.truncf %v6 : tensor<128x192xf32> to tensor<128x192xf16>
      tile.store %C[%m0, %n0], %t7 : !tile.desc<128x192xf16>, tensor<128x192xf16>
    return
  }
}
