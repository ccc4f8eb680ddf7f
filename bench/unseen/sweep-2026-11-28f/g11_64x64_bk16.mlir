// GEMM 64x64x16 bf16 -> bf16, M=500 N=500 K=500 
module {
  func.func @g11_64x64_bk16(
      %A: !tile.desc<64x16xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<64x16xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 64)>,
                  tile.defaults = {M = 500 : i64, N = 500 : i64, K = 500 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 16 : index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 64 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<64x64xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<64x16xbf16>, tensor<64x16xbf16> -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
    }
    %cb = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
    return
  }
}
