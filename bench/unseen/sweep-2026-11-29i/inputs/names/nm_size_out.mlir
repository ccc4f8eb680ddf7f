// Sizes used in coordinates: A is read from row ROFF on (a view into a bigger A), C is written
// at column COFF on (into a wider C of N + COFF columns), and K runs from KS to K.
// The epilogue masks (iota + select) the rows at or past MV (a "valid rows" size) to zero.
module {
  func.func @offs(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, ROFF, COFF, KS, out] -> (M + ROFF, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, ROFF, COFF, KS, out] -> (N, K)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K, ROFF, COFF, KS, out] -> (M, N + COFF)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"},
      %ROFF: index {tile.size = "ROFF"}, %COFF: index {tile.size = "COFF"}, %KS: index {tile.size = "KS"},
      %MV: index {tile.size = "out"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K, ROFF, COFF, KS, out] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 1024 : i64, N = 1024 : i64, K = 1024 : i64, ROFF = 3 : i64, COFF = 64 : i64, KS = 128 : i64, out = 1000 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %ma = arith.addi %m0, %ROFF : index
    %nc = arith.addi %n0, %COFF : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %KS to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%ma, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %mvi = arith.index_cast %MV : index to i32
    %rows = tile.iota %m0, dim = 0 : tensor<128x128xi32>
    %mvt = tensor.splat %mvi : tensor<128x128xi32>
    %ok = arith.cmpi slt, %rows, %mvt : tensor<128x128xi32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %o = arith.select %ok, %acc, %z : tensor<128x128xi1>, tensor<128x128xf32>
    tile.store %C[%m0, %nc], %o : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
