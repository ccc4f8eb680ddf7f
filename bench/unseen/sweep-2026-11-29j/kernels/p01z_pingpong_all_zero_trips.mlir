// p01 without tile.init on KL: the table is all zeros, every tile runs 0 iterations.
// Persistent ping-pong GEMM whose K extent is per tile row, read from an i32 table loaded once
// (KL[tm] K steps of 64; rows with 0 steps run no iteration and store the epilogue of a zero
// accumulator). Two outputs: C = f16(acc * 0.5 + 1) and the row sums of acc (f32, RS[tn, rows]).
module {
  func.func @p01z(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %KL: !tile.desc<64xi32> {tile.shape = affine_map<()[M, N, K] -> (64)>},
      %C: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %RS: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>, tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %tab = tile.load %KL[%c0] : !tile.desc<64xi32> -> tensor<64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %kli = tensor.extract %tab[%tm] : tensor<64xi32>
      %klx = arith.index_cast %kli : i32 to index
      %kend = arith.muli %klx, %c64 : index
      %acc = scf.for %k = %c0 to %kend step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %h = arith.mulf %acc, %half : tensor<128x128xf32>
      %h1 = arith.addf %h, %one : tensor<128x128xf32>
      %cb = arith.truncf %h1 : tensor<128x128xf32> to tensor<128x128xf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xf16>, tensor<128x128xf16>
      %rs = tile.reduce sum %acc, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
      tile.store %RS[%tn, %m0], %rs : !tile.desc<1x128xf32>, tensor<128xf32>
    }
    return
  }
}
