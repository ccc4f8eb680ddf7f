// Ping-pong persistent 128x128: (A B^T + bias + R) * 0.5 stored in e4m3 (FP8 chunks of the
// panel), and the columns at or beyond N - 5 zeroed by an iota mask in the epilogue, stored in
// bf16; tails in M, N and K.
module {
  func.func @pp_fp8_masked_residual(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %CB: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %R: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Z: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (132)>,
                  tile.defaults = {M = 4000 : i64, N = 3008 : i64, K = 1000 : i64},
                  tile.warpgroups = array<i64: 1, 2>,
                  tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %tiles_m = arith.ceildivui %M, %c128 : index
    %tiles_n = arith.ceildivui %N, %c128 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index
    scf.for %t = %pid to %tiles step %nprog {
      %tm = arith.divui %t, %tiles_n : index
      %tn = arith.remui %t, %tiles_n : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
          %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
          %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
          %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %s1 = tile.load %CB[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
        %b2 = tile.broadcast %s1, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
        %v3 = arith.addf %acc, %b2 : tensor<128x128xf32>
        %r9 = tile.load %R[%m0, %n0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
        %e10 = arith.extf %r9 : tensor<128x128xbf16> to tensor<128x128xf32>
        %v11 = arith.addf %v3, %e10 : tensor<128x128xf32>
        %hf = arith.constant dense<0.5> : tensor<128x128xf32>
        %v12 = arith.mulf %v11, %hf : tensor<128x128xf32>
        %q = arith.truncf %v12 : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
        tile.store %C[%m0, %n0], %q : !tile.desc<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
        %cols = tile.iota %n0, dim = 1 : tensor<128x128xi32>
        %c5 = arith.constant 5 : index
        %lim = arith.subi %N, %c5 : index
        %limi = arith.index_cast %lim : index to i32
        %lims = tensor.splat %limi : tensor<128x128xi32>
        %keep = arith.cmpi slt, %cols, %lims : tensor<128x128xi32>
        %zz = arith.constant dense<0.0> : tensor<128x128xf32>
        %mz = arith.select %keep, %v11, %zz : tensor<128x128xi1>, tensor<128x128xf32>
        %mb = arith.truncf %mz : tensor<128x128xf32> to tensor<128x128xbf16>
        tile.store %Z[%m0, %n0], %mb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }
    return
  }
}
