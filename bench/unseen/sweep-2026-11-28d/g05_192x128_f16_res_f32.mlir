// 192x128 f16 with an f32 residual, f16 out, three ring stages
module {
  func.func @g05_192x128_f16_res_f32(
      %A: !tile.desc<192x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<192x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<192x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 192, N ceildiv 128)>,
                  tile.defaults = {M = 1536 : i64, N = 2048 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 3>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<192x128xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c192 : index
    %n0 = arith.muli %pn, %c128 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<192x128xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<192x64xf16> -> tensor<192x64xf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xf16> -> tensor<128x64xf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1, wait = 1>} : tensor<192x64xf16>, tensor<128x64xf16> -> tensor<192x128xf32>
        scf.yield %d : tensor<192x128xf32>
      }
      %r1 = tile.load %R[%m0, %n0] : !tile.desc<192x128xf32> -> tensor<192x128xf32>
      %v2 = arith.addf %acc, %r1 : tensor<192x128xf32>
      %t3 = arith.truncf %v2 : tensor<192x128xf32> to tensor<192x128xf16>
      tile.store %C[%m0, %n0], %t3 : !tile.desc<192x128xf16>, tensor<192x128xf16>
    return
  }
}
