// a per-K-block scale table (64 entries) read by tensor.extract in the loop and after it, plus a residual
module {
  func.func @e18_128x128_kscale_extract_in_and_after(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %KS: !tile.desc<64xf32> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 64)>},
      %R: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
      %kst = tile.load %KS[%c0] : !tile.desc<64xf32> -> tensor<64xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %kb = arith.divui %k, %c64 : index
        %ksc = tensor.extract %kst[%kb] : tensor<64xf32>
        %kss = tensor.splat %ksc {tile.sched = #tile.sched<"Scale", stage = 2, order = 3, group = 1>} : tensor<128x128xf32>
        %p = tile.dot %a, %b, %zero {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        %ps = arith.mulf %p, %kss {tile.sched = #tile.sched<"Scale", stage = 2, order = 3, group = 1>} : tensor<128x128xf32>
        %d2 = arith.addf %c, %ps {tile.sched = #tile.sched<"Scale", stage = 2, order = 3, group = 1>} : tensor<128x128xf32>
        scf.yield %d2 : tensor<128x128xf32>
      }
      %k0s = tensor.extract %kst[%c0] : tensor<64xf32>
      %k0b = tensor.splat %k0s : tensor<128x128xf32>
      %r1 = tile.load %R[%m0, %n0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %e2 = arith.extf %r1 : tensor<128x128xbf16> to tensor<128x128xf32>
      %v3 = arith.mulf %acc, %k0b : tensor<128x128xf32>
      %v4 = arith.addf %v3, %e2 : tensor<128x128xf32>
      %t5 = arith.truncf %v4 : tensor<128x128xf32> to tensor<128x128xbf16>
      tile.store %C[%m0, %n0], %t5 : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
