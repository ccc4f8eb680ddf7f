// in-loop store: 64x64 f16 vector dim 1
module {
  func.func @k(
      %X: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Y: !tile.desc<64xf16> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %cBR = arith.constant 64 : index
    scf.for %i = %c0 to %R step %cBR {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xbf16> to tensor<64x64xf32>
      %g = arith.addf %f, %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %r = tile.reduce sum %g, dim = 1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32> -> tensor<64xf32>
      %y = arith.truncf %r {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64xf32> to tensor<64xf16>
      tile.store %Y[%i], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<64xf16>, tensor<64xf16>
    }
    return
  }
}
