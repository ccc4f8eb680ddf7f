// Skinny GEMM: 64x8 output tile (wgmma N = 8), N = 8, one consumer warp group, f32 out
module {
  func.func @x13_64x8_skinny(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<8x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x8xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 8)>,
                  tile.defaults = {M = 65536 : i64, N = 8 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 64 : index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 8 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %zero = arith.constant dense<0.0> : tensor<64x8xf32>
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<64x8xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<8x64xbf16> -> tensor<8x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<64x64xbf16>, tensor<8x64xbf16> -> tensor<64x8xf32>
      scf.yield %d : tensor<64x8xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<64x8xf32>, tensor<64x8xf32>
    return
  }
}
