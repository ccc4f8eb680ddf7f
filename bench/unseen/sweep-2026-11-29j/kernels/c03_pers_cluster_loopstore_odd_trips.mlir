// Persistent, clusters of 2, a store in the pipelined loop: each CTA owns a 128-row block of X
// (its cluster's rows 256c + 128 rank); the loop walks W's 128-row column blocks (shared by the
// cluster: W's coordinate is the loop index only), stores Y[m0, j] = bf16(X W_j^T) in the loop
// and carries the running row maximum (read by the max and by the rescale), stored after the
// loop with the row sums of the last block: three outputs, one stored in the loop.
// At N = 384 each tile runs 3 iterations (odd), so the loop store's two staging slots do not
// pair up across tiles.
module {
  func.func @c03(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N] -> (M, 64)>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N] -> (N, 64)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N] -> (M, N)>},
      %RM: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N] -> (M)>},
      %RL: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N] -> (M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.cluster = 2,
                  tile.grid = affine_map<()[M, N] -> (132)>,
                  tile.defaults = {M = 65536 : i64, N = 384 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %rank = tile.cluster_rank : index
    %cid = tile.cluster_id : index
    %ncl = tile.num_clusters : index
    %csize = tile.cluster_size : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %supers = arith.ceildivui %tiles_m, %csize : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %ninf = arith.constant dense<-1.0e30> : tensor<128xf32>
    %zv = arith.constant dense<0.0> : tensor<128xf32>
    scf.for %t = %cid to %supers step %ncl {
      %sr = arith.muli %t, %csize : index
      %tm = arith.addi %sr, %rank : index
      %m0 = arith.muli %tm, %c128 : index
      %x = tile.load %X[%m0, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %res:2 = scf.for %j = %c0 to %N step %c128 iter_args(%m = %ninf, %l = %zv) -> (tensor<128xf32>, tensor<128xf32>) {
        %w = tile.load %W[%j, %c0] {tile.sched = #tile.sched<"loadW", stage = 0, order = 5, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %s = tile.dot %x, %w, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        %mx = tile.reduce max %s, dim = 1 {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %al = math.exp %dm {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %la = arith.mulf %l, %al {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %rs = tile.reduce sum %s, dim = 1 {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %ln = arith.addf %la, %rs {tile.sched = #tile.sched<"Stat", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %yb = arith.truncf %s {tile.sched = #tile.sched<"StoreY", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
        tile.store %Y[%m0, %j], %yb {tile.sched = #tile.sched<"StoreY", stage = 1, order = 2, group = 1>} : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
        scf.yield %mn, %ln : tensor<128xf32>, tensor<128xf32>
      }
      tile.store %RM[%m0], %res#0 : !tile.desc<128xf32>, tensor<128xf32>
      tile.store %RL[%m0], %res#1 : !tile.desc<128xf32>, tensor<128xf32>
    }
    return
  }
}
