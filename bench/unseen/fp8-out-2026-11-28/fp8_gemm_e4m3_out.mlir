// An FP8 GEMM with an FP8 output: C = e4m3(sa * sb * (A B^T) / sc), e4m3 operands and result,
// per-tensor scales (torch._scaled_mm with scale_result), 128x256 tiles: the output rows are
// 256 bytes, two 128-byte swizzled panels of the staging tile.
module {
  func.func @fp8_gemm_e4m3_out(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %SB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %SC: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (1)>},
      %C: !tile.desc<128x256xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
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
    %sct = tile.load %SC[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
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
    %sc = tensor.extract %sct[%c0] : tensor<4xf32>
    %sab = arith.mulf %sa, %sb : f32
    %s = arith.divf %sab, %sc : f32
    %scale = tensor.splat %s : tensor<128x256xf32>
    %scaled = arith.mulf %acc, %scale : tensor<128x256xf32>
    %cb = arith.truncf %scaled : tensor<128x256xf32> to tensor<128x256xf8E4M3FN>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>
    return
  }
}
