// RUN: stagecraft-opt %s -split-input-file -tile-lower-to-nvvm -verify-diagnostics

// FP8 wgmma reads K-major operands only: an N-major B is refused, with why.
func.func @k(%A: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[N] -> (N, N)>},
             %B: !tile.desc<128x128xf8E4M3FN> {tile.shape = affine_map<()[N] -> (N, N)>},
             %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 2>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %N step %c128 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %a = tile.load %A[%c0, %i] : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %b = tile.load %B[%i, %c0] : !tile.desc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    // expected-error @+1 {{FP8 operands must be K-major on sm_90a (wgmma transposes only 16-bit operands): B is N-major; store B as NxK and add transpose_b}}
    %d = tile.dot %a, %b, %acc : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %o = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %C[%c0, %c0], %o : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
  return
}

// -----

// An e8m0 tile is only loaded: converting a computed tile to e8m0 is refused (FP8 is
// computed and stored: fp8-store.mlir).
func.func @k(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}, tile.warpgroups = array<i64: 2>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %a = tile.load %A[%c0, %i] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  // expected-error @+1 {{e8m0 tiles are only loaded (tile.upcast and tile.dot_scaled read them); computed tiles must be f32, bf16, f16 or FP8, got 'f8E8M0FNU'}}
  %f = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xf8E8M0FNU>
  %o = arith.extf %f : tensor<128x128xf8E8M0FNU> to tensor<128x128xbf16>
  tile.store %C[%c0, %c0], %o : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
  return
}
