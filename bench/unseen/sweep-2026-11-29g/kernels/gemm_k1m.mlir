// GEMM: C[M, N] = A[M, K] * B[N, K]^T, bf16 operands, f32 accumulation,
// bf16 result (B is K-major, like a weight matrix).
//
// One program computes a 128x256 tile of C. The K loop is the pipelined loop:
// a producer warp group (group 0) streams A and B tiles by TMA two stages
// ahead of the consumer warp groups (group 1, two warp groups of 64 rows
// each) that run wgmma, keeping one wgmma group in flight (wait = 1).
// Steady state: MMA(i) loadA(i+2) loadB(i+2).
module {
  func.func @gemm(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 1048576 : i64},
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
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
