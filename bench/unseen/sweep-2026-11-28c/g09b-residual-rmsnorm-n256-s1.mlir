// Y = RMSNorm(A W^T + R) * gamma with N = 256 (one CTA holds whole rows); also writes the new residual A W^T + R
module {
  func.func @g09_residual_rmsnorm_n256(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %G: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Rout: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 256 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBK = arith.constant 64 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cBM : index
    %n0 = arith.muli %pn, %cBN : index
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %acc = scf.for %k = %c0 to %K step %cBK iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %r = tile.load %R[%m0, %n0] : !tile.desc<128x256xbf16> -> tensor<128x256xbf16>
    %rf = arith.extf %r : tensor<128x256xbf16> to tensor<128x256xf32>
    %y = arith.addf %acc, %rf : tensor<128x256xf32>
    %y2 = arith.mulf %y, %y : tensor<128x256xf32>
    %ss = tile.reduce sum %y2, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
    %invn = arith.constant dense<0.00390625> : tensor<128xf32>
    %eps = arith.constant dense<1.0e-6> : tensor<128xf32>
    %ms = arith.mulf %ss, %invn : tensor<128xf32>
    %ms2 = arith.addf %ms, %eps : tensor<128xf32>
    %rs = math.rsqrt %ms2 : tensor<128xf32>
    %rsb = tile.broadcast %rs, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
    %g = tile.load %G[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
    %gb = tile.broadcast %g, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
    %yn = arith.mulf %y, %rsb : tensor<128x256xf32>
    %yo = arith.mulf %yn, %gb : tensor<128x256xf32>
    %cb = arith.truncf %yo : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    %yb = arith.truncf %y : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %Rout[%m0, %n0], %yb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
