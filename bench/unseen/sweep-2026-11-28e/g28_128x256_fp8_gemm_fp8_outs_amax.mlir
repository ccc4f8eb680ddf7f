// e4m3 GEMM, per-tensor scales (extract), row absmax 1-d, per-row quantized e4m3 and e5m2 outputs, bf16 out
module {
  func.func @g28_128x256_fp8_gemm_fp8_outs_amax(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (4)>},
      %SB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (4)>},
      %AMAX: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 256, M)>},
      %Q4: !tile.desc<128x256xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Q5: !tile.desc<128x256xf8E5M2> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x128xf8E4M3FN> -> tensor<256x128xf8E4M3FN>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x128xf8E4M3FN>, tensor<256x128xf8E4M3FN> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %sat = tile.load %SA[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
      %sbt = tile.load %SB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
      %sa = tensor.extract %sat[%c0] : tensor<4xf32>
      %sb = tensor.extract %sbt[%c0] : tensor<4xf32>
      %s = arith.mulf %sa, %sb : f32
      %ss = tensor.splat %s : tensor<128x256xf32>
      %v1 = arith.mulf %acc, %ss : tensor<128x256xf32>
      %v2 = math.absf %v1 : tensor<128x256xf32>
      %red3 = tile.reduce max %v2, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
      tile.store %AMAX[%pn, %m0], %red3 : !tile.desc<1x128xf32>, tensor<128xf32>
      %bb4 = tile.broadcast %red3, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
      %v5 = arith.divf %v1, %bb4 : tensor<128x256xf32>
      %k6 = arith.constant dense<448.0> : tensor<128x256xf32>
      %v7 = arith.mulf %v5, %k6 : tensor<128x256xf32>
      %t8 = arith.truncf %v7 : tensor<128x256xf32> to tensor<128x256xf8E4M3FN>
      tile.store %Q4[%m0, %n0], %t8 : !tile.desc<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>
      %k9 = arith.constant dense<57344.0> : tensor<128x256xf32>
      %v10 = arith.mulf %v5, %k9 : tensor<128x256xf32>
      %t11 = arith.truncf %v10 : tensor<128x256xf32> to tensor<128x256xf8E5M2>
      tile.store %Q5[%m0, %n0], %t11 : !tile.desc<128x256xf8E5M2>, tensor<128x256xf8E5M2>
      %t12 = arith.truncf %v1 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %t12 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
