// RUN: stagecraft-opt %s -split-input-file -tile-lower-to-nvvm=target=sm_100a -verify-diagnostics

// sm_100a keeps the accumulators in tensor memory for the whole loop: a loop
// whose register math reads a dot result (attention) is refused, with why.
func.func @k(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}, tile.warpgroups = array<i64: 1, 2>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %two = arith.constant dense<2.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %a = tile.load %A[%c0, %i] {tile.sched = #tile.sched<"load", stage = 0, order = 0, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"mma", stage = 1, order = 1, group = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    // expected-error @+1 {{tile-lower-to-nvvm (sm_100a): the pipelined loop may hold loads and dots only (the accumulators stay in tensor memory); 'scale' computes in registers, which is not lowered for sm_100a yet}}
    %s = arith.mulf %d, %two {tile.sched = #tile.sched<"scale", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
    scf.yield %s : tensor<128x128xf32>
  }
  %o = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %C[%c0, %c0], %o : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
  return
}

// -----

// One M = 128 tcgen05.mma per dot: a 64-row tile is refused.
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %C: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{on sm_100a the consumer tile must have 128 rows (one M = 128 tcgen05.mma), got 64}}
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%c0, %i] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %o = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %C[%c0, %c0], %o : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
  return
}
