// R (f32, 128 KiB) loaded before the loop but read only after it; 6 ring stages: fits only if moved after the loop
module {
  func.func @x01_res_loaded_before_loop_bk32_6st(
      %A: !tile.desc<128x32xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x32xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x256xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
      %r1 = tile.load %R[%m0, %n0] : !tile.desc<128x256xf32> -> tensor<128x256xf32>
    %acc = scf.for %k = %c0 to %K step %c32 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x32xbf16> -> tensor<128x32xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x32xbf16> -> tensor<256x32xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 4, order = 0, group = 1, wait = 1>} : tensor<128x32xbf16>, tensor<256x32xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %v2 = arith.addf %acc, %r1 : tensor<128x256xf32>
      %t3 = arith.truncf %v2 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %t3 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
