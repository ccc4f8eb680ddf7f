// Chunked linear attention (no softmax, no intra-chunk term), written in the transposed form the
// dialect allows: the state is carried as S^T [dv x dk] in f32 registers, the chunk's output is
// O_j^T = S^T_{j-1} Q_j^T (the state as a register A, Q as a K-major B), then S^T += V_j^T K_j
// (V as an M-major shared-memory A with transpose_a, K as an N-major B). Output: O^T per chunk
// (a store in the loop, Ot is [BH, DV, T]) and the final state (f32, after the loop).
module {
  func.func @linattn(
      %Q: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %int64_t: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %V: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %Ot: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, 128, T)>},
      %Sf: !tile.desc<1x128x128xf32> {tile.shape = affine_map<()[BH, T] -> (BH, 128, 128)>},
      %BH: index {tile.size = "BH"}, %T: index {tile.size = "T"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[BH, T] -> (BH)>,
                  tile.defaults = {BH = 64 : i64, T = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %bh = tile.program_id 0 : index
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %zo = arith.constant dense<0.0> : tensor<128x64xf32>
    %st = scf.for %j = %c0 to %T step %c64 iter_args(%s = %z) -> (tensor<128x128xf32>) {
      %q = tile.load %Q[%bh, %j, %c0] {tile.sched = #tile.sched<"loadQ", stage = 0, order = 3, group = 0>} : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %k = tile.load %int64_t[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %sb = arith.truncf %s {tile.sched = #tile.sched<"cvtS", stage = 1, order = 0, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %ot = tile.dot %sb, %q, %zo {transpose_b, tile.sched = #tile.sched<"MMA_O", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
      %otb = arith.truncf %ot {tile.sched = #tile.sched<"storeO", stage = 1, order = 2, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      tile.store %Ot[%bh, %c0, %j], %otb {tile.sched = #tile.sched<"storeO", stage = 1, order = 2, group = 1>} : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
      %s2 = tile.dot %v, %k, %s {transpose_a, tile.sched = #tile.sched<"MMA_S", stage = 1, order = 6, group = 1>} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %s2 : tensor<128x128xf32>
    }
    tile.store %Sf[%bh, %c0, %c0], %st : !tile.desc<1x128x128xf32>, tensor<128x128xf32>
    return
  }
}
