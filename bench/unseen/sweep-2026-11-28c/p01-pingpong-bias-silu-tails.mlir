// Ping-pong persistent GEMM with a per-column bias and SiLU epilogue, f16 output, M = 6000, N = 5000 (tails)
module {
  func.func @p01_pingpong_bias_silu_f16(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Bias: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 6000 : i64, N = 5000 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>,
                  tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %in_group = arith.muli %c8, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %group = arith.divui %t, %in_group : index
      %first_m = arith.muli %group, %c8 : index
      %left_m = arith.subi %tiles_m, %first_m : index
      %group_m = arith.minui %left_m, %c8 : index
      %t_in = arith.remui %t, %in_group : index
      %dm = arith.remui %t_in, %group_m : index
      %tm = arith.addi %first_m, %dm : index
      %tn = arith.divui %t_in, %group_m : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %bias = tile.load %Bias[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
      %bb = tile.broadcast %bias, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
      %x = arith.addf %acc, %bb : tensor<128x128xf32>
      %one = arith.constant dense<1.0> : tensor<128x128xf32>
      %nx = arith.negf %x : tensor<128x128xf32>
      %e = math.exp %nx : tensor<128x128xf32>
      %den = arith.addf %e, %one : tensor<128x128xf32>
      %y = arith.divf %x, %den : tensor<128x128xf32>
      %cb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xf16>, tensor<128x128xf16>
    }
    return
  }
}
