// The partial of 64-row block i/64 stored at row i/64 (a division by a constant that divides the step).
// column sums of each 64-row block stored in the loop to row i/64 of a [R/64, 128] matrix, plus a 1-d iota term; first iteration scaled by a scalar i1 select; erf on the tile
module {
  func.func @n18_colsum_per_block_store_in_loop(
      %X: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %P: !tile.desc<1x128xf32> {tile.shape = affine_map<()[R] -> (R ceildiv 64, 128)>},
      %Sc: !tile.desc<4xf32> {tile.shape = affine_map<()[R] -> (4)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1000 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %st = tile.load %Sc[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %scl = tensor.extract %st[%c0] : tensor<4xf32>
    %sclt = tensor.splat %scl : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    scf.for %i = %c0 to %R step %c64 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xbf16> to tensor<64x128xf32>
      %g = math.erf %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xf32>
      %first = arith.cmpi eq, %i, %c0 : index
      %h = arith.select %first, %half, %sclt {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xf32>
      %y = arith.mulf %g, %h {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xf32>
      %cs = tile.reduce sum %y, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x128xf32> -> tensor<128xf32>
      %io = tile.iota %c0, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xi32>
      %iof = arith.sitofp %io {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xi32> to tensor<128xf32>
      %o = arith.addf %cs, %iof {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %blk = arith.divui %i, %c64 : index
      tile.store %P[%blk, %c0], %o {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<1x128xf32>, tensor<128xf32>
    }
    return
  }
}
