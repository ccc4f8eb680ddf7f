// same at 128x256 (W 64 KiB, 4 ring stages: W must be loaded after the loop)
module {
  func.func @x05b_postloop_dot_epilogue_W_256(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %W: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (128, N)>},
      %C2: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, (N ceildiv 256) * 128)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %w = tile.load %W[%c0, %n0] : !tile.desc<128x256xbf16> -> tensor<128x256xbf16>
      %ab = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
      %z2 = arith.constant dense<0.0> : tensor<128x128xf32>
      %o2 = tile.dot %ab, %w, %z2 {transpose_b} : tensor<128x256xbf16>, tensor<128x256xbf16> -> tensor<128x128xf32>
      %cn = arith.muli %pn, %c128 : index
      tile.store %C2[%m0, %cn], %o2 : !tile.desc<128x128xf32>, tensor<128x128xf32>
      %t1 = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %t1 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
