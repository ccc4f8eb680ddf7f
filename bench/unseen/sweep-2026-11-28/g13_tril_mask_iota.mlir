// Lower-triangular C = tril(A B^T) with an iota mask and a column-parity scale (integer math).
module {
  func.func @g13(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, K] -> (M, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, K] -> (M, M)>},
      %M: index {tile.size = "M"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, K] -> (M ceildiv 128, M ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %rows = tile.iota %m0, dim = 0 : tensor<128x128xi32>
    %cols = tile.iota %n0, dim = 1 : tensor<128x128xi32>
    %ok = arith.cmpi sge, %rows, %cols : tensor<128x128xi32>
    %two = arith.constant dense<2> : tensor<128x128xi32>
    %par = arith.remsi %cols, %two : tensor<128x128xi32>
    %pf = arith.sitofp %par : tensor<128x128xi32> to tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %sc = arith.addf %pf, %one : tensor<128x128xf32>
    %v = arith.mulf %acc, %sc : tensor<128x128xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %m = arith.select %ok, %v, %z : tensor<128x128xi1>, tensor<128x128xf32>
    %ob = arith.truncf %m : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %ob : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
