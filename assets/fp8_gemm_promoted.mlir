// FP8 GEMM with promoted partial sums: C[M, N] = sa * sb * (A[M, K] * B[N, K]^T),
// e4m3 operands, an f32 result (fp8_gemm.mlir with its accumulation made exact).
//
// The H100's FP8 wgmma adds each 32-deep step's products into its accumulator
// with about 13 mantissa bits, not fp32's 23: accumulating in place over
// K = 8192, fp8_gemm.mlir's sums land about 2e-3 norm-wise from exact fp32
// ones. Here each K step of 128 is summed from zero by the wgmma (four 32-deep
// steps) and the partial sum is added to the running one by the CUDA cores in
// fp32 (Promote): CUTLASS's promotion interval of four, DeepSeek-V3's remedy,
// what cuBLASLt does without fast accumulation (this kernel's timed peer).
// It costs a second set of accumulator registers, hence the 128x128 tile (two
// consumers of 64 rows each: 64 + 64 accumulator registers a thread), and the
// adds on the CUDA cores, which run beside the other consumer's wgmma. A
// 128x256 tile promoted in two halves (fp8_gemm_promoted_split.mlir) runs
// 1.34x as fast on the H100 (bench/results/fp8-promotion-split-h100-2026-11-28).
// Steady state: MMA(i) loadA(i+2) Promote(i) loadB(i+2).
module {
  func.func @fp8_gemm_promoted(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %SB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %sat = tile.load %SA[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %sbt = tile.load %SB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %p = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      %d = arith.addf %c, %p {tile.sched = #tile.sched<"Promote", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %sa = tensor.extract %sat[%c0] : tensor<4xf32>
    %sb = tensor.extract %sbt[%c0] : tensor<4xf32>
    %s = arith.mulf %sa, %sb : f32
    %scale = tensor.splat %s : tensor<128x128xf32>
    %scaled = arith.mulf %acc, %scale : tensor<128x128xf32>
    tile.store %C[%m0, %n0], %scaled : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
