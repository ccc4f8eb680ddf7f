// f32 HIGH 1e39: past 3.4028e38, refused
module {
  func.func @i06_f32_1e39(
      %X: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M] -> (M, 64)>, tile.init = array<f64: 0.0, 1.0e39>},
      %Y: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %M: index {tile.size = "M"})
      attributes {tile.kernel, tile.grid = affine_map<()[M] -> (1)>,
                  tile.defaults = {M = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x64xf32>
    scf.for %i = %c0 to %M step %c128 {
      %x = tile.load %X[%i, %c0] : !tile.desc<128x64xf32> -> tensor<128x64xf32>
      %xf = arith.addf %x, %x : tensor<128x64xf32>
      %y = arith.mulf %xf, %two : tensor<128x64xf32>
      tile.store %Y[%i, %c0], %y : !tile.desc<128x64xf32>, tensor<128x64xf32>
    }
    return
  }
}
