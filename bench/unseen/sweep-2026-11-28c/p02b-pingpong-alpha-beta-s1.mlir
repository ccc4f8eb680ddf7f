// Ping-pong persistent GEMM, C = alpha A B^T + beta Cin (scalars from a parameter tensor, Cin loaded per tile after the K loop)
module {
  func.func @p02b_pingpong_alpha_beta_s1(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %AB: !tile.desc<4xf32> {tile.shape = affine_map<()[M, N, K] -> (2)>},
      %Cin: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
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
    %c1 = arith.constant 1 : index
    %abt = tile.load %AB[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %al = tensor.extract %abt[%c0] : tensor<4xf32>
    %be = tensor.extract %abt[%c1] : tensor<4xf32>
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
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1, wait = 1>}
            : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %alt = tensor.splat %al : tensor<128x128xf32>
      %bet = tensor.splat %be : tensor<128x128xf32>
      %cin = tile.load %Cin[%m0, %n0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %cinf = arith.extf %cin : tensor<128x128xbf16> to tensor<128x128xf32>
      %x1 = arith.mulf %acc, %alt : tensor<128x128xf32>
      %x2 = arith.mulf %cinf, %bet : tensor<128x128xf32>
      %x = arith.addf %x1, %x2 : tensor<128x128xf32>
      %cb = arith.truncf %x : tensor<128x128xf32> to tensor<128x128xbf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }
    return
  }
}
