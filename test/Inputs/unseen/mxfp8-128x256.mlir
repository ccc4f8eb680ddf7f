// A block-scaled 128x256 tile, K steps of 128: on sm_90a its upcast B (64 KiB a copy) does not fit
// beside the rings; sm_100a runs it as one tcgen05 block-scaled MMA, no upcast buffer (was
// refused there with sm_90a's count, "on Hopper").
module {
  func.func @u02(
      %A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %SA: !tile.desc<4x128xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, M)>},
      %B: !tile.desc<256x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %SB: !tile.desc<4x256xf8E8M0FNU> {tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>},
      %C: !tile.desc<128x256xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %sa = tile.load %SA[%ks, %m0] {tile.sched = #tile.sched<"loadSA", stage = 0, order = 3, group = 0>}
          : !tile.desc<4x128xf8E8M0FNU> -> tensor<4x128xf8E8M0FNU>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 4, group = 0>}
          : !tile.desc<256x128xf8E4M3FN> -> tensor<256x128xf8E4M3FN>
      %sb = tile.load %SB[%ks, %n0] {tile.sched = #tile.sched<"loadSB", stage = 0, order = 5, group = 0>}
          : !tile.desc<4x256xf8E8M0FNU> -> tensor<4x256xf8E8M0FNU>
      %d = tile.dot_scaled %a, %sa, %b, %sb, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU>, tensor<256x128xf8E4M3FN>, tensor<4x256xf8E8M0FNU> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xf16>, tensor<128x256xf16>
    return
  }
}
