// Two dots in one unit (both named "MMA"): refused where the loop's units are collected, by
// the board, the timeline and the compiler alike (was: legal for the board and the timeline).
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 128)>},
             %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (64, 64)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %b = tile.load %A[%i, %c64] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %d2 = tile.dot %b, %b, %d {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d2 : tensor<64x64xf32>
  }
  tile.store %C[%c0, %c0], %r : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
