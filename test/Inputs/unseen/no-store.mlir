// A loop that loads and multiplies, and a kernel that stores nothing (the compile fuzzer's
// mutation of test/Schedule/materialize.mlir).
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return
}
