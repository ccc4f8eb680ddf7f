// Per-CTA K length from a table indexed by program_id 0, in clusters of 2 (B shared): the CTAs of a cluster run different trip counts.
// A's row block is read from an i32 table at index program_id 0, so A differs between the
// CTAs of a cluster (each CTA gathers its own rows) although no coordinate names program_id 0
// directly; B's coordinate depends on program_id 1 only: the same in both CTAs, shared.
module {
  func.func @c02(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %ROWS: !tile.desc<64xi32> {tile.shape = affine_map<()[M, N, K] -> (64)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.cluster = 2,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %tab = tile.load %ROWS[%c0] : !tile.desc<64xi32> -> tensor<64xi32>
    %r = tensor.extract %tab[%pm] : tensor<64xi32>
    %rx = arith.index_cast %r : i32 to index
    %kl = arith.muli %rx, %c64 : index
    %am = arith.muli %pm, %c128 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %kl step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %a = tile.load %A[%am, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %cb = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
