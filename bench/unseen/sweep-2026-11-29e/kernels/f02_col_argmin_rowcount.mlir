// Column argmin (over the 128 rows of each tile, dim = 0) of a GEMM, stored as i32 row numbers
// (absolute: m0 + r), plus the per-row count of logits above the row mean (i32 via fptosi of a
// row sum of 0/1), plus the column argmax of the LOADED bias tile (no flips expected).
module {
  func.func @colargmin(
      %A: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<64x128xf16> {tile.shape = affine_map<()[M, N, K] -> (K, N)>},
      %BI: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %AMIN: !tile.desc<1x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128, N)>},
      %CNT: !tile.desc<1x128xi32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %BAM: !tile.desc<1x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 1024 : i64},
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
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xf16> -> tensor<128x64xf16>
      %b = tile.load %B[%k, %n0] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x128xf16> -> tensor<64x128xf16>
      %d = tile.dot %a, %b, %c {tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>}
          : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    // argmin over rows = argmax of -acc over rows; first (smallest) row among ties
    %na = arith.negf %acc : tensor<128x128xf32>
    %cmx = tile.reduce max %na, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
    %cmxb = tile.broadcast %cmx, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %is = arith.cmpf oeq, %na, %cmxb : tensor<128x128xf32>
    %rows = tile.iota %m0, dim = 0 : tensor<128x128xi32>
    %rowf = arith.sitofp %rows : tensor<128x128xi32> to tensor<128x128xf32>
    %nrow = arith.negf %rowf : tensor<128x128xf32>
    %big = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %cand = arith.select %is, %nrow, %big : tensor<128x128xi1>, tensor<128x128xf32>
    %best = tile.reduce max %cand, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
    %bi = arith.negf %best : tensor<128xf32>
    %amin = arith.fptosi %bi : tensor<128xf32> to tensor<128xi32>
    tile.store %AMIN[%pm, %n0], %amin : !tile.desc<1x128xi32>, tensor<128xi32>
    // per-row count above the row mean
    %rs = tile.reduce sum %acc, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %inv = arith.constant dense<0.0078125> : tensor<128xf32>
    %mean = arith.mulf %rs, %inv : tensor<128xf32>
    %meanb = tile.broadcast %mean, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %above = arith.cmpf ogt, %acc, %meanb : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %ind = arith.select %above, %one, %zero : tensor<128x128xi1>, tensor<128x128xf32>
    %cnt = tile.reduce sum %ind, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %cnti = arith.fptosi %cnt : tensor<128xf32> to tensor<128xi32>
    tile.store %CNT[%pn, %m0], %cnti : !tile.desc<1x128xi32>, tensor<128xi32>
    // column argmax of the loaded bias: loaded, iota, max only
    %bias = tile.load %BI[%m0, %n0] : !tile.desc<128x128xf32> -> tensor<128x128xf32>
    %bmx = tile.reduce max %bias, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
    %bmxb = tile.broadcast %bmx, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %bis = arith.cmpf oeq, %bias, %bmxb : tensor<128x128xf32>
    %bcand = arith.select %bis, %nrow, %big : tensor<128x128xi1>, tensor<128x128xf32>
    %bbest = tile.reduce max %bcand, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
    %bbi = arith.negf %bbest : tensor<128xf32>
    %bam = arith.fptosi %bbi : tensor<128xf32> to tensor<128xi32>
    tile.store %BAM[%pm, %n0], %bam : !tile.desc<1x128xi32>, tensor<128xi32>
    return
  }
}
