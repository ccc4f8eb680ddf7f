// 64x256 (one consumer WG) + f32 residual: legality estimates ~160 registers/thread, ptxas needs 248 and spills
module {
  func.func @b4_64x256_f32res(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<64x256xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<64x256xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<64x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<64x64xbf16>, tensor<256x64xbf16> -> tensor<64x256xf32>
        scf.yield %d : tensor<64x256xf32>
      }
      %r1 = tile.load %R[%m0, %n0] : !tile.desc<64x256xf32> -> tensor<64x256xf32>
      %v2 = arith.addf %acc, %r1 : tensor<64x256xf32>
      tile.store %C[%m0, %n0], %v2 : !tile.desc<64x256xf32>, tensor<64x256xf32>
    return
  }
}
