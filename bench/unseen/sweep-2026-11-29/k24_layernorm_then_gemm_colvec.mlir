// LayerNorm fused into the following linear layer: Y = ((x - mu) rstd gamma) W^T
//   = rstd * ( (x gamma) W^T - mu * (gamma W^T 1) ).
// The loop over D accumulates (x gamma) W^T (register A), the row sums of x and of x^2, and the
// per-output-column constant cw[n] = sum_k gamma_k W[n, k] (a row sum of the W tile: a vector
// over W's rows, i.e. the output's columns, later broadcast along dim 0 of the accumulator).
module {
  func.func @ln_linear(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, D] -> (M, D)>},
      %GAM: !tile.desc<64xf32> {tile.shape = affine_map<()[M, N, D] -> (D)>, tile.init = array<f64: 0.5, 1.5>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, D] -> (N, D)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, D] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %D: index {tile.size = "D"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, D] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 8192 : i64, N = 4096 : i64, D = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %zv = arith.constant dense<0.0> : tensor<128xf32>
    %res:4 = scf.for %k = %c0 to %D step %c64 iter_args(%c = %zero, %s1 = %zv, %s2 = %zv, %cw = %zv)
        -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %x = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %gm = tile.load %GAM[%k] {tile.sched = #tile.sched<"loadG", stage = 0, order = 4, group = 0>}
          : !tile.desc<64xf32> -> tensor<64xf32>
      %w = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 5, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %xf = arith.extf %x {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %gb = tile.broadcast %gm, dim = 0 {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<64xf32> -> tensor<128x64xf32>
      %xg = arith.mulf %xf, %gb {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %xgb = arith.truncf %xg {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %r1 = tile.reduce sum %xf, dim = 1 {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %sq = arith.mulf %xf, %xf {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %r2 = tile.reduce sum %sq, dim = 1 {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %s1n = arith.addf %s1, %r1 {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128xf32>
      %s2n = arith.addf %s2, %r2 {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128xf32>
      %wf = arith.extf %w {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %wg = arith.mulf %wf, %gb {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %rw = tile.reduce sum %wg, dim = 1 {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %cwn = arith.addf %cw, %rw {tile.sched = #tile.sched<"Stats", stage = 1, order = 0, group = 1>} : tensor<128xf32>
      %d = tile.dot %xgb, %w, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d, %s1n, %s2n, %cwn : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %Di = arith.index_cast %D : index to i32
    %Df = arith.sitofp %Di : i32 to f32
    %Dv = tensor.splat %Df : tensor<128xf32>
    %eps = arith.constant dense<1.0e-5> : tensor<128xf32>
    %mu = arith.divf %res#1, %Dv : tensor<128xf32>
    %ex2 = arith.divf %res#2, %Dv : tensor<128xf32>
    %mu2 = arith.mulf %mu, %mu : tensor<128xf32>
    %var = arith.subf %ex2, %mu2 : tensor<128xf32>
    %ve = arith.addf %var, %eps : tensor<128xf32>
    %rstd = math.rsqrt %ve : tensor<128xf32>
    %mub = tile.broadcast %mu, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %cwb = tile.broadcast %res#3, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %corr = arith.mulf %mub, %cwb : tensor<128x128xf32>
    %t = arith.subf %res#0, %corr : tensor<128x128xf32>
    %rb = tile.broadcast %rstd, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.mulf %t, %rb : tensor<128x128xf32>
    %yb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%m0, %n0], %yb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
