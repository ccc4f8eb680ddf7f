// Batched GEMM over a flattened [BT*M, K] view: row coordinate b*M + m0. At BT = 3, M = 2^30
// the coordinate passes 2^31 (TMA coordinates are signed 32-bit); the tensors are huge but
// nothing is run here: does the compiler refuse, or wrap silently?
module {
  func.func @flat(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (BT * M, K)>},
      %B: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (N, K)>},
      %C: !tile.desc<128x64xf32> {tile.shape = affine_map<()[BT, M, N, K] -> (BT * M, N)>},
      %BT: index {tile.size = "BT"}, %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BT, M, N, K] -> (M ceildiv 128, N ceildiv 64, BT)>,
                  tile.defaults = {BT = 4 : i64, M = 4096 : i64, N = 64 : i64, K = 64 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %b = tile.program_id 2 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c64 : index
    %bm = arith.muli %b, %M : index
    %r0 = arith.addi %bm, %m0 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x64xf32>) {
      %a = tile.load %A[%r0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %w = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %a, %w, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      scf.yield %d : tensor<128x64xf32>
    }
    tile.store %C[%r0, %n0], %acc : !tile.desc<128x64xf32>, tensor<128x64xf32>
    return
  }
}
