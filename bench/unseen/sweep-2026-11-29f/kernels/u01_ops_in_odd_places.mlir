// Ops in positions the examples do not show, in one GEMM (C = A' B^T over K, 128x128 tiles):
//  - in the loop, a 1-d tile.iota over the K columns (offset k) -> sitofp -> math.sin, broadcast along the
//    rows (dim = 0) to modulate A's columns;
//  - in the loop, an i32 1-d tile loaded per K step (flag bits per row and K block) -> math.ctpop -> sitofp,
//    broadcast along the columns (dim = 1) as row weights; A' = bf16(A * rowweights * colmod) as register A;
//  - after the loop, tile.mask {causal} on the GEMM accumulator (a lower-triangular C), the -inf entries
//    replaced through arith.cmpf/select, then arith.remf by 3 and math.fma;
//  - tile.cluster_rank / cluster_size in the index math of a kernel without tile.cluster (0 and 1).
module {
  func.func @odd(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %F: !tile.desc<1x128xi32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 64, M)>, tile.init = array<f64: 0.0, 256.0>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 1024 : i64, N = 1024 : i64, K = 1000 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %rank = tile.cluster_rank : index
    %csz = tile.cluster_size : index
    %pm0 = tile.program_id 0 : index
    %pm1 = arith.muli %pm0, %csz : index
    %pm = arith.addi %pm1, %rank : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %w = arith.constant dense<0.01> : tensor<64xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %z) -> (tensor<128x128xf32>) {
      %kb = arith.divui %k, %c64 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %f = tile.load %F[%kb, %m0] {tile.sched = #tile.sched<"loadF", stage = 0, order = 2, group = 0>} : !tile.desc<1x128xi32> -> tensor<128xi32>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %io = tile.iota %k, dim = 0 {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<64xi32>
      %iof = arith.sitofp %io {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<64xi32> to tensor<64xf32>
      %arg = arith.mulf %iof, %w {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<64xf32>
      %cm = math.sin %arg {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<64xf32>
      %cmb = tile.broadcast %cm, dim = 0 {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<64xf32> -> tensor<128x64xf32>
      %pc = math.ctpop %f {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128xi32>
      %pcf = arith.sitofp %pc {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128xi32> to tensor<128xf32>
      %rwb = tile.broadcast %pcf, dim = 1 {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %af = arith.extf %a {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %a1 = arith.mulf %af, %rwb {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %a2 = arith.mulf %a1, %cmb {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %ab = arith.truncf %a2 {tile.sched = #tile.sched<"prolog", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %d = tile.dot %ab, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %msk = tile.mask %acc, %m0, %n0, %N {causal} : tensor<128x128xf32>
    %ninf = arith.constant dense<0xFF800000> : tensor<128x128xf32>
    %zf = arith.constant dense<0.0> : tensor<128x128xf32>
    %isn = arith.cmpf oeq, %msk, %ninf : tensor<128x128xf32>
    %tri = arith.select %isn, %zf, %msk : tensor<128x128xi1>, tensor<128x128xf32>
    %three = arith.constant dense<3.0> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %r = arith.remf %tri, %three : tensor<128x128xf32>
    %o = math.fma %r, %half, %tri : tensor<128x128xf32>
    tile.store %C[%m0, %n0], %o : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
