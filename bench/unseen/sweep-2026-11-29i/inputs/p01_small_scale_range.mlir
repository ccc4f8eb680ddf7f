// Weight-only quantized linear layer (W8A16): Y^T = dequant(W) X^T with W an e4m3 [N, K] weight and
// one f32 scale per (output row, group of 128 K) stored transposed as SC [K/128, N]. The weight tile is
// the dot's A: loaded as e4m3, widened with arith.extf, multiplied by its scale column (a 1-d tile
// loaded in the loop, broadcast along the K columns), rounded to bf16 in registers. X (bf16 [M, K]) is
// the K-major B. Output: Y^T [N, M] bf16, plus the row sums of |Y^T| over this tile's M columns (f32, RS [M/128, N]).
module {
  func.func @w8a16(
      %W: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SC: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 128, N)>, tile.init = array<f64: 0.0001, 0.004>},
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, M)>},
      %RS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (N ceildiv 128, M ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pn = tile.program_id 0 : index
    %pm = tile.program_id 1 : index
    %n0 = arith.muli %pn, %c128 : index
    %m0 = arith.muli %pm, %c128 : index
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %z) -> (tensor<128x128xf32>) {
      %kg = arith.divui %k, %c128 : index
      %w = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>} : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %s = tile.load %SC[%kg, %n0] {tile.sched = #tile.sched<"loadS", stage = 0, order = 3, group = 0>} : !tile.desc<1x128xf32> -> tensor<128xf32>
      %x = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 4, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %wf = arith.extf %w {tile.sched = #tile.sched<"dequant", stage = 1, order = 0, group = 1>} : tensor<128x128xf8E4M3FN> to tensor<128x128xf32>
      %sb = tile.broadcast %s, dim = 1 {tile.sched = #tile.sched<"dequant", stage = 1, order = 0, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %ws = arith.mulf %wf, %sb {tile.sched = #tile.sched<"dequant", stage = 1, order = 0, group = 1>} : tensor<128x128xf32>
      %wb = arith.truncf %ws {tile.sched = #tile.sched<"dequant", stage = 1, order = 0, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %d = tile.dot %wb, %x, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %yb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%n0, %m0], %yb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    %ab = math.absf %acc : tensor<128x128xf32>
    %rs = tile.reduce sum %ab, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    tile.store %RS[%pm, %n0], %rs : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
