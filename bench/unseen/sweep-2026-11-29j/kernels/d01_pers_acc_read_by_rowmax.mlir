// Persistent cooperative GEMM (128x128 tiles, row-major order) whose loop also reads
// the carried accumulator before its dot: MX = max over k of rowmax(partial sum before step k)
// (the first step reads the zero start: every tile must restart from zeros, not from the
// previous tile's sums). Outputs: C (f16) and MX (f32 per row, per column tile: MX[tn, rows]).
module {
  func.func @d01(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %MX: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 2048 : i64, N = 2048 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %m_init = arith.constant dense<-7.0> : tensor<128xf32>
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %res:2 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero, %mx = %m_init) -> (tensor<128x128xf32>, tensor<128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %pm = tile.reduce max %c, dim = 1 {tile.sched = #tile.sched<"Peek", stage = 2, order = 3, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %mx2 = arith.maximumf %mx, %pm {tile.sched = #tile.sched<"Peek", stage = 2, order = 3, group = 1>} : tensor<128xf32>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d, %mx2 : tensor<128x128xf32>, tensor<128xf32>
      }
      %cb = arith.truncf %res#0 : tensor<128x128xf32> to tensor<128x128xf16>
      tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xf16>, tensor<128x128xf16>
      tile.store %MX[%tn, %m0], %res#1 : !tile.desc<1x128xf32>, tensor<128xf32>
    }
    return
  }
}
