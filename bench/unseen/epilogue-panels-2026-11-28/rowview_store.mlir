// After a 128x128 GEMM: the row sums stored both as a vector and broadcast to a whole f32 tile
// (a 2-d store of a row view, not a tile layout), and the product scaled by a column vector
// loaded from a table (a column view) stored in bf16: element-local math on views beside a
// reduction the epilogue makes whole.
module {
  func.func @rowview_store(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %S: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %D: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %V: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, 1)>,
                  tile.defaults = {M = 16384 : i64, N = 128 : i64, K = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%c0, %k] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %rs = tile.reduce sum %acc, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    tile.store %V[%m0], %rs : !tile.desc<128xf32>, tensor<128xf32>
    %rb = tile.broadcast %rs, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    tile.store %D[%m0, %c0], %rb : !tile.desc<128x128xf32>, tensor<128x128xf32>
    %s = tile.load %S[%c0] : !tile.desc<128xf32> -> tensor<128xf32>
    %sb = tile.broadcast %s, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %p = arith.mulf %acc, %sb : tensor<128x128xf32>
    %pc = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %c0], %pc : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
