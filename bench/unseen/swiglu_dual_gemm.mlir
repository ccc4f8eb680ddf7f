// A dual GEMM with a SwiGLU epilogue and a residual: C = silu(A W1^T) * (A W2^T) + R.
module {
  func.func @swiglu(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %W1: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %W2: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
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
    %r = tile.load %R[%m0, %n0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc:2 = scf.for %k = %c0 to %K step %c64 iter_args(%g = %zero, %u = %zero) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %w1 = tile.load %W1[%n0, %k] {tile.sched = #tile.sched<"loadW1", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %w2 = tile.load %W2[%n0, %k] {tile.sched = #tile.sched<"loadW2", stage = 0, order = 4, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %g2 = tile.dot %a, %w1, %g {transpose_b, tile.sched = #tile.sched<"gate", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %u2 = tile.dot %a, %w2, %u {transpose_b, tile.sched = #tile.sched<"up", stage = 2, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %g2, %u2 : tensor<128x128xf32>, tensor<128x128xf32>
    }
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %ng = arith.negf %acc#0 : tensor<128x128xf32>
    %e = math.exp %ng : tensor<128x128xf32>
    %den = arith.addf %one, %e : tensor<128x128xf32>
    %silu = arith.divf %acc#0, %den : tensor<128x128xf32>
    %h = arith.mulf %silu, %acc#1 : tensor<128x128xf32>
    %rf = arith.extf %r : tensor<128x128xbf16> to tensor<128x128xf32>
    %o = arith.addf %h, %rf : tensor<128x128xf32>
    %ob = arith.truncf %o : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %ob : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
