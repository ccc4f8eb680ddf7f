// residual row-block chosen by an index table loaded after the loop (tensor.extract -> load coordinate)
module {
  func.func @x02_gathered_residual_128x256(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %IDX: !tile.desc<4xi32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 32)>},
      %R: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
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
      %it = tile.load %IDX[%pm] : !tile.desc<4xi32> -> tensor<4xi32>
      %i0 = tensor.extract %it[%c0] : tensor<4xi32>
      %i0x = arith.index_cast %i0 : i32 to index
      %rm = arith.muli %i0x, %c128 : index
      %rg = tile.load %R[%rm, %n0] : !tile.desc<128x256xbf16> -> tensor<128x256xbf16>
      %rge = arith.extf %rg : tensor<128x256xbf16> to tensor<128x256xf32>
      %v1 = arith.addf %acc, %rge : tensor<128x256xf32>
      %t2 = arith.truncf %v1 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %t2 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
