// Activation statistics over a wide layer: each program takes 128 rows of X (K = 128, loaded once),
// streams the N columns of W in blocks of 128 and counts, per row, the logits above 0 and the
// tanh-activations above 0.5 over ALL N columns (f32 running counts, stored as i32 at the end).
// Each count aggregates N comparisons of computed values: a flip anywhere in the row changes it.
module {
  func.func @count_cols(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N] -> (M, 128)>},
      %W: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N] -> (N, 128)>},
      %C0: !tile.desc<128xi32> {tile.shape = affine_map<()[M, N] -> (M)>},
      %C1: !tile.desc<128xi32> {tile.shape = affine_map<()[M, N] -> (M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N] -> (M ceildiv 128)>,
                  tile.defaults = {M = 16384 : i64, N = 65536 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %x = tile.load %X[%m0, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
    %zs = arith.constant dense<0.0> : tensor<128x128xf32>
    %zc = arith.constant dense<0.0> : tensor<128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %r:2 = scf.for %j = %c0 to %N step %c128 iter_args(%n0 = %zc, %n1 = %zc) -> (tensor<128xf32>, tensor<128xf32>) {
      %w = tile.load %W[%j, %c0] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %s = tile.dot %x, %w, %zs {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>}
          : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      %p = arith.cmpf ogt, %s, %zs {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %i = arith.select %p, %one, %zs {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xi1>, tensor<128x128xf32>
      %rs = tile.reduce sum %i, dim = 1 {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %a0 = arith.addf %n0, %rs {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %t = math.tanh %s {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %q = arith.cmpf ogt, %t, %half {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %i2 = arith.select %q, %one, %zs {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xi1>, tensor<128x128xf32>
      %rs2 = tile.reduce sum %i2, dim = 1 {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %a1 = arith.addf %n1, %rs2 {tile.sched = #tile.sched<"Count", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      scf.yield %a0, %a1 : tensor<128xf32>, tensor<128xf32>
    }
    %k0 = arith.fptosi %r#0 : tensor<128xf32> to tensor<128xi32>
    %k1 = arith.fptosi %r#1 : tensor<128xf32> to tensor<128xi32>
    tile.store %C0[%m0], %k0 : !tile.desc<128xi32>, tensor<128xi32>
    tile.store %C1[%m0], %k1 : !tile.desc<128xi32>, tensor<128xi32>
    return
  }
}
