// Three GEMMs sharing A: C = (A W1^T) * sigmoid(A W2^T) + A W3^T; 128x64 tile.
module {
  func.func @g08(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %W1: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %W2: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %W3: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 64)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %acc:3 = scf.for %k = %c0 to %K step %c64 iter_args(%x = %zero, %y = %zero, %z = %zero)
        -> (tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %w1 = tile.load %W1[%n0, %k] {tile.sched = #tile.sched<"loadW1", stage = 0, order = 4, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %w2 = tile.load %W2[%n0, %k] {tile.sched = #tile.sched<"loadW2", stage = 0, order = 5, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %w3 = tile.load %W3[%n0, %k] {tile.sched = #tile.sched<"loadW3", stage = 0, order = 6, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %x2 = tile.dot %a, %w1, %x {transpose_b, tile.sched = #tile.sched<"MMA1", stage = 2, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %y2 = tile.dot %a, %w2, %y {transpose_b, tile.sched = #tile.sched<"MMA2", stage = 2, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %z2 = tile.dot %a, %w3, %z {transpose_b, tile.sched = #tile.sched<"MMA3", stage = 2, order = 2, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      scf.yield %x2, %y2, %z2 : tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>
    }
    %one = arith.constant dense<1.0> : tensor<128x64xf32>
    %ny = arith.negf %acc#1 : tensor<128x64xf32>
    %e = math.exp %ny : tensor<128x64xf32>
    %den = arith.addf %one, %e : tensor<128x64xf32>
    %sg = arith.divf %one, %den : tensor<128x64xf32>
    %h = arith.mulf %acc#0, %sg : tensor<128x64xf32>
    %o = arith.addf %h, %acc#2 : tensor<128x64xf32>
    %ob = arith.truncf %o : tensor<128x64xf32> to tensor<128x64xbf16>
    tile.store %C[%m0, %n0], %ob : !tile.desc<128x64xbf16>, tensor<128x64xbf16>
    return
  }
}
