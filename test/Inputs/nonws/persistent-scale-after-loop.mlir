// persistent 128x128: column scale, f16 out and row-sum vector out (written at [tn, m0]); K tail
module {
  func.func @p06_pers_rowsum_ktail(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SC: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %RS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 2048 : i64, N = 1536 : i64, K = 1000 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
          %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
          %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
          %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %s1 = tile.load %SC[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
        %b2 = tile.broadcast %s1, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
        %v3 = arith.mulf %acc, %b2 : tensor<128x128xf32>
        %t4 = arith.truncf %v3 : tensor<128x128xf32> to tensor<128x128xf16>
        tile.store %C[%m0, %n0], %t4 : !tile.desc<128x128xf16>, tensor<128x128xf16>
        %red5 = tile.reduce sum %v3, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
        tile.store %RS[%tn, %m0], %red5 : !tile.desc<1x128xf32>, tensor<128xf32>
    }
    return
  }
}
