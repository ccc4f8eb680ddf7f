// A legal kernel whose plain reference lowers but whose pipelined lowering
// refuses an op: a tensor.extract of a tile the loop makes (the kernel reads
// elements only of tiles loaded once), in the loop, at line 15. Read by
// CompileDriverTest and AppStateTest.
func.func @k(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[N] -> (128, 128)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 2>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %a = tile.load %A[%i, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %s = tensor.extract %acc[%c0, %c0] : tensor<128x128xf32>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    %ss = tensor.splat %s : tensor<128x128xf32>
    %n = arith.addf %d, %ss : tensor<128x128xf32>
    scf.yield %n : tensor<128x128xf32>
  }
  tile.store %C[%c0, %c0], %r : !tile.desc<128x128xf32>, tensor<128x128xf32>
  return
}
