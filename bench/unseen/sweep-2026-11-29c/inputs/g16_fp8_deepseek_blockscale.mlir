// DeepSeek-V3-style FP8 GEMM: e4m3 A with 1x128 activation scales SA [K/128, M] (one per row and K block, loaded in
// the loop as a row vector), e4m3 B with 128x128 weight-block scales SB [N/128, K/128] (this CTA's row of the table
// loaded once, read per K block with tensor.extract); each K block's dot starts from zero and is promoted:
// acc += dot * (sa[m] * sb[kb]). f32 accumulation in registers, bf16 output.
module {
  func.func @g16_fp8_deepseek_blockscale(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SA: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 128, M)>},
      %SB: !tile.desc<1x64xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, K ceildiv 128)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 7168 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %sbt = tile.load %SB[%pn, %c0] : !tile.desc<1x64xf32> -> tensor<64xf32>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %kb = arith.divui %k, %c128 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %sa = tile.load %SA[%kb, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x128xf32> -> tensor<128xf32>
      %p = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      %sbk = tensor.extract %sbt[%kb] : tensor<64xf32>
      %sbs = tensor.splat %sbk {tile.sched = #tile.sched<"Promote", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      %s = arith.mulf %sa, %sbs {tile.sched = #tile.sched<"Promote", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      %sbc = tile.broadcast %s, dim = 1 {tile.sched = #tile.sched<"Promote", stage = 2, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %ps = arith.mulf %p, %sbc {tile.sched = #tile.sched<"Promote", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      %d = arith.addf %c, %ps {tile.sched = #tile.sched<"Promote", stage = 2, order = 1, group = 1>} : tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
