// ping-pong 64x256 tiles + residual + gate
module {
  func.func @p09_pp_64x256_res_gate(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %G: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<64x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>,
                  tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x256xf32>
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c64 : index
    %tiles_n = arith.ceildivui %N, %c256 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c64 : index
      %n0 = arith.muli %tn, %c256 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<64x256xf32>) {
          %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
          %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
          %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<64x64xbf16>, tensor<256x64xbf16> -> tensor<64x256xf32>
          scf.yield %d : tensor<64x256xf32>
        }
        %r1 = tile.load %R[%m0, %n0] : !tile.desc<64x256xbf16> -> tensor<64x256xbf16>
        %e2 = arith.extf %r1 : tensor<64x256xbf16> to tensor<64x256xf32>
        %v3 = arith.addf %acc, %e2 : tensor<64x256xf32>
        %r4 = tile.load %G[%m0, %n0] : !tile.desc<64x256xbf16> -> tensor<64x256xbf16>
        %e5 = arith.extf %r4 : tensor<64x256xbf16> to tensor<64x256xf32>
        %v6 = arith.negf %e5 : tensor<64x256xf32>
        %v7 = math.exp %v6 : tensor<64x256xf32>
        %k8 = arith.constant dense<1.0> : tensor<64x256xf32>
        %v9 = arith.addf %v7, %k8 : tensor<64x256xf32>
        %v10 = arith.divf %k8, %v9 : tensor<64x256xf32>
        %v11 = arith.mulf %v3, %v10 : tensor<64x256xf32>
        %t12 = arith.truncf %v11 : tensor<64x256xf32> to tensor<64x256xbf16>
        tile.store %C[%m0, %n0], %t12 : !tile.desc<64x256xbf16>, tensor<64x256xbf16>
    }
    return
  }
}
