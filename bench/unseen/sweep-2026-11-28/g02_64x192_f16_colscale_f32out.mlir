// C[M,N] = (A B^T) * s[N], f16 operands, f32 output; 64x192 tile, one consumer.
module {
  func.func @g02(
      %A: !tile.desc<64x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<192x64xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %S: !tile.desc<192xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<64x192xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 192)>,
                  tile.defaults = {M = 4096 : i64, N = 3072 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c192 = arith.constant 192 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c192 : index
    %zero = arith.constant dense<0.0> : tensor<64x192xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<64x192xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<64x64xf16> -> tensor<64x64xf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<192x64xf16> -> tensor<192x64xf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 3, order = 0, group = 1, wait = 1>}
          : tensor<64x64xf16>, tensor<192x64xf16> -> tensor<64x192xf32>
      scf.yield %d : tensor<64x192xf32>
    }
    %s = tile.load %S[%n0] : !tile.desc<192xf32> -> tensor<192xf32>
    %sb = tile.broadcast %s, dim = 0 : tensor<192xf32> -> tensor<64x192xf32>
    %o = arith.mulf %acc, %sb : tensor<64x192xf32>
    tile.store %C[%m0, %n0], %o : !tile.desc<64x192xf32>, tensor<64x192xf32>
    return
  }
}
