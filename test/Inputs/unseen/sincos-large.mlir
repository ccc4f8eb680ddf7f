// sin and cos of large arguments (a rotary embedding's angles at long positions, say): f32
// inputs drawn in [-1e7, 1e7) (tile.init), stored in f32. The kernel's reduction by 2 pi leaves
// the argument of sin.approx a little past pi from |x| ~ 1e6 (3.9 at 1e7).
module {
  func.func @sincos_large(
      %X: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R] -> (R, 64)>,
        tile.init = array<f64: -1.0e7, 1.0e7>},
      %S: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 4096)>,
                  tile.defaults = {R = 65536 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c4096 : index
    %r1 = arith.addi %r0, %c4096 : index
    %end = arith.minui %r1, %R : index
    scf.for %i = %r0 to %end step %c64 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xf32> -> tensor<64x64xf32>
      %s = math.sin %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %c = math.cos %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      tile.store %S[%i, %c0], %s {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<64x64xf32>, tensor<64x64xf32>
      tile.store %C[%i, %c0], %c {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<64x64xf32>, tensor<64x64xf32>
    }
    return
  }
}
