// in-loop store: 128x64 f8E5M2 vector dim 1
module {
  func.func @k(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Y: !tile.desc<128xf8E5M2> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1024 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBR = arith.constant 128 : index
    scf.for %i = %c0 to %R step %cBR {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %g = arith.addf %f, %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %r = tile.reduce sum %g, dim = 1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %y = arith.truncf %r {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32> to tensor<128xf8E5M2>
      tile.store %Y[%i], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128xf8E5M2>, tensor<128xf8E5M2>
    }
    return
  }
}
