// Ping-pong persistent GEMM with 128x64 output tiles, K step 128 (two 128-byte panels per row), f16 operands,
// f32 output, grouped tile order (4) written by hand.
module {
  func.func @g20_pingpong_128x64_k128_f16(
      %A: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<64x128xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>,
                  tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c64 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %in_group = arith.muli %c4, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %group = arith.divui %t, %in_group : index
      %first_m = arith.muli %group, %c4 : index
      %left_m = arith.subi %tiles_m, %first_m : index
      %group_m = arith.minui %left_m, %c4 : index
      %t_in = arith.remui %t, %in_group : index
      %dm = arith.remui %t_in, %group_m : index
      %tm = arith.addi %first_m, %dm : index
      %tn = arith.divui %t_in, %group_m : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c64 : index
      %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x64xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<128x128xf16> -> tensor<128x128xf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<64x128xf16> -> tensor<64x128xf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1, wait = 1>}
            : tensor<128x128xf16>, tensor<64x128xf16> -> tensor<128x64xf32>
        scf.yield %d : tensor<128x64xf32>
      }
      tile.store %C[%m0, %n0], %acc : !tile.desc<128x64xf32>, tensor<128x64xf32>
    }
    return
  }
}
