// No dot: RMS of each row of X[M, K], streamed over K in 128x128 f16 blocks; output 1-d f32 per row.
module {
  func.func @r01(
      %X: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, K] -> (M, K)>},
      %R: !tile.desc<128xf32> {tile.shape = affine_map<()[M, K] -> (M)>},
      %M: index {tile.size = "M"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, K] -> (M ceildiv 128)>,
                  tile.defaults = {M = 16384 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%s = %zero) -> (tensor<128xf32>) {
      %x = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x128xf16> -> tensor<128x128xf16>
      %xf = arith.extf %x {tile.sched = #tile.sched<"Sq", stage = 1, order = 0, group = 1>} : tensor<128x128xf16> to tensor<128x128xf32>
      %x2 = arith.mulf %xf, %xf {tile.sched = #tile.sched<"Sq", stage = 1, order = 0, group = 1>} : tensor<128x128xf32>
      %rs = tile.reduce sum %x2, dim = 1 {tile.sched = #tile.sched<"Sq", stage = 1, order = 0, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %s2 = arith.addf %s, %rs {tile.sched = #tile.sched<"Sq", stage = 1, order = 0, group = 1>} : tensor<128xf32>
      scf.yield %s2 : tensor<128xf32>
    }
    %kk = arith.index_cast %K : index to i32
    %kf = arith.sitofp %kk : i32 to f32
    %ks = tensor.splat %kf : tensor<128xf32>
    %ms = arith.divf %acc, %ks : tensor<128xf32>
    %r = math.sqrt %ms : tensor<128xf32>
    tile.store %R[%m0], %r : !tile.desc<128xf32>, tensor<128xf32>
    return
  }
}
