// Persistent ping-pong GEMM (128x128 tiles, f16 operands and output) launched in clusters of 2:
// the clusters walk super-tiles of csize tile rows x 1 tile column in column-major order, the
// CTA of rank r takes row r of the super-tile, so both CTAs read the same B box (shared by
// multicast). Ping-pong: each consumer warp group owns every other tile of the CTA's tile loop.
module {
  func.func @pp_cluster(
      %A: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.cluster = 2,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>, tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %rank = tile.cluster_rank : index
    %cid = tile.cluster_id : index
    %ncl = tile.num_clusters : index
    %cs = tile.cluster_size : index
    %tm_n = arith.ceildivui %M, %c128 : index
    %tn_n = arith.ceildivui %N, %c128 : index
    %sup_m = arith.ceildivui %tm_n, %cs : index
    %supers = arith.muli %sup_m, %tn_n : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    scf.for %t = %cid to %supers step %ncl {
      %sm = arith.remui %t, %sup_m : index
      %tn = arith.divui %t, %sup_m : index
      %smr = arith.muli %sm, %cs : index
      %tm = arith.addi %smr, %rank : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<128x64xf16> -> tensor<128x64xf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<128x64xf16> -> tensor<128x64xf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<128x64xf16>, tensor<128x64xf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xf16>, tensor<128x128xf16>
    }
    return
  }
}
