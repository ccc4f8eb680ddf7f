// Persistent GEMM, 192x128 tiles on 3 consumer warp groups, bias per column, f16 in/out.
module {
  func.func @p01(
      %A: !tile.desc<192x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Bias: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<192x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 6144 : i64, N = 6144 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 3>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c192 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<192x128xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c192 : index
      %n0 = arith.muli %tn, %c128 : index
      %bias = tile.load %Bias[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<192x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<192x64xf16> -> tensor<192x64xf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<128x64xf16> -> tensor<128x64xf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<192x64xf16>, tensor<128x64xf16> -> tensor<192x128xf32>
        scf.yield %d : tensor<192x128xf32>
      }
      %bb = tile.broadcast %bias, dim = 0 : tensor<128xf32> -> tensor<192x128xf32>
      %x = arith.addf %acc, %bb : tensor<192x128xf32>
      %cb = arith.truncf %x : tensor<192x128xf32> to tensor<192x128xf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<192x128xf16>, tensor<192x128xf16>
    }
    return
  }
}
