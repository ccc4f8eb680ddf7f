// A GEMM whose K blocks each have their own scale, read in the loop from a table loaded once:
// C = sum_k s[k / 64] * (A_k B_k^T) (a per-block dequantization in the manner of block-scaled
// FP8 GEMMs, here on bf16 with one scale per 64-wide K block). The consumers read s[kb] from
// shared memory each iteration (tensor.extract in the loop of a resident tile).
module {
  func.func @kscale(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %S: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 64)>,
        tile.init = array<f64: 0.5, 2.0>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %s = tile.load %S[%c0] : !tile.desc<128xf32> -> tensor<128xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %kb = arith.divui %k, %c64 : index
      %sk = tensor.extract %s[%kb] : tensor<128xf32>
      %ss = tensor.splat %sk {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %dm = arith.mulf %d, %ss {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %c2 = arith.addf %c, %dm {tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      scf.yield %c2 : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
