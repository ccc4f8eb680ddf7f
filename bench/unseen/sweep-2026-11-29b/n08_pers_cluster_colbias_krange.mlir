// Persistent GEMM in clusters (tile.cluster_size math, so any C), 128x128 tiles, a K range
// [K0, K1) given by sizes, a per-column f32 bias loaded in the tile loop (the same box in every
// CTA of a cluster), f16 output. Run with cluster 1/2/4 and consumers cooperative/staggered/pingpong.
module {
  func.func @pcl(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, K0, K1] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, K0, K1] -> (N, K)>},
      %Bias: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K, K0, K1] -> (N)>},
      %C: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K, K0, K1] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"},
      %K0: index {tile.size = "K0"}, %K1: index {tile.size = "K1"})
      attributes {tile.kernel, tile.cluster = 2,
                  tile.grid = affine_map<()[M, N, K, K0, K1] -> (132)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64, K0 = 512 : i64, K1 = 3584 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %rank = tile.cluster_rank : index
    %cid = tile.cluster_id : index
    %ncl = tile.num_clusters : index
    %csize = tile.cluster_size : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %super_m = arith.ceildivui %tiles_m, %csize : index
    %supers = arith.muli %super_m, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    scf.for %t = %cid to %supers step %ncl {
      %sm = arith.remui %t, %super_m : index
      %tn = arith.divui %t, %super_m : index
      %sm_rows = arith.muli %sm, %csize : index
      %tm = arith.addi %sm_rows, %rank : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %bias = tile.load %Bias[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
      %acc = scf.for %k = %K0 to %K1 step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %bb = tile.broadcast %bias, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
      %y = arith.addf %acc, %bb : tensor<128x128xf32>
      %cb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xf16>, tensor<128x128xf16>
    }
    return
  }
}
