// FP8 GEMM: C[M, N] = sa * sb * (A[M, K] * B[N, K]^T), e4m3 operands, f32
// accumulation through wgmma, per-tensor scales, bf16 result (B is K-major,
// like a weight matrix; FP8 wgmma reads K-major operands only).
//
// One program computes a 128x256 tile of C. A K step of 128 FP8 elements is
// one 128-byte swizzled row, so a stage of buffers is 16 + 32 KiB, as in
// gemm.mlir's bf16 K step of 64. The K loop is the pipelined loop: a producer
// warp group (group 0) streams A and B by TMA two stages ahead of the two
// consumer warp groups (group 1), which keep one wgmma group in flight.
// The per-tensor scales sa and sb (as torch._scaled_mm takes them) are
// one-element f32 tensors read once before the loop (a TMA box of 4 f32, the
// smallest one; elements past the first read as zero) and applied to the
// accumulator after it.
// Steady state: MMA(i) loadA(i+2) loadB(i+2).
module {
  func.func @fp8_gemm(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %SB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %sat = tile.load %SA[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %sbt = tile.load %SB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<256x128xf8E4M3FN> -> tensor<256x128xf8E4M3FN>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<256x128xf8E4M3FN> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %sa = tensor.extract %sat[%c0] : tensor<4xf32>
    %sb = tensor.extract %sbt[%c0] : tensor<4xf32>
    %s = arith.mulf %sa, %sb : f32
    %scale = tensor.splat %s : tensor<128x256xf32>
    %scaled = arith.mulf %acc, %scale : tensor<128x256xf32>
    %cb = arith.truncf %scaled : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
