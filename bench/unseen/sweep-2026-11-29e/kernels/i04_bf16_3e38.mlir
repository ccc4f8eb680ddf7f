// bf16 HIGH 3e38 (below 3.39e38): accepted
module {
  func.func @i04_bf16_3e38(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M] -> (M, 64)>, tile.init = array<f64: 0.0, 3.0e38>},
      %Y: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %M: index {tile.size = "M"})
      attributes {tile.kernel, tile.grid = affine_map<()[M] -> (1)>,
                  tile.defaults = {M = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x64xf32>
    scf.for %i = %c0 to %M step %c128 {
      %x = tile.load %X[%i, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %xf = arith.extf %x : tensor<128x64xbf16> to tensor<128x64xf32>
      %y = arith.mulf %xf, %two : tensor<128x64xf32>
      tile.store %Y[%i, %c0], %y : !tile.desc<128x64xf32>, tensor<128x64xf32>
    }
    return
  }
}
