// A low-rank product's second factor, Y = T B^T for T of rank 64 (LoRA's up projection): each
// program loads its 128 rows of T once and walks the columns of Y in tiles of 128, one K = 64
// dot and one store a tile, in the loop.
module {
  func.func @lora_up(
      %T: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N] -> (M, 64)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N] -> (N, 64)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, N] -> (M ceildiv 128)>,
                  tile.defaults = {M = 16384 : i64, N = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %t = tile.load %T[%m0, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    scf.for %j = %c0 to %N step %c128 {
      %b = tile.load %B[%j, %c0] {tile.sched = #tile.sched<"loadB", stage = 0, order = 0, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %y = tile.dot %t, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %yb = arith.truncf %y {tile.sched = #tile.sched<"Store", stage = 1, order = 2, group = 1>}
          : tensor<128x128xf32> to tensor<128x128xbf16>
      tile.store %Y[%m0, %j], %yb {tile.sched = #tile.sched<"Store", stage = 1, order = 2, group = 1>}
          : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }
    return
  }
}
