// GEMM 64x128x32 f16 A M-major (transpose_a) -> bf16, M=64 N=4096 K=4096 
module {
  func.func @g08_64x128_bk32_ta_f16(
      %A: !tile.desc<32x64xf16> {tile.shape = affine_map<()[M, N, K] -> (K, M)>},
      %B: !tile.desc<128x32xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 128)>,
                  tile.defaults = {M = 64 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 32 : index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 128 : index
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<64x128xf32>) {
        %a = tile.load %A[%k, %m0] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<32x64xf16> -> tensor<32x64xf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x32xf16> -> tensor<128x32xf16>
        %d = tile.dot %a, %b, %c {transpose_a, transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<32x64xf16>, tensor<128x32xf16> -> tensor<64x128xf32>
        scf.yield %d : tensor<64x128xf32>
    }
    %cb = arith.truncf %acc : tensor<64x128xf32> to tensor<64x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<64x128xbf16>, tensor<64x128xbf16>
    return
  }
}
