// FP8 GEMM with promoted partial sums on a 128x256 tile, written as two 128x128
// halves: C = sa * sb * (A * B^T), e4m3, f32 output.
//
// fp8_gemm_promoted.mlir promotes a 128x128 tile: a 128x256 one there
// needs a second 64x256 accumulator a consumer thread, 288 registers over its
// 240. Here each half has its own running sum and its own K step's dot, and
// the halves take turns: MMA0 sums the left half's step from zero, Promote0
// adds it to the left running sum on the CUDA cores, then MMA1 and Promote1
// for the right half, so one 64x128 partial sum a consumer is live at a time
// (192 accumulator registers) and the two consumers' MMAs fill the tensor
// cores while the other one adds. Its peer is cuBLASLt's FP8 matmul with
// accurate accumulation (B's block and C's picked by the same coordinate make
// it one GEMM). On the H100 at 8192^3: 1243 TFLOP/s, 0.87x that peer, sums
// 1.0e-4 from exact where accumulating in place lands 1.9e-3
// (bench/results/fp8-promotion-split-h100-2026-11-28).
// Steady state: MMA0(i) Promote0(i) MMA1(i) Promote1(i) loadA(i+2) loadB0(i+2) loadB1(i+2).
module {
  func.func @fp8_gemm_promoted_split(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %SB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %c256 = arith.constant 256 : index
    %n0 = arith.muli %pn, %c256 : index
    %n1 = arith.addi %n0, %c128 : index
    %sat = tile.load %SA[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %sbt = tile.load %SB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc:2 = scf.for %k = %c0 to %K step %c128 iter_args(%c0s = %zero, %c1s = %zero) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 4, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %b0 = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB0", stage = 0, order = 5, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %b1 = tile.load %B[%n1, %k] {tile.sched = #tile.sched<"loadB1", stage = 0, order = 6, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %p0 = tile.dot %a, %b0, %zero {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 2, order = 0, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      %d0 = arith.addf %c0s, %p0 {tile.sched = #tile.sched<"Promote0", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %p1 = tile.dot %a, %b1, %zero {transpose_b, tile.sched = #tile.sched<"MMA1", stage = 2, order = 2, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      %d1 = arith.addf %c1s, %p1 {tile.sched = #tile.sched<"Promote1", stage = 2, order = 3, group = 1>} : tensor<128x128xf32>
      scf.yield %d0, %d1 : tensor<128x128xf32>, tensor<128x128xf32>
    }
    %sa = tensor.extract %sat[%c0] : tensor<4xf32>
    %sb = tensor.extract %sbt[%c0] : tensor<4xf32>
    %s = arith.mulf %sa, %sb : f32
    %scale = tensor.splat %s : tensor<128x128xf32>
    %o0 = arith.mulf %acc#0, %scale : tensor<128x128xf32>
    %o1 = arith.mulf %acc#1, %scale : tensor<128x128xf32>
    tile.store %C[%m0, %n0], %o0 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    tile.store %C[%m0, %n1], %o1 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
