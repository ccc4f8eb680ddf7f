// Per-token-group quantization after the GEMM: for each row of each 128-column group, amax = max |x|,
// scale = max(amax, 1e-4) / 448, Q = clamp(x / scale, -448, 448) stored as e4m3 (the FP8 store),
// and the scales stored as S[N/128, M] f32 (1-d vector output, rows).
module {
  func.func @group_quant_e4m3(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Q: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %S: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
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
    %ax = math.absf %acc : tensor<128x128xf32>
    %amax = tile.reduce max %ax, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %tiny = arith.constant dense<1.0e-4> : tensor<128xf32>
    %fmax = arith.constant dense<448.0> : tensor<128xf32>
    %am = arith.maximumf %amax, %tiny : tensor<128xf32>
    %scale = arith.divf %am, %fmax : tensor<128xf32>
    %sb = tile.broadcast %scale, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %q0 = arith.divf %acc, %sb : tensor<128x128xf32>
    %hi = arith.constant dense<448.0> : tensor<128x128xf32>
    %lo = arith.constant dense<-448.0> : tensor<128x128xf32>
    %q1 = arith.minimumf %q0, %hi : tensor<128x128xf32>
    %q2 = arith.maximumf %q1, %lo : tensor<128x128xf32>
    %qb = arith.truncf %q2 : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
    tile.store %Q[%m0, %n0], %qb : !tile.desc<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
    tile.store %S[%pn, %m0], %scale : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
