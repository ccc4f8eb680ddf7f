// e4m3 HIGH 500: past 448 (the fill saturates to 448), refused
module {
  func.func @i07_e4m3_500(
      %X: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M] -> (M, 128)>, tile.init = array<f64: 0.0, 500.0>},
      %Y: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M] -> (M, 128)>},
      %M: index {tile.size = "M"})
      attributes {tile.kernel, tile.grid = affine_map<()[M] -> (1)>,
                  tile.defaults = {M = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x128xf32>
    scf.for %i = %c0 to %M step %c128 {
      %x = tile.load %X[%i, %c0] : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %xf = arith.extf %x : tensor<128x128xf8E4M3FN> to tensor<128x128xf32>
      %y = arith.mulf %xf, %two : tensor<128x128xf32>
      tile.store %Y[%i, %c0], %y : !tile.desc<128x128xf32>, tensor<128x128xf32>
    }
    return
  }
}
