// GEMM 192x128x64 bf16 -> bf16, M=3000 N=2000 K=1000 
module {
  func.func @g05_192x128_ktail(
      %A: !tile.desc<192x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<192x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 192, N ceildiv 128)>,
                  tile.defaults = {M = 3000 : i64, N = 2000 : i64, K = 1000 : i64},
                  tile.warpgroups = array<i64: 1, 3>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 64 : index
    %cBM = arith.constant 192 : index
    %cBN = arith.constant 128 : index
    %zero = arith.constant dense<0.0> : tensor<192x128xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<192x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<192x64xbf16> -> tensor<192x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<192x64xbf16>, tensor<128x64xbf16> -> tensor<192x128xf32>
        scf.yield %d : tensor<192x128xf32>
    }
    %cb = arith.truncf %acc : tensor<192x128xf32> to tensor<192x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<192x128xbf16>, tensor<192x128xbf16>
    return
  }
}
