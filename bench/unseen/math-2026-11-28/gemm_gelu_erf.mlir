// C = gelu(A B^T) with the exact (erf) GELU that PyTorch's nn.GELU() computes by default:
// 0.5 x (1 + erf(x / sqrt(2))), bf16 out; 128x128 tiles, two consumers.
module {
  func.func @gemm_gelu_erf(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
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
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %rs2 = arith.constant dense<0.70710678118654752> : tensor<128x128xf32>
    %s = arith.mulf %acc, %rs2 : tensor<128x128xf32>
    %e = math.erf %s : tensor<128x128xf32>
    %e1 = arith.addf %e, %one : tensor<128x128xf32>
    %h = arith.mulf %acc, %half : tensor<128x128xf32>
    %g = arith.mulf %h, %e1 : tensor<128x128xf32>
    %o = arith.truncf %g : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %o : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
