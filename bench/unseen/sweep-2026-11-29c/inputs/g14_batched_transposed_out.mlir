// Batched GEMM through 2-d views with batch strides in the coordinates: A [Bt*M, K], B [Bt*N, K];
// writes the TRANSPOSED product C_b^T = B_b A_b^T into CT [Bt*N, M] (row = b*N + n0), f32 output.
module {
  func.func @g14_batched_transposed_out(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[Bt, M, N, K] -> (Bt * M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[Bt, M, N, K] -> (Bt * N, K)>},
      %CT: !tile.desc<128x128xf32> {tile.shape = affine_map<()[Bt, M, N, K] -> (Bt * N, M)>},
      %Bt: index {tile.size = "Bt"}, %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[Bt, M, N, K] -> (N ceildiv 128, M ceildiv 128, Bt)>,
                  tile.defaults = {Bt = 8 : i64, M = 1024 : i64, N = 2048 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pn = tile.program_id 0 : index
    %pm = tile.program_id 1 : index
    %pb = tile.program_id 2 : index
    %n0 = arith.muli %pn, %c128 : index
    %m0 = arith.muli %pm, %c128 : index
    %boffm = arith.muli %pb, %M : index
    %boffn = arith.muli %pb, %N : index
    %ra = arith.addi %boffm, %m0 : index
    %rb = arith.addi %boffn, %n0 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %b = tile.load %B[%rb, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %a = tile.load %A[%ra, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %b, %a, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tile.store %CT[%rb, %m0], %acc : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
