// e5m2 LOW -60000: past -57344, refused
module {
  func.func @i08_e5m2_60000(
      %X: !tile.desc<128x128xf8E5M2> {tile.shape = affine_map<()[M] -> (M, 128)>, tile.init = array<f64: -60000.0, 0.0>},
      %Y: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M] -> (M, 128)>},
      %M: index {tile.size = "M"})
      attributes {tile.kernel, tile.grid = affine_map<()[M] -> (1)>,
                  tile.defaults = {M = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x128xf32>
    scf.for %i = %c0 to %M step %c128 {
      %x = tile.load %X[%i, %c0] : !tile.desc<128x128xf8E5M2> -> tensor<128x128xf8E5M2>
      %xf = arith.extf %x : tensor<128x128xf8E5M2> to tensor<128x128xf32>
      %y = arith.mulf %xf, %two : tensor<128x128xf32>
      tile.store %Y[%i, %c0], %y : !tile.desc<128x128xf32>, tensor<128x128xf32>
    }
    return
  }
}
