// math.sin in the loop: sin.approx after a reduction by 2 pi in the kernel, __nv_sin (f64) in the reference.
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (64, 64)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>

  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %e = math.sin %d : tensor<64x64xf32>
    scf.yield %e : tensor<64x64xf32>
  }

  tile.store %C[%c0, %c0], %r : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
