// t01: the epilogue math one unit
module {
  func.func @t01_lmhead_one_unit(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, V] -> (M, 128)>},
      %W: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, V] -> (V, 128)>},
      %LSE: !tile.desc<128xf32> {tile.shape = affine_map<()[M, V] -> (M)>},
      %TOK: !tile.desc<128xi32> {tile.shape = affine_map<()[M, V] -> (M)>},
      %M: index {tile.size = "M"}, %V: index {tile.size = "V"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, V] -> (M ceildiv 128)>,
                  tile.defaults = {M = 8192 : i64, V = 32768 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %x = tile.load %X[%m0, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
    %zs = arith.constant dense<0.0> : tensor<128x128xf32>
    %big = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %minit = arith.constant dense<-1.0e30> : tensor<128xf32>
    %z1 = arith.constant dense<0.0> : tensor<128xf32>
    %r:3 = scf.for %j = %c0 to %V step %c128 iter_args(%m = %minit, %l = %z1, %t = %z1) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %w = tile.load %W[%j, %c0] {tile.sched = #tile.sched<"loadW", stage = 0, order = 99, group = 0>}
          : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %s = tile.dot %x, %w, %zs {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>}
          : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      %mx = tile.reduce max %s, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %d = arith.subf %s, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %p = math.exp %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %al = math.exp %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %al {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mxb = tile.broadcast %mx, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %is = arith.cmpf oeq, %s, %mxb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %cols = tile.iota %j, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>
      %colf = arith.sitofp %cols {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi32> to tensor<128x128xf32>
      %negc = arith.negf %colf {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %cand = arith.select %is, %negc, %big {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi1>, tensor<128x128xf32>
      %bb = tile.reduce max %cand, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %blk = arith.negf %bb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %better = arith.cmpf ogt, %mx, %m {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %tok = arith.select %better, %blk, %t {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xi1>, tensor<128xf32>
      scf.yield %mn, %ln, %tok : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lg = math.log %r#1 : tensor<128xf32>
    %lse = arith.addf %r#0, %lg : tensor<128xf32>
    tile.store %LSE[%m0], %lse : !tile.desc<128xf32>, tensor<128xf32>
    %ti = arith.fptosi %r#2 : tensor<128xf32> to tensor<128xi32>
    tile.store %TOK[%m0], %ti : !tile.desc<128xi32>, tensor<128xi32>
    return
  }
}
