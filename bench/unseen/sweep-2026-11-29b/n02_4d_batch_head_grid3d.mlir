// Per-(batch, head) GEMM on 4-D tensors: Y[b,h] = X[b,h] W[h]^T, grid (tiles_m * tiles_n, H, B).
// Grid x is decoded with divui/remui by tiles_n; W is per head (rank 3); Y in f16, rank 4.
module {
  func.func @bh_gemm(
      %X: !tile.desc<1x1x128x64xbf16> {tile.shape = affine_map<()[B, H, M, N, K] -> (B, H, M, K)>},
      %W: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, M, N, K] -> (H, N, K)>},
      %Y: !tile.desc<1x1x128x128xf16> {tile.shape = affine_map<()[B, H, M, N, K] -> (B, H, M, N)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"}, %M: index {tile.size = "M"},
      %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, M, N, K] -> ((M ceildiv 128) * (N ceildiv 128), H, B)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, M = 1024 : i64, N = 512 : i64, K = 512 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %p = tile.program_id 0 : index
    %h = tile.program_id 1 : index
    %b = tile.program_id 2 : index
    %tn = arith.ceildivui %N, %c128 : index
    %pm = arith.divui %p, %tn : index
    %pn = arith.remui %p, %tn : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %x = tile.load %X[%b, %h, %m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<1x1x128x64xbf16> -> tensor<128x64xbf16>
      %w = tile.load %W[%h, %n0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %x, %w, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %y = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
    tile.store %Y[%b, %h, %m0, %n0], %y : !tile.desc<1x1x128x128xf16>, tensor<128x128xf16>
    return
  }
}
