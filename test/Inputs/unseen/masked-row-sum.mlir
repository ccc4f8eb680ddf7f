// The seventh sweep's classifier head (k30) storing, in place of the row max, the row sum of
// its ReLU written as select(acc > 0, acc, 0): a comparison of computed values summed over a
// row, not a count: flips (scaled by the row), but no step (tests: test/Compile/flips.test).
// Classifier head: logits = X W^T over a full 128-class tile (N = 128 per program), then the
// row-wise argmax in the epilogue via iota/compare/select/reduce (first index of the max, as
// an f32 vector) and the max logit; also stores the bf16 logits.
module {
  func.func @argmax_head(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %LG: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %IDX: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %MXV: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 16384 : i64, N = 1024 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %mx = tile.reduce max %acc, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %mxb = tile.broadcast %mx, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %is = arith.cmpf oeq, %acc, %mxb : tensor<128x128xf32>
    %cols = tile.iota %n0, dim = 1 : tensor<128x128xi32>
    %colf = arith.sitofp %cols : tensor<128x128xi32> to tensor<128x128xf32>
    %negc = arith.negf %colf : tensor<128x128xf32>
    %big = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %cand = arith.select %is, %negc, %big : tensor<128x128xi1>, tensor<128x128xf32>
    %best = tile.reduce max %cand, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %idx = arith.negf %best : tensor<128xf32>
    %zs = arith.constant dense<0.0> : tensor<128x128xf32>
    %pos = arith.cmpf ogt, %acc, %zs : tensor<128x128xf32>
    %relu = arith.select %pos, %acc, %zs : tensor<128x128xi1>, tensor<128x128xf32>
    %rs = tile.reduce sum %relu, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %lg = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %LG[%m0, %n0], %lg : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    tile.store %IDX[%pn, %m0], %idx : !tile.desc<1x128xf32>, tensor<128xf32>
    tile.store %MXV[%pn, %m0], %rs : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
