// Y = LayerNorm_rows(A W^T) * gamma + beta with N = 256 (one CTA holds whole rows); also writes mean and rstd per row.
module {
  func.func @g09_layernorm_rows_n256(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %G: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %Bt: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %MEAN: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (M)>},
      %RSTD: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (M)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"},
      %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 16384 : i64, N = 256 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 256 : index
    %cBK = arith.constant 64 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %g = tile.load %G[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
    %be = tile.load %Bt[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %inv = arith.constant dense<0.00390625> : tensor<128xf32>
    %eps = arith.constant dense<1.0e-5> : tensor<128xf32>
    %s1 = tile.reduce sum %acc, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
    %mean = arith.mulf %s1, %inv : tensor<128xf32>
    %mb = tile.broadcast %mean, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
    %xc = arith.subf %acc, %mb : tensor<128x256xf32>
    %sq = arith.mulf %xc, %xc : tensor<128x256xf32>
    %s2 = tile.reduce sum %sq, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
    %var = arith.mulf %s2, %inv : tensor<128xf32>
    %ve = arith.addf %var, %eps : tensor<128xf32>
    %rstd = math.rsqrt %ve : tensor<128xf32>
    %rb = tile.broadcast %rstd, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
    %xn = arith.mulf %xc, %rb : tensor<128x256xf32>
    %gb = tile.broadcast %g, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
    %bb = tile.broadcast %be, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
    %y0 = arith.mulf %xn, %gb : tensor<128x256xf32>
    %y = arith.addf %y0, %bb : tensor<128x256xf32>
    %cb = arith.truncf %y : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    tile.store %MEAN[%m0], %mean : !tile.desc<128xf32>, tensor<128xf32>
    tile.store %RSTD[%m0], %rstd : !tile.desc<128xf32>, tensor<128xf32>
    return
  }
}
