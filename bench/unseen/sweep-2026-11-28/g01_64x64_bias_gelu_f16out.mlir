// C[M,N] = gelu_tanh(A B^T + bias[N]) as f16; 64x64 tile, one consumer warp group.
module {
  func.func @g01(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Bias: !tile.desc<64xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<64x64xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 64, N ceildiv 64)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %bias = tile.load %Bias[%n0] : !tile.desc<64xf32> -> tensor<64xf32>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %bb = tile.broadcast %bias, dim = 0 : tensor<64xf32> -> tensor<64x64xf32>
    %x = arith.addf %acc, %bb : tensor<64x64xf32>
    %half = arith.constant dense<0.5> : tensor<64x64xf32>
    %one = arith.constant dense<1.0> : tensor<64x64xf32>
    %k0 = arith.constant dense<0.7978845608> : tensor<64x64xf32>
    %k1 = arith.constant dense<0.044715> : tensor<64x64xf32>
    %x2 = arith.mulf %x, %x : tensor<64x64xf32>
    %x3 = arith.mulf %x2, %x : tensor<64x64xf32>
    %t0 = arith.mulf %x3, %k1 : tensor<64x64xf32>
    %t1 = arith.addf %x, %t0 : tensor<64x64xf32>
    %t2 = arith.mulf %t1, %k0 : tensor<64x64xf32>
    %th = math.tanh %t2 : tensor<64x64xf32>
    %t3 = arith.addf %th, %one : tensor<64x64xf32>
    %t4 = arith.mulf %x, %half : tensor<64x64xf32>
    %g = arith.mulf %t4, %t3 : tensor<64x64xf32>
    %o = arith.truncf %g : tensor<64x64xf32> to tensor<64x64xf16>
    tile.store %C[%m0, %n0], %o : !tile.desc<64x64xf16>, tensor<64x64xf16>
    return
  }
}
