// GEMM 128x16x64 bf16 -> f8E4M3FN, M=2048 N=256 K=1024 (FP8 output, odd panel width)
module {
  func.func @g16_128x16_e4m3_out(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<16x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x16xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 16)>,
                  tile.defaults = {M = 2048 : i64, N = 256 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 64 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 16 : index
    %zero = arith.constant dense<0.0> : tensor<128x16xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<128x16xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<16x64xbf16> -> tensor<16x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<16x64xbf16> -> tensor<128x16xf32>
        scf.yield %d : tensor<128x16xf32>
    }
    %cb = arith.truncf %acc : tensor<128x16xf32> to tensor<128x16xf8E4M3FN>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x16xf8E4M3FN>, tensor<128x16xf8E4M3FN>
    return
  }
}
