// GeGLU dual GEMM: C = gelu_erf(A Wg^T) * (A Wu^T), exact GELU 0.5 x (1 + erf(x / sqrt 2)) (math.erf via libdevice); 128x128 tiles, two accumulators.
module {
  func.func @g02_geglu_erf_dual(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %Wg: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Wu: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc:2 = scf.for %k = %c0 to %K step %c64 iter_args(%g = %zero, %u = %zero)
        -> (tensor<128x128xf32>, tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %wg = tile.load %Wg[%n0, %k] {tile.sched = #tile.sched<"loadWg", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %wu = tile.load %Wu[%n0, %k] {tile.sched = #tile.sched<"loadWu", stage = 0, order = 4, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %g2 = tile.dot %a, %wg, %g {transpose_b, tile.sched = #tile.sched<"MMAg", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %u2 = tile.dot %a, %wu, %u {transpose_b, tile.sched = #tile.sched<"MMAu", stage = 2, order = 1, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %g2, %u2 : tensor<128x128xf32>, tensor<128x128xf32>
    }
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %rs2 = arith.constant dense<0.7071067811865476> : tensor<128x128xf32>
    %xs = arith.mulf %acc#0, %rs2 : tensor<128x128xf32>
    %er = math.erf %xs : tensor<128x128xf32>
    %e1 = arith.addf %er, %one : tensor<128x128xf32>
    %hx = arith.mulf %acc#0, %half : tensor<128x128xf32>
    %ge = arith.mulf %hx, %e1 : tensor<128x128xf32>
    %y = arith.mulf %ge, %acc#1 : tensor<128x128xf32>
    %cb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
