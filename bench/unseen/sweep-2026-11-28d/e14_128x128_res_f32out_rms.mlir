// 128x128: f32 out = (AB^T+R) * rsqrt(rowsum((AB^T+R)^2)) (rms-ish), bf16 residual
module {
  func.func @e14_128x128_res_f32out_rms(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 128 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %r1 = tile.load %R[%m0, %n0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %e2 = arith.extf %r1 : tensor<128x128xbf16> to tensor<128x128xf32>
      %v3 = arith.addf %acc, %e2 : tensor<128x128xf32>
      %v5 = arith.mulf %v3, %v3 : tensor<128x128xf32>
      %red6 = tile.reduce sum %v5, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
      %rq = math.rsqrt %red6 : tensor<128xf32>
      %bb7 = tile.broadcast %rq, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
      %v8 = arith.mulf %v3, %bb7 : tensor<128x128xf32>
      tile.store %C[%m0, %n0], %v8 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
