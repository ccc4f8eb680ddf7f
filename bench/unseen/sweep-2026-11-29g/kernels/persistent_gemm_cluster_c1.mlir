// Persistent GEMM in clusters of two CTAs that share B: C[M, N] = A[M, K] * B[N, K]^T,
// bf16 operands, f32 accumulation, bf16 result.
//
// `tile.cluster = 2`: CTAs 2c and 2c+1 form cluster c. The clusters walk 256x256 output
// super-tiles (two 128x256 tiles, one above the other) in the grouped order of
// persistent_gemm_grouped.mlir; the CTA of rank r computes the super-tile's tile row r.
// Both CTAs of a cluster read the same 256x64 box of B in every iteration (its coordinates
// do not depend on tile.cluster_rank), so the compiler shares it: each CTA loads 128 of its
// rows and multicasts them into both CTAs' shared memory (TMA .multicast::cluster), and a
// buffer is freed once the consumers of both CTAs are done with it. B's L2 traffic halves.
// Written with tile.cluster_size, the same IR serves tile.cluster = 1 (no sharing).
// Steady state: MMA(i) loadA(i+2) loadB(i+2).
module {
  func.func @persistent_gemm_cluster(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %rank = tile.cluster_rank : index
    %cid = tile.cluster_id : index
    %ncl = tile.num_clusters : index
    %csize = tile.cluster_size : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c256 : index
    // Super-tile rows (csize tile rows each), grouped 8 tile rows at a time.
    %super_m = arith.ceildivui %tiles_m, %csize : index
    %group_rows = arith.ceildivui %c8, %csize : index
    %supers = arith.muli %super_m, %tiles_n : index
    %in_group = arith.muli %group_rows, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    scf.for %t = %cid to %supers step %ncl {
      %group = arith.divui %t, %in_group : index
      %first = arith.muli %group, %group_rows : index
      %left = arith.subi %super_m, %first : index
      %group_m = arith.minui %left, %group_rows : index
      %t_in = arith.remui %t, %in_group : index
      %dm = arith.remui %t_in, %group_m : index
      %sm = arith.addi %first, %dm : index
      %tn = arith.divui %t_in, %group_m : index
      // This CTA's tile row of the super-tile (past the last row when tiles_m is odd: its
      // loads read zeros and its store writes nothing).
      %sm_rows = arith.muli %sm, %csize : index
      %tm = arith.addi %sm_rows, %rank : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c256 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    }
    return
  }
}
