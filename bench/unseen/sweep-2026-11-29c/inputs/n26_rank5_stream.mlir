// rank-5 descriptors (box 1x1x1x64x64): a stream over the 3rd dimension of [A, B, C, R, 64] at fixed (a, b) from program ids, rows R tail; Y = exp(X) stored f32 in the loop at the same rank-5 position
module {
  func.func @n26(
      %X: !tile.desc<1x1x1x64x64xbf16> {tile.shape = affine_map<()[A, B, C, R] -> (A, B, C, R, 64)>},
      %Y: !tile.desc<1x1x1x64x64xf32> {tile.shape = affine_map<()[A, B, C, R] -> (A, B, C, R, 64)>},
      %A: index {tile.size = "A"}, %B: index {tile.size = "B"}, %C: index {tile.size = "C"}, %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[A, B, C, R] -> (A, B, R ceildiv 64)>,
                  tile.defaults = {A = 2 : i64, B = 3 : i64, C = 5 : i64, R = 100 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = tile.program_id 0 : index
    %b = tile.program_id 1 : index
    %r = tile.program_id 2 : index
    %r0 = arith.muli %r, %c64 : index
    scf.for %c = %c0 to %C step %c1 {
      %x = tile.load %X[%a, %b, %c, %r0, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<1x1x1x64x64xbf16> -> tensor<64x64xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xbf16> to tensor<64x64xf32>
      %e = math.exp %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      tile.store %Y[%a, %b, %c, %r0, %c0], %e {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<1x1x1x64x64xf32>, tensor<64x64xf32>
    }
    return
  }
}
