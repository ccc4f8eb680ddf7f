// BAD: the decay read by tensor.extract from the state (a tile the loop computes)
// Chunked retention / gated linear attention, inclusive form: per chunk j the state decays by a
// per-(head, chunk) factor g read from a table loaded before the loop (tensor.extract in the loop),
// S^T <- g * S^T + V_j^T K_j, and then O_j^T = S^T Q_j^T in the same iteration: the second dot reads
// the first one's result (rounded to bf16) as its register A. Outputs: O^T (bf16, stored in the
// loop), the final state (f32) and its row sums (f32 vector, after the loop).
module {
  func.func @retention(
      %Q: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %K: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %V: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %G: !tile.desc<1x64xf32> {tile.shape = affine_map<()[BH, T] -> (BH, 64)>, tile.init = array<f64: 0.5, 1.0>},
      %Ot: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, 128, T)>},
      %Sf: !tile.desc<1x128x128xf32> {tile.shape = affine_map<()[BH, T] -> (BH, 128, 128)>},
      %Rs: !tile.desc<1x128xf32> {tile.shape = affine_map<()[BH, T] -> (BH, 128)>},
      %BH: index {tile.size = "BH"}, %T: index {tile.size = "T"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BH, T] -> (BH)>,
                  tile.defaults = {BH = 64 : i64, T = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %bh = tile.program_id 0 : index
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %zo = arith.constant dense<0.0> : tensor<128x64xf32>
    %g = tile.load %G[%bh, %c0] : !tile.desc<1x64xf32> -> tensor<64xf32>
    %st = scf.for %j = %c0 to %T step %c64 iter_args(%s = %z) -> (tensor<128x128xf32>) {
      %jb = arith.divui %j, %c64 : index
      %gj = tensor.extract %s[%c0, %jb] {tile.sched = #tile.sched<"ext", stage = 1, order = 0, group = 1>} : tensor<128x128xf32>
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %q = tile.load %Q[%bh, %j, %c0] {tile.sched = #tile.sched<"loadQ", stage = 0, order = 6, group = 0>} : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %gs = tensor.splat %gj {tile.sched = #tile.sched<"decay", stage = 1, order = 0, group = 1>} : tensor<128x128xf32>
      %sd = arith.mulf %s, %gs {tile.sched = #tile.sched<"decay", stage = 1, order = 0, group = 1>} : tensor<128x128xf32>
      %s2 = tile.dot %v, %k, %sd {transpose_a, tile.sched = #tile.sched<"MMA_S", stage = 1, order = 1, group = 1>} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
      %sb = arith.truncf %s2 {tile.sched = #tile.sched<"cvtS", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %ot = tile.dot %sb, %q, %zo {transpose_b, tile.sched = #tile.sched<"MMA_O", stage = 1, order = 3, group = 1>} : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
      %otb = arith.truncf %ot {tile.sched = #tile.sched<"storeO", stage = 1, order = 7, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      tile.store %Ot[%bh, %c0, %j], %otb {tile.sched = #tile.sched<"storeO", stage = 1, order = 7, group = 1>} : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
      scf.yield %s2 : tensor<128x128xf32>
    }
    tile.store %Sf[%bh, %c0, %c0], %st : !tile.desc<1x128x128xf32>, tensor<128x128xf32>
    %rs = tile.reduce sum %st, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    tile.store %Rs[%bh, %c0], %rs : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
