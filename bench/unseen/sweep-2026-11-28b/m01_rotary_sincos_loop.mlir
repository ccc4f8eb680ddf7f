// Rotary-like modulation of A inside the K loop: A' = A * (cos(t) + sin(t)) with t = (m * 64 + k-column) * 1e-3 from
// i32 iota (math.sin / math.cos via libdevice on a 128x64 register tile), fed to the dot from registers.
module {
  func.func @m01_rotary_sincos_loop(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %c64i = arith.constant dense<64> : tensor<128x64xi32>
    %fr = arith.constant dense<1.0e-3> : tensor<128x64xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %rows = tile.iota %m0, dim = 0 {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %cols = tile.iota %k, dim = 1 {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %r64 = arith.muli %rows, %c64i {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %pos = arith.addi %r64, %cols {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %pf = arith.sitofp %pos {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xi32> to tensor<128x64xf32>
      %th = arith.mulf %pf, %fr {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %cs = math.cos %th {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %sn = math.sin %th {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %w = arith.addf %cs, %sn {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %af = arith.extf %a {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %ar = arith.mulf %af, %w {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xf32>
      %ab = arith.truncf %ar {tile.sched = #tile.sched<"Rot", stage = 1, order = 0, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %d = tile.dot %ab, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
