// MoE grouped GEMM: each program owns one 128-row block of tokens already sorted by expert; two
// i32 tables say, per row block, which expert's weights to use (EXP, in [0, E)) and where the
// block's tokens start (ROW, in [0, T - 127)); read with tensor.extract before the loop.
// Y[rows, n] = X[rows, :] W[e]^T with W stored [E * N, K].
module {
  func.func @moe(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[T, E, N, K, NB] -> (T, K)>},
      %W: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[T, E, N, K, NB] -> (E * N, K)>},
      %EXP: !tile.desc<4xi32> {tile.shape = affine_map<()[T, E, N, K, NB] -> (NB)>,
                               tile.init = affine_map<()[T, E, N, K, NB] -> (0, E)>},
      %ROW: !tile.desc<4xi32> {tile.shape = affine_map<()[T, E, N, K, NB] -> (NB)>,
                               tile.init = affine_map<()[T, E, N, K, NB] -> (0, T - 127)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[T, E, N, K, NB] -> (T, N)>},
      %T: index {tile.size = "T"}, %E: index {tile.size = "E"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"}, %NB: index {tile.size = "NB"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[T, E, N, K, NB] -> (NB, N ceildiv 128)>,
                  tile.defaults = {T = 16384 : i64, E = 8 : i64, N = 4096 : i64, K = 2048 : i64, NB = 128 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %blk = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    // TMA starts a copy at a multiple of 16 bytes: load the 4-element group holding entry blk.
    %b4 = arith.divui %blk, %c4 : index
    %base = arith.muli %b4, %c4 : index
    %off = arith.remui %blk, %c4 : index
    %et = tile.load %EXP[%base] : !tile.desc<4xi32> -> tensor<4xi32>
    %rt = tile.load %ROW[%base] : !tile.desc<4xi32> -> tensor<4xi32>
    %ei = tensor.extract %et[%off] : tensor<4xi32>
    %ri = tensor.extract %rt[%off] : tensor<4xi32>
    %e = arith.index_cast %ei : i32 to index
    %r0 = arith.index_cast %ri : i32 to index
    %eN = arith.muli %e, %N : index
    %nn = arith.muli %pn, %c128 : index
    %n0 = arith.addi %eN, %nn : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %X[%r0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %W[%n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%r0, %nn], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
