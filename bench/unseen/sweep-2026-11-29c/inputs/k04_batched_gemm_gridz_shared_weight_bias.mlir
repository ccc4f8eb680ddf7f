// Batched GEMM Y[b] = X[b] W^T + bias[b]: the batch is grid dimension 2, N tiles are grid
// dimension 0 (program_id 0 walks N, 1 walks M); W is shared by every batch; the bias is one f32
// row of N values per batch, loaded before the loop and broadcast over the rows.
module {
  func.func @bgemm(
      %X: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (BT, M, K)>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (N, K)>},
      %Bias: !tile.desc<1x128xf32> {tile.shape = affine_map<()[BT, M, N, K] -> (BT, N)>},
      %Y: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (BT, M, N)>},
      %BT: index {tile.size = "BT"}, %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BT, M, N, K] -> (N ceildiv 128, M ceildiv 128, BT)>,
                  tile.defaults = {BT = 8 : i64, M = 2048 : i64, N = 2048 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pn = tile.program_id 0 : index
    %pm = tile.program_id 1 : index
    %b = tile.program_id 2 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %bias = tile.load %Bias[%b, %n0] : !tile.desc<1x128xf32> -> tensor<128xf32>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %x = tile.load %X[%b, %m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %w = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %x, %w, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %bb = tile.broadcast %bias, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    %yb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%b, %m0, %n0], %yb : !tile.desc<1x128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
