// Epilogue: a bias computed from the column index (iota * 1e-3) and rows >= M zeroed with an iota compare against the size M (index_cast, splat); M = 1000
module {
  func.func @x15_iota_colbias_rowmask(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 1000 : i64, N = 2048 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 64 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %ri = tile.iota %m0, dim = 0 : tensor<128x128xi32>
    %ci = tile.iota %n0, dim = 1 : tensor<128x128xi32>
    %Mi = arith.index_cast %M : index to i32
    %Mt = tensor.splat %Mi : tensor<128x128xi32>
    %inb = arith.cmpi slt, %ri, %Mt : tensor<128x128xi32>
    %cf = arith.sitofp %ci : tensor<128x128xi32> to tensor<128x128xf32>
    %eps = arith.constant dense<0.001> : tensor<128x128xf32>
    %cb0 = arith.mulf %cf, %eps : tensor<128x128xf32>
    %x = arith.addf %acc, %cb0 : tensor<128x128xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %y = arith.select %inb, %x, %z : tensor<128x128xi1>, tensor<128x128xf32>
    %cb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
