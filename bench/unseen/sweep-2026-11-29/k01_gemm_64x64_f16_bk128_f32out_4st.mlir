// GEMM with a small 64x64 tile (one consumer warp group), f16 operands, K step 128,
// a 4-stage pipeline (loads 3 iterations ahead) and an f32 output.
module {
  func.func @gemm64(
      %A: !tile.desc<64x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<64x128xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 64)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<64x64xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<64x128xf16> -> tensor<64x128xf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x128xf16> -> tensor<64x128xf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 3, order = 0, group = 1, wait = 1>}
          : tensor<64x128xf16>, tensor<64x128xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<64x64xf32>, tensor<64x64xf32>
    return
  }
}
