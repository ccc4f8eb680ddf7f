// tile.sched order 2^40
module {
  func.func @k(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1024 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    scf.for %i = %c0 to %R step %c128 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1099511627776, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Work", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16> to tensor<128x128xf32>
      %y = arith.truncf %f {tile.sched = #tile.sched<"Work", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      tile.store %Y[%i, %c0], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }
    return
  }
}
