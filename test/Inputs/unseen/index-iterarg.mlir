// A loop carrying an index counter: refused at the loop by every tool (was: a segfault in the
// reference lowering, racing the kernel's own refusal).
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (64, 64)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r:2 = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z, %cnt = %c0) -> (tensor<64x64xf32>, index) {
    %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %cnt2 = arith.addi %cnt, %c1 : index
    scf.yield %d, %cnt2 : tensor<64x64xf32>, index
  }
  %ci = arith.index_cast %r#1 : index to i32
  %cf = arith.sitofp %ci : i32 to f32
  %cs = tensor.splat %cf : tensor<64x64xf32>
  %o = arith.mulf %r#0, %cs : tensor<64x64xf32>
  tile.store %C[%c0, %c0], %o : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
