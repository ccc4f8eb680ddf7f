
// FP8 outputs and computed FP8 tiles. The kernel rounds by cvt.rn.satfinite (two neighbouring
// columns a conversion, a 2-byte store into the staging tile; a vector's elements a byte
// each); a fake quantization (truncf to FP8, extf back) rounds the same way and decodes. The
// reference rounds on its own (the binade's quantum, roundeven, saturation at 448) and then
// converts the exact value to its byte.
func.func @q(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 256)>},
             %C: !tile.desc<64x64xf8E4M3FN> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %D: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %R: !tile.desc<64xf8E5M2> {tile.shape = affine_map<()[N] -> (N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %q = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xf8E4M3FN>
  tile.store %C[%m0, %c0], %q : !tile.desc<64x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>
  %dq = arith.extf %q : tensor<64x64xf8E4M3FN> to tensor<64x64xbf16>
  tile.store %D[%m0, %c0], %dq : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
  %rs = tile.reduce sum %r, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %r8 = arith.truncf %rs : tensor<64xf32> to tensor<64xf8E5M2>
  tile.store %R[%m0], %r8 : !tile.desc<64xf8E5M2>, tensor<64xf8E5M2>
  return
}

