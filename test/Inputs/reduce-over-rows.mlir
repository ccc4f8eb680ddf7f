// A legal kernel whose plain reference lowers but whose pipelined lowering
// refuses an op: a reduction over the rows of a tile (dim = 0), in the loop,
// at line 15. Read by CompileDriverTest and AppStateTest.
func.func @k(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %C: !tile.desc<64xf32> {tile.shape = affine_map<()[N] -> (N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 2>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %r = scf.for %i = %c0 to %N step %c128 iter_args(%acc = %z) -> (tensor<64xf32>) {
    %a = tile.load %A[%i, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %f = arith.extf %a : tensor<128x64xbf16> to tensor<128x64xf32>
    %s = tile.reduce sum %f, dim = 0 : tensor<128x64xf32> -> tensor<64xf32>
    %n = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %n : tensor<64xf32>
  }
  tile.store %C[%c0], %r : !tile.desc<64xf32>, tensor<64xf32>
  return
}
