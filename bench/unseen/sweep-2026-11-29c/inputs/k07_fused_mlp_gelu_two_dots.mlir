// Fused MLP block: Y = gelu_tanh(X W1^T) W2^T, X [M, 128], W1 [F, 128], W2 [128, F]; the
// pipelined loop walks the hidden dimension F in chunks of 128: H = X W1_j^T (MMA1), GELU in
// registers, Y += G W2_j^T (MMA2, G as a register A operand). The first dot's result feeds the
// second, like attention without the softmax.
module {
  func.func @mlp(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, F] -> (M, 128)>},
      %W1: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, F] -> (F, 128)>},
      %W2: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, F] -> (128, F)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, F] -> (M, 128)>},
      %M: index {tile.size = "M"}, %F: index {tile.size = "F"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, F] -> (M ceildiv 128)>,
                  tile.defaults = {M = 16384 : i64, F = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %x = tile.load %X[%m0, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %k0 = arith.constant dense<0.7978845608> : tensor<128x128xf32>
    %k1 = arith.constant dense<0.044715> : tensor<128x128xf32>
    %acc = scf.for %j = %c0 to %F step %c128 iter_args(%y = %zero) -> (tensor<128x128xf32>) {
      %w1 = tile.load %W1[%j, %c0] {tile.sched = #tile.sched<"loadW1", stage = 0, order = 4, group = 0>}
          : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %h = tile.dot %x, %w1, %zero {transpose_b, tile.sched = #tile.sched<"MMA1", stage = 1, order = 0, group = 1>}
          : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      %h2 = arith.mulf %h, %h {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %h3 = arith.mulf %h2, %h {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %t1 = arith.mulf %h3, %k1 {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %t2 = arith.addf %h, %t1 {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %t3 = arith.mulf %t2, %k0 {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %t4 = math.tanh %t3 {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %t5 = arith.addf %t4, %one {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %t6 = arith.mulf %t5, %half {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %g = arith.mulf %t6, %h {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %gb = arith.truncf %g {tile.sched = #tile.sched<"GELU", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %w2 = tile.load %W2[%c0, %j] {tile.sched = #tile.sched<"loadW2", stage = 0, order = 5, group = 0>}
          : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %y2 = tile.dot %gb, %w2, %y {transpose_b, tile.sched = #tile.sched<"MMA2", stage = 1, order = 2, group = 1>}
          : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      scf.yield %y2 : tensor<128x128xf32>
    }
    %yb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%m0, %c0], %yb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
