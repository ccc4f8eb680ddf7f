// Zero-point correction: the loaded A tile feeds the dot (shared memory) AND a row sum in registers in the same loop; C = A B^T - rowsum(A) zp[N]
module {
  func.func @y06_dot_and_rowsum(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %ZP: !tile.desc<256xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %zr = arith.constant dense<0.0> : tensor<128xf32>
    %acc:2 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero, %rs = %zr) -> (tensor<128x256xf32>, tensor<128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
      %af = arith.extf %a {tile.sched = #tile.sched<"RowSum", stage = 2, order = 1, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %r = tile.reduce sum %af, dim = 1 {tile.sched = #tile.sched<"RowSum", stage = 2, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %rs2 = arith.addf %rs, %r {tile.sched = #tile.sched<"RowSum", stage = 2, order = 1, group = 1>} : tensor<128xf32>
      scf.yield %d, %rs2 : tensor<128x256xf32>, tensor<128xf32>
    }
    %zp = tile.load %ZP[%n0] : !tile.desc<256xf32> -> tensor<256xf32>
    %zpb = tile.broadcast %zp, dim = 0 : tensor<256xf32> -> tensor<128x256xf32>
    %rsb = tile.broadcast %acc#1, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
    %corr = arith.mulf %zpb, %rsb : tensor<128x256xf32>
    %y = arith.subf %acc#0, %corr : tensor<128x256xf32>
    %cb = arith.truncf %y : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
