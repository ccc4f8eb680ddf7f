// Persistent ping-pong GEMM: C[M, N] = A[M, K] * B[N, K]^T, bf16 operands,
// f32 accumulation, bf16 result (CUTLASS's KernelTmaWarpSpecializedPingpong).
//
// The two consumer warp groups do not split a tile: each owns every other
// 128x128 tile of the block (tile.consumers = "pingpong"), and they take
// turns at the tensor cores, so one group's epilogue (convert, stage, TMA
// store) runs while the other's main loop keeps the tensor cores busy.
// Switch the board's Consumers control to cooperative to compare: then both
// warp groups split each tile, 64 rows each.
//
// One program per SM (132 on an H100 SXM) walks the 128x128 output tiles
// t = pid, pid + 132, ...; consecutive tiles go down a group of 8 tile rows
// before moving right (the order Triton's matmul tutorial calls grouped), so
// the programs running at one time share rows of A and columns of B in L2.
// The producer streams (tile, k) without a break between tiles; the
// consumers' epilogue of one tile overlaps the producer's loads for the
// next, and its TMA stores drain while the next tile's MMAs run.
// Steady state: MMA(i) loadA(i+2) loadB(i+2).
module {
  func.func @persistent_gemm_pingpong(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64},
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
      %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }
    return
  }
}
