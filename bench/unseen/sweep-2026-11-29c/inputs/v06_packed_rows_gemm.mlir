// Batched GEMM over packed rows: A and C are [BT * M, ...] (the batches' rows one after another),
// C[b*M + m, n] = sum_k A[b*M + m, k] * W[n, k]. Grid (M ceildiv 128, N ceildiv 128, BT).
module {
  func.func @packed_gemm(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (BT * M, K)>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[BT, M, N, K] -> (BT * M, N)>},
      %BT: index {tile.size = "BT"}, %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BT, M, N, K] -> (M ceildiv 128, N ceildiv 128, BT)>,
                  tile.defaults = {BT = 4 : i64, M = 2048 : i64, N = 2048 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %b = tile.program_id 2 : index
    %mb = arith.muli %b, %M : index
    %mt = arith.muli %pm, %c128 : index
    %m0 = arith.addi %mb, %mt : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %w = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %w, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
