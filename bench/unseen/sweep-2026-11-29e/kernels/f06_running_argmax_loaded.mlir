// Running row argmax over the columns of a LOADED f32 matrix (no arithmetic on the values): the
// comparisons read loaded values and carried maxima of them only, so no flips should be allowed.
module {
  func.func @run_argmax(
      %X: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M, N] -> (M, N)>},
      %IDX: !tile.desc<128xi32> {tile.shape = affine_map<()[M, N] -> (M)>},
      %MX: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N] -> (M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, N] -> (M ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %big = arith.constant dense<-1.0e30> : tensor<128x64xf32>
    %minit = arith.constant dense<-1.0e30> : tensor<128xf32>
    %z1 = arith.constant dense<0.0> : tensor<128xf32>
    %r:2 = scf.for %j = %c0 to %N step %c64 iter_args(%m = %minit, %t = %z1) -> (tensor<128xf32>, tensor<128xf32>) {
      %x = tile.load %X[%m0, %j] : !tile.desc<128x64xf32> -> tensor<128x64xf32>
      %mx = tile.reduce max %x, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
      %mxb = tile.broadcast %mx, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
      %is = arith.cmpf oeq, %x, %mxb : tensor<128x64xf32>
      %cols = tile.iota %j, dim = 1 : tensor<128x64xi32>
      %colf = arith.sitofp %cols : tensor<128x64xi32> to tensor<128x64xf32>
      %negc = arith.negf %colf : tensor<128x64xf32>
      %cand = arith.select %is, %negc, %big : tensor<128x64xi1>, tensor<128x64xf32>
      %bb = tile.reduce max %cand, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
      %blk = arith.negf %bb : tensor<128xf32>
      %better = arith.cmpf ogt, %mx, %m : tensor<128xf32>
      %tok = arith.select %better, %blk, %t : tensor<128xi1>, tensor<128xf32>
      %mn = arith.maximumf %m, %mx : tensor<128xf32>
      scf.yield %mn, %tok : tensor<128xf32>, tensor<128xf32>
    }
    %ti = arith.fptosi %r#1 : tensor<128xf32> to tensor<128xi32>
    tile.store %IDX[%m0], %ti : !tile.desc<128xi32>, tensor<128xi32>
    tile.store %MX[%m0], %r#0 : !tile.desc<128xf32>, tensor<128xf32>
    return
  }
}
