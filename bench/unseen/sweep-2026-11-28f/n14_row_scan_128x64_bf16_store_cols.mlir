// 
// blockwise row scan: Y[:, j-block] = X[:, j-block] + (sum of the row before the block), carry 1-d; the stores walk the columns (N=1000 tail)
module {
  func.func @n14_row_scan_128x64_bf16_store_cols(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R, N] -> (R, N)>},
      %Y: !tile.desc<128x64xf32> {tile.shape = affine_map<()[R, N] -> (R, N)>},
      %R: index {tile.size = "R"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[R, N] -> (R ceildiv 128)>,
                  tile.defaults = {R = 4096 : i64, N = 1000 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c128 : index
    %z = arith.constant dense<0.0> : tensor<128xf32>
    %last = scf.for %j = %c0 to %N step %c64 iter_args(%c = %z) -> (tensor<128xf32>) {
      %x = tile.load %X[%r0, %j] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %cb = tile.broadcast %c, dim = 1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %y = arith.addf %f, %cb {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %rs = tile.reduce sum %f, dim = 1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %c2 = arith.addf %c, %rs {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      tile.store %Y[%r0, %j], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x64xf32>, tensor<128x64xf32>
      scf.yield %c2 : tensor<128xf32>
    }
    return
  }
}
