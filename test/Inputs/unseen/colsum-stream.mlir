// Column sums and maxima of a tall 40-column matrix, a stream with no dot: each program walks
// its own 4096-row slab in tiles of 128 rows and reduces each over its rows (dim = 0), a width
// that is not a multiple of 32 (the full butterfly, not the reduce-scatter).
module {
  func.func @colsum_stream(
      %X: !tile.desc<128x40xbf16> {tile.shape = affine_map<()[R] -> (R, 40)>},
      %S: !tile.desc<1x40xf32> {tile.shape = affine_map<()[R] -> (R ceildiv 4096, 40)>},
      %Mx: !tile.desc<1x40xf32> {tile.shape = affine_map<()[R] -> (R ceildiv 4096, 40)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 4096)>,
                  tile.defaults = {R = 1048576 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c4096 : index
    %r1 = arith.addi %r0, %c4096 : index
    %end = arith.minui %r1, %R : index
    %z = arith.constant dense<0.0> : tensor<40xf32>
    %lo = arith.constant dense<-3.0e38> : tensor<40xf32>
    %s, %m = scf.for %i = %r0 to %end step %c128 iter_args(%acc = %z, %mx = %lo)
        -> (tensor<40xf32>, tensor<40xf32>) {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>}
          : !tile.desc<128x40xbf16> -> tensor<128x40xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Sum", stage = 1, order = 1, group = 1>}
          : tensor<128x40xbf16> to tensor<128x40xf32>
      %cs = tile.reduce sum %f, dim = 0 {tile.sched = #tile.sched<"Sum", stage = 1, order = 1, group = 1>}
          : tensor<128x40xf32> -> tensor<40xf32>
      %a2 = arith.addf %acc, %cs {tile.sched = #tile.sched<"Sum", stage = 1, order = 1, group = 1>} : tensor<40xf32>
      %cm = tile.reduce max %f, dim = 0 {tile.sched = #tile.sched<"Sum", stage = 1, order = 1, group = 1>}
          : tensor<128x40xf32> -> tensor<40xf32>
      %m2 = arith.maximumf %mx, %cm {tile.sched = #tile.sched<"Sum", stage = 1, order = 1, group = 1>} : tensor<40xf32>
      scf.yield %a2, %m2 : tensor<40xf32>, tensor<40xf32>
    }
    tile.store %S[%p, %c0], %s : !tile.desc<1x40xf32>, tensor<40xf32>
    tile.store %Mx[%p, %c0], %m : !tile.desc<1x40xf32>, tensor<40xf32>
    return
  }
}
