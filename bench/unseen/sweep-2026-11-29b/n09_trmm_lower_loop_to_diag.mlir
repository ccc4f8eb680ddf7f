// Lower-triangular A times B (TRMM-like): program (pm, pn) runs its K loop from
// max(0, m0 + 128 - W) to min(K, m0 + 128): a band of width W below the diagonal block
// (W a size; W >= K gives the whole lower triangle), the diagonal block masked by iota/select on A
// (in registers: A is a register operand of the dot). f32 out. Trip counts differ per program.
module {
  func.func @trmm(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, W] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, W] -> (N, K)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K, W] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"}, %W: index {tile.size = "W"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K, W] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 2048 : i64, W = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %mend = arith.addi %m0, %c128 : index
    %hi = arith.minui %mend, %K : index
    %lo0 = arith.subi %mend, %W : index
    %neg = arith.cmpi slt, %mend, %W : index
    %lo = arith.select %neg, %c0, %lo0 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %zb = arith.constant dense<0.0> : tensor<128x64xbf16>
    %acc = scf.for %k = %lo to %hi step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %rows = tile.iota %m0, dim = 0 {tile.sched = #tile.sched<"Tri", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %cols = tile.iota %k, dim = 1 {tile.sched = #tile.sched<"Tri", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %keep = arith.cmpi sge, %rows, %cols {tile.sched = #tile.sched<"Tri", stage = 1, order = 0, group = 1>} : tensor<128x64xi32>
      %at = arith.select %keep, %a, %zb {tile.sched = #tile.sched<"Tri", stage = 1, order = 0, group = 1>} : tensor<128x64xi1>, tensor<128x64xbf16>
      %d = tile.dot %at, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
