// Gated linear attention (GLA-like, per-key-dimension gates), chunk form with the state as S^T [dv x dk]:
// each chunk j loads its gate logits g_j [dk] (f32, a 1-d tile in the loop), S^T <- S^T * exp(g_j)
// (a column vector broadcast along the rows: dim = 0), S^T += V_j^T K_j, O_j^T = S^T Q_j^T (f16 operands
// throughout: f16 Q/K/V and the state rounded to f16 as the register A). Outputs: O^T (f16, in the
// loop), the final state as f16 and as e4m3 scaled by 1/64 (two dtypes of one value, after the loop).
module {
  func.func @gla(
      %Q: !tile.desc<1x64x128xf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %K: !tile.desc<1x64x128xf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %V: !tile.desc<1x64x128xf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %G: !tile.desc<1x128xf32> {tile.shape = affine_map<()[BH, T] -> (BH * (T ceildiv 64), 128)>, tile.init = array<f64: -0.2, 0.0>},
      %Ot: !tile.desc<1x128x64xf16> {tile.shape = affine_map<()[BH, T] -> (BH, 128, T)>},
      %S16: !tile.desc<1x128x128xf16> {tile.shape = affine_map<()[BH, T] -> (BH, 128, 128)>},
      %S8: !tile.desc<1x128x128xf8E4M3FN> {tile.shape = affine_map<()[BH, T] -> (BH, 128, 128)>},
      %BH: index {tile.size = "BH"}, %T: index {tile.size = "T"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BH, T] -> (BH)>,
                  tile.defaults = {BH = 96 : i64, T = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %bh = tile.program_id 0 : index
    %tp = arith.addi %T, %c63 : index
    %nc = arith.divui %tp, %c64 : index
    %gbase = arith.muli %bh, %nc : index
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %zo = arith.constant dense<0.0> : tensor<128x64xf32>
    %st = scf.for %j = %c0 to %T step %c64 iter_args(%s = %z) -> (tensor<128x128xf32>) {
      %jc = arith.divui %j, %c64 : index
      %gr = arith.addi %gbase, %jc : index
      %g = tile.load %G[%gr, %c0] {tile.sched = #tile.sched<"loadG", stage = 0, order = 3, group = 0>} : !tile.desc<1x128xf32> -> tensor<128xf32>
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x64x128xf16> -> tensor<64x128xf16>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x64x128xf16> -> tensor<64x128xf16>
      %q = tile.load %Q[%bh, %j, %c0] {tile.sched = #tile.sched<"loadQ", stage = 0, order = 6, group = 0>} : !tile.desc<1x64x128xf16> -> tensor<64x128xf16>
      %eg = math.exp %g {tile.sched = #tile.sched<"gate", stage = 1, order = 0, group = 1>} : tensor<128xf32>
      %egb = tile.broadcast %eg, dim = 0 {tile.sched = #tile.sched<"gate", stage = 1, order = 0, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %sd = arith.mulf %s, %egb {tile.sched = #tile.sched<"gate", stage = 1, order = 0, group = 1>} : tensor<128x128xf32>
      %s2 = tile.dot %v, %k, %sd {transpose_a, tile.sched = #tile.sched<"MMA_S", stage = 1, order = 1, group = 1>} : tensor<64x128xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
      %sh = arith.truncf %s2 {tile.sched = #tile.sched<"cvtS", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> to tensor<128x128xf16>
      %ot = tile.dot %sh, %q, %zo {transpose_b, tile.sched = #tile.sched<"MMA_O", stage = 1, order = 7, group = 1>} : tensor<128x128xf16>, tensor<64x128xf16> -> tensor<128x64xf32>
      %oth = arith.truncf %ot {tile.sched = #tile.sched<"storeO", stage = 1, order = 8, group = 1>} : tensor<128x64xf32> to tensor<128x64xf16>
      tile.store %Ot[%bh, %c0, %j], %oth {tile.sched = #tile.sched<"storeO", stage = 1, order = 8, group = 1>} : !tile.desc<1x128x64xf16>, tensor<128x64xf16>
      scf.yield %s2 : tensor<128x128xf32>
    }
    %s16 = arith.truncf %st : tensor<128x128xf32> to tensor<128x128xf16>
    tile.store %S16[%bh, %c0, %c0], %s16 : !tile.desc<1x128x128xf16>, tensor<128x128xf16>
    %inv = arith.constant dense<0.015625> : tensor<128x128xf32>
    %ss = arith.mulf %st, %inv : tensor<128x128xf32>
    %s8 = arith.truncf %ss : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
    tile.store %S8[%bh, %c0, %c0], %s8 : !tile.desc<1x128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
    return
  }
}
