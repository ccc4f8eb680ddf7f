// Persistent ping-pong GEMM with 64x256 tiles: C[M, N] = A[M, K] * B[N, K]^T,
// bf16 operands, f32 accumulation, bf16 result.
//
// As persistent_gemm_pingpong.mlir, but each consumer warp group owns a
// 64x256 tile (one m64n256k16 wgmma per 16 of K, 128 accumulator registers
// per thread), the shape CUTLASS's ping-pong kernels favour for bf16: two
// such tiles cover what one cooperative 128x256 tile does, and each group's
// epilogue overlaps the other's main loop. Tiles in grouped order.
// Steady state: MMA(i) loadA(i+2) loadB(i+2).
module {
  func.func @persistent_gemm_pingpong_64x256(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
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
    %c256 = arith.constant 256 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c64 : index
    %tiles_n = arith.ceildivui %N, %c256 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %in_group = arith.muli %c8, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x256xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %group = arith.divui %t, %in_group : index
      %first_m = arith.muli %group, %c8 : index
      %left_m = arith.subi %tiles_m, %first_m : index
      %group_m = arith.minui %left_m, %c8 : index
      %t_in = arith.remui %t, %in_group : index
      %dm = arith.remui %t_in, %group_m : index
      %tm = arith.addi %first_m, %dm : index
      %tn = arith.divui %t_in, %group_m : index
      %m0 = arith.muli %tm, %c64 : index
      %n0 = arith.muli %tn, %c256 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<64x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<64x64xbf16>, tensor<256x64xbf16> -> tensor<64x256xf32>
        scf.yield %d : tensor<64x256xf32>
      }
      %cb = arith.truncf %acc : tensor<64x256xf32> to tensor<64x256xbf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<64x256xbf16>, tensor<64x256xbf16>
    }
    return
  }
}
