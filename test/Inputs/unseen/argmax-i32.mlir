// The seventh sweep's classifier head (bench/unseen/sweep-2026-11-29/k30) with its row argmax
// stored as i32 column numbers (fptosi of the f32 one), as a router or a sampler writes it.
module {
  func.func @argmax_head(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %LG: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %IDX: !tile.desc<1x128xi32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
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
    %idxf = arith.negf %best : tensor<128xf32>
    %idx = arith.fptosi %idxf : tensor<128xf32> to tensor<128xi32>
    %lg = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %LG[%m0, %n0], %lg : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    tile.store %IDX[%pn, %m0], %idx : !tile.desc<1x128xi32>, tensor<128xi32>
    tile.store %MXV[%pn, %m0], %mx : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
