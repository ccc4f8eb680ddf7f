// A GEMM over the K range [K0, K) (a split-K slice whose start is a size), plus a bias loaded
// after the loop and added. K0 is an offset (0 allowed); at K0 >= K the loop has no trips and
// the output is the bias alone (A and B never read).
module {
  func.func @krange(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, K0] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, K0] -> (N, K)>},
      %BI: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K, K0] -> (M, N)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K, K0] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"},
      %K0: index {tile.size = "K0"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K, K0] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64, K0 = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %K0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %bias = tile.load %BI[%m0, %n0] : !tile.desc<128x128xf32> -> tensor<128x128xf32>
    %o = arith.addf %acc, %bias : tensor<128x128xf32>
    tile.store %C[%m0, %n0], %o : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
