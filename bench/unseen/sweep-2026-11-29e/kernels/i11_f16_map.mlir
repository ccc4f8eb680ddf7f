// f16 range from the sizes: [0, 64 M): 65536 at M = 1024, past 65504; 8192 at M = 128
module {
  func.func @i11_f16_map(
      %X: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M] -> (M, 64)>, tile.init = affine_map<()[M] -> (0, M * 64)>},
      %Y: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %M: index {tile.size = "M"})
      attributes {tile.kernel, tile.grid = affine_map<()[M] -> (1)>,
                  tile.defaults = {M = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x64xf32>
    scf.for %i = %c0 to %M step %c128 {
      %x = tile.load %X[%i, %c0] : !tile.desc<128x64xf16> -> tensor<128x64xf16>
      %xf = arith.extf %x : tensor<128x64xf16> to tensor<128x64xf32>
      %y = arith.mulf %xf, %two : tensor<128x64xf32>
      tile.store %Y[%i, %c0], %y : !tile.desc<128x64xf32>, tensor<128x64xf32>
    }
    return
  }
}
