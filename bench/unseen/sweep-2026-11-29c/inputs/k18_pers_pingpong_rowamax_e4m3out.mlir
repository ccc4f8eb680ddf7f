// Persistent ping-pong GEMM (128x128 tiles, each consumer warp group owns every other tile)
// whose epilogue quantizes per row: amax over the row of the tile (dim 1 reduction), scale =
// 448 / amax, an e4m3 output tile and the per-row inverse scales stored as an f32 vector [N/128, M].
module {
  func.func @pp_quant(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %S: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>, tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %np = tile.num_programs 0 : index
    %tm_n = arith.ceildivui %M, %c128 : index
    %tn_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tm_n, %tn_n : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %tiny = arith.constant dense<1.0e-12> : tensor<128xf32>
    %fmax = arith.constant dense<448.0> : tensor<128xf32>
    scf.for %t = %pid to %tiles step %np {
      %tm = arith.remui %t, %tm_n : index
      %tn = arith.divui %t, %tm_n : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
            : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
            : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %ab = math.absf %acc : tensor<128x128xf32>
      %amax0 = tile.reduce max %ab, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
      %amax = arith.maximumf %amax0, %tiny : tensor<128xf32>
      %sc = arith.divf %fmax, %amax : tensor<128xf32>
      %inv = arith.divf %amax, %fmax : tensor<128xf32>
      %scb = tile.broadcast %sc, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
      %q = arith.mulf %acc, %scb : tensor<128x128xf32>
      %q8 = arith.truncf %q : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
      tile.store %C[%m0, %n0], %q8 : !tile.desc<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
      tile.store %S[%tn, %m0], %inv : !tile.desc<1x128xf32>, tensor<128xf32>
    }
    return
  }
}
