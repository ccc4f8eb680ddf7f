// A loop without a producer warp group carrying a value its body never reads (the last
// iteration's, stored after the loop): it crashed the consumer emitter (the init of the unit
// that makes it was looked up through carried copies it does not have); lowered since. Each
// program stores its slab's last tile as row block p of Y.
// A pipelined stream with stores in the loop: each program walks its slab of 4096 rows in tiles
// of 128 x 128, Y = SiLU(X) in bf16 and each row's sum of Y in f32, stored every iteration by the
// consumers through the staging slots while the producer loads ahead.
module {
  func.func @silu_stream(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[R] -> ((R ceildiv 4096) * 128, 128)>},
      %S: !tile.desc<128xf32> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 4096)>,
                  tile.defaults = {R = 1048576 : i64}, tile.warpgroups = array<i64: 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c4096 : index
    %r1 = arith.addi %r0, %c4096 : index
    %end = arith.minui %r1, %R : index
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %last = scf.for %i = %r0 to %end step %c128 iter_args(%prev = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>}
          : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>}
          : tensor<128x128xbf16> to tensor<128x128xf32>
      %n = arith.negf %f {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>} : tensor<128x128xf32>
      %e = math.exp %n {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>} : tensor<128x128xf32>
      %d = arith.addf %e, %one {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>} : tensor<128x128xf32>
      %y = arith.divf %f, %d {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>} : tensor<128x128xf32>
      %yb = arith.truncf %y {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>}
          : tensor<128x128xf32> to tensor<128x128xbf16>
      %rs = tile.reduce sum %y, dim = 1 {tile.sched = #tile.sched<"SiLU", stage = 1, order = 1, group = 0>}
          : tensor<128x128xf32> -> tensor<128xf32>
      scf.yield %y : tensor<128x128xf32>
    }
    %lb = arith.truncf %last : tensor<128x128xf32> to tensor<128x128xbf16>
    %y0 = arith.muli %p, %c128 : index
    tile.store %Y[%y0, %c0], %lb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
