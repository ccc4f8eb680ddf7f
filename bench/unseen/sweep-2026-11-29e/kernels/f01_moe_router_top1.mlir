// MoE router: logits = X Wr^T over E = 64 experts (one 128x64 tile per program, K loop),
// top-1 expert id per token (i32, via max + cmpf oeq + iota + max of negated column),
// the top-1 gate (softmax probability of the winner, f32) and per-tile expert counts
// (column sums of the one-hot choice, i32 via fptosi).
module {
  func.func @moe_router(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[T, K] -> (T, K)>},
      %W: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[T, K] -> (64, K)>},
      %ID: !tile.desc<128xi32> {tile.shape = affine_map<()[T, K] -> (T)>},
      %G: !tile.desc<128xf32> {tile.shape = affine_map<()[T, K] -> (T)>},
      %CNT: !tile.desc<1x64xi32> {tile.shape = affine_map<()[T, K] -> (T ceildiv 128, 64)>},
      %T: index {tile.size = "T"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[T, K] -> (T ceildiv 128)>,
                  tile.defaults = {T = 8192 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x64xf32>) {
      %a = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %W[%c0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      scf.yield %d : tensor<128x64xf32>
    }
    %mx = tile.reduce max %acc, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
    %mxb = tile.broadcast %mx, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
    %is = arith.cmpf oeq, %acc, %mxb : tensor<128x64xf32>
    %cols = tile.iota %c0, dim = 1 : tensor<128x64xi32>
    %colf = arith.sitofp %cols : tensor<128x64xi32> to tensor<128x64xf32>
    %negc = arith.negf %colf : tensor<128x64xf32>
    %big = arith.constant dense<-1.0e30> : tensor<128x64xf32>
    %cand = arith.select %is, %negc, %big : tensor<128x64xi1>, tensor<128x64xf32>
    %best = tile.reduce max %cand, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
    %idxf = arith.negf %best : tensor<128xf32>
    %idx = arith.fptosi %idxf : tensor<128xf32> to tensor<128xi32>
    tile.store %ID[%m0], %idx : !tile.desc<128xi32>, tensor<128xi32>
    // gate = 1 / sum_j exp(l_j - max)
    %sh = arith.subf %acc, %mxb : tensor<128x64xf32>
    %e = math.exp %sh : tensor<128x64xf32>
    %s = tile.reduce sum %e, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
    %one = arith.constant dense<1.0> : tensor<128xf32>
    %g = arith.divf %one, %s : tensor<128xf32>
    tile.store %G[%m0], %g : !tile.desc<128xf32>, tensor<128xf32>
    // counts per expert in this tile: column sums of the one-hot of the first maximum
    %bestb = tile.broadcast %best, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
    %hot = arith.cmpf oeq, %negc, %bestb : tensor<128x64xf32>
    %onef = arith.constant dense<1.0> : tensor<128x64xf32>
    %zf = arith.constant dense<0.0> : tensor<128x64xf32>
    %oh = arith.select %hot, %onef, %zf : tensor<128x64xi1>, tensor<128x64xf32>
    %cs = tile.reduce sum %oh, dim = 0 : tensor<128x64xf32> -> tensor<64xf32>
    %ci = arith.fptosi %cs : tensor<64xf32> to tensor<64xi32>
    tile.store %CNT[%pm, %c0], %ci : !tile.desc<1x64xi32>, tensor<64xi32>
    return
  }
}
