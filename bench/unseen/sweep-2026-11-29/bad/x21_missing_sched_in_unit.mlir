// Partly scheduled: k19 with the square (%sq) of the Norm unit left without a tile.sched: it gets the defaults (its own unit mulf_0, after every written order) while its user (the row sum in Norm) comes first.
// RMSNorm followed by a linear layer (see k19).
// factors out of the sum: the loop multiplies each X tile by gamma (a K-slice loaded in the loop,
// broadcast over rows), feeds the bf16 product to the dot as a register A, and accumulates the
// row sums of squares of X; after the loop Y = acc * rsqrt(ss / D + eps).
module {
  func.func @rms_linear(
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
    %res:2 = scf.for %k = %c0 to %D step %c64 iter_args(%c = %zero, %ss = %zv) -> (tensor<128x128xf32>, tensor<128xf32>) {
      %x = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %gm = tile.load %GAM[%k] {tile.sched = #tile.sched<"loadG", stage = 0, order = 4, group = 0>}
          : !tile.desc<64xf32> -> tensor<64xf32>
      %w = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 5, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %xf = arith.extf %x {tile.sched = #tile.sched<"Norm", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %gb = tile.broadcast %gm, dim = 0 {tile.sched = #tile.sched<"Norm", stage = 1, order = 0, group = 1>} : tensor<64xf32> -> tensor<128x64xf32>
      %xg = arith.mulf %xf, %gb {tile.sched = #tile.sched<"Norm", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %xgb = arith.truncf %xg {tile.sched = #tile.sched<"Norm", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %sq = arith.mulf %xf, %xf : tensor<128x64xf32>
      %rs = tile.reduce sum %sq, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %ss2 = arith.addf %ss, %rs {tile.sched = #tile.sched<"Norm", stage = 1, order = 0, group = 1>} : tensor<128xf32>
      %d = tile.dot %xgb, %w, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d, %ss2 : tensor<128x128xf32>, tensor<128xf32>
    }
    %Di = arith.index_cast %D : index to i32
    %Df = arith.sitofp %Di : i32 to f32
    %Dv = tensor.splat %Df : tensor<128xf32>
    %eps = arith.constant dense<1.0e-6> : tensor<128xf32>
    %ms = arith.divf %res#1, %Dv : tensor<128xf32>
    %mse = arith.addf %ms, %eps : tensor<128xf32>
    %rstd = math.rsqrt %mse : tensor<128xf32>
    %rb = tile.broadcast %rstd, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.mulf %res#0, %rb : tensor<128x128xf32>
    %yb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%m0, %n0], %yb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
