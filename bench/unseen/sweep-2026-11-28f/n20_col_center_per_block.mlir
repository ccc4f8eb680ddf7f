// 
// per 128-row block: X - column mean of the block (reduce dim 0, broadcast dim 0), stored f16 in the loop
module {
  func.func @n20_col_center_per_block(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %Y: !tile.desc<128x128xf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 1024)>,
                  tile.defaults = {R = 4096 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c1024 : index
    %r1 = arith.addi %r0, %c1024 : index
    %inv = arith.constant dense<0.0078125> : tensor<128xf32>
    scf.for %i = %r0 to %r1 step %c128 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16> to tensor<128x128xf32>
      %cs = tile.reduce sum %f, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mu = arith.mulf %cs, %inv {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mb = tile.broadcast %mu, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %d = arith.subf %f, %mb {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %y = arith.truncf %d {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xf16>
      tile.store %Y[%i, %c0], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x128xf16>, tensor<128x128xf16>
    }
    return
  }
}
