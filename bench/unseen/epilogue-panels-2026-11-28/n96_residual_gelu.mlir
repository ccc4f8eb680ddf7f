// A 128x96 tile (a panel and a half of 64 bf16 columns; N = 1000 leaves a partial last tile):
// GELU (tanh form) of the product plus a bf16 residual, stored in bf16, and the product alone
// stored in f16: two stores reading one chain, the second panel of each partly past the tile.
module {
  func.func @n96_residual_gelu(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<96x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x96xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x96xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %P: !tile.desc<128x96xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 96)>,
                  tile.defaults = {M = 8192 : i64, N = 1000 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c96 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x96xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x96xf32>) {
      %a = tile.load %A[%m0, %k] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] : !tile.desc<96x64xbf16> -> tensor<96x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b} : tensor<128x64xbf16>, tensor<96x64xbf16> -> tensor<128x96xf32>
      scf.yield %d : tensor<128x96xf32>
    }
    %half = arith.constant dense<0.5> : tensor<128x96xf32>
    %one = arith.constant dense<1.0> : tensor<128x96xf32>
    %k0 = arith.constant dense<0.7978845608> : tensor<128x96xf32>
    %k1 = arith.constant dense<0.044715> : tensor<128x96xf32>
    %x2 = arith.mulf %acc, %acc : tensor<128x96xf32>
    %x3 = arith.mulf %x2, %acc : tensor<128x96xf32>
    %t0 = arith.mulf %x3, %k1 : tensor<128x96xf32>
    %t1 = arith.addf %acc, %t0 : tensor<128x96xf32>
    %t2 = arith.mulf %t1, %k0 : tensor<128x96xf32>
    %t3 = math.tanh %t2 : tensor<128x96xf32>
    %t4 = arith.addf %t3, %one : tensor<128x96xf32>
    %t5 = arith.mulf %acc, %half : tensor<128x96xf32>
    %g = arith.mulf %t5, %t4 : tensor<128x96xf32>
    %r = tile.load %R[%m0, %n0] : !tile.desc<128x96xbf16> -> tensor<128x96xbf16>
    %rf = arith.extf %r : tensor<128x96xbf16> to tensor<128x96xf32>
    %o = arith.addf %g, %rf : tensor<128x96xf32>
    %ob = arith.truncf %o : tensor<128x96xf32> to tensor<128x96xbf16>
    tile.store %C[%m0, %n0], %ob : !tile.desc<128x96xbf16>, tensor<128x96xbf16>
    %ph = arith.truncf %acc : tensor<128x96xf32> to tensor<128x96xf16>
    tile.store %P[%m0, %n0], %ph : !tile.desc<128x96xf16>, tensor<128x96xf16>
    return
  }
}
