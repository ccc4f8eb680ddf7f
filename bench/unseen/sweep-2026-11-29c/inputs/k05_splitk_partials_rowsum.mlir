// Split-K: grid dimension 2 picks a K chunk of KC columns; each program sums its chunk into an
// f32 partial P[s, m, n] and also stores the row sums of its partial, R[s, m] (two stores).
// The loop starts at s * KC (a nonzero offset) and stops at min((s + 1) * KC, K).
module {
  func.func @splitk(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, KC, SPL] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K, KC, SPL] -> (N, K)>},
      %P: !tile.desc<1x128x128xf32> {tile.shape = affine_map<()[M, N, K, KC, SPL] -> (SPL, M, N)>},
      %R: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K, KC, SPL] -> (SPL, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"},
      %KC: index {tile.size = "KC"}, %SPL: index {tile.size = "SPL"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K, KC, SPL] -> (M ceildiv 128, N ceildiv 128, SPL)>,
                  tile.defaults = {M = 1024 : i64, N = 1024 : i64, K = 16384 : i64, KC = 4096 : i64, SPL = 4 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %s = tile.program_id 2 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %k0 = arith.muli %s, %KC : index
    %k1a = arith.addi %k0, %KC : index
    %k1 = arith.minui %k1a, %K : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %k0 to %k1 step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tile.store %P[%s, %m0, %n0], %acc : !tile.desc<1x128x128xf32>, tensor<128x128xf32>
    %rs = tile.reduce sum %acc, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    tile.store %R[%s, %m0], %rs : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
