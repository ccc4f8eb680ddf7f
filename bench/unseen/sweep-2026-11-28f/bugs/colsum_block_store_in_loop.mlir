// column sums (reduce dim 0) of each 64-row block stored in the loop at 2*i (block b's 128 sums at 128*b): refused with a message about the coordinates
module {
  func.func @k(
      %X: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %P: !tile.desc<128xf32> {tile.shape = affine_map<()[R] -> (R * 2)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1024 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %R step %c64 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xbf16> to tensor<64x128xf32>
      %s = tile.reduce sum %f, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xf32> -> tensor<128xf32>
      %blk = arith.muli %i, %c2 : index
      tile.store %P[%blk], %s {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128xf32>, tensor<128xf32>
    }
    return
  }
}
