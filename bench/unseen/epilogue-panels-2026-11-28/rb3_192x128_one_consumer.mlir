// e06 (bench/unseen/sweep-2026-11-28d) with one consumer warp group: 192 rows in three row blocks
// a thread, so the epilogue's chunks are 16 columns wide (64 / 3 rounded down to 16 x 2^k).
module {
  func.func @e06_192x128_res_colbias(
      %A: !tile.desc<192x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %CB: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %R: !tile.desc<192x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<192x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 192, N ceildiv 128)>,
                  tile.defaults = {M = 3072 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<192x128xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c192 : index
    %n0 = arith.muli %pn, %c128 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<192x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<192x64xbf16> -> tensor<192x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<192x64xbf16>, tensor<128x64xbf16> -> tensor<192x128xf32>
        scf.yield %d : tensor<192x128xf32>
      }
      %s1 = tile.load %CB[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
      %b2 = tile.broadcast %s1, dim = 0 : tensor<128xf32> -> tensor<192x128xf32>
      %v3 = arith.addf %acc, %b2 : tensor<192x128xf32>
      %r4 = tile.load %R[%m0, %n0] : !tile.desc<192x128xbf16> -> tensor<192x128xbf16>
      %e5 = arith.extf %r4 : tensor<192x128xbf16> to tensor<192x128xf32>
      %v6 = arith.addf %v3, %e5 : tensor<192x128xf32>
      %t7 = arith.truncf %v6 : tensor<192x128xf32> to tensor<192x128xbf16>
      tile.store %C[%m0, %n0], %t7 : !tile.desc<192x128xbf16>, tensor<192x128xbf16>
    return
  }
}
