// RUN: stagecraft-opt %s -split-input-file -tile-lower-to-nvvm -verify-diagnostics

// A schedule the legality check rejects is never lowered.
func.func @k(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}, tile.warpgroups = array<i64: 2>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  // expected-error @-8 {{cannot compile an illegal schedule (same-iteration-stage)}}
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %a = tile.load %A[%c0, %i] {tile.sched = #tile.sched<"load", stage = 1, order = 0, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"mma", stage = 0, order = 1, group = 0>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %b = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %C[%c0, %c0], %b : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
  return
}

// -----

// A register A operand must be K-major.
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 64 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %f = arith.extf %a : tensor<64x64xbf16> to tensor<64x64xf32>
    %t = arith.truncf %f : tensor<64x64xf32> to tensor<64x64xbf16>
    // expected-error @+1 {{an A operand in registers must be K-major}}
    %d = tile.dot %t, %a, %acc {transpose_a, transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %C[%c0, %c0], %r : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}

// -----

// A 1-d vector used along the rows and along the columns.
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %V: !tile.desc<64xf32> {tile.shape = affine_map<()[N] -> (64)>},
             %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 64 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %v = tile.load %V[%c0] : !tile.desc<64xf32> -> tensor<64xf32>
  %rows = tile.broadcast %v, dim = 1 : tensor<64xf32> -> tensor<64x64xf32>
  // expected-error @+2 {{this vector is used along the columns here but along the rows elsewhere}}
  // expected-note @-2 {{the other use is here}}
  %cols = tile.broadcast %v, dim = 0 : tensor<64xf32> -> tensor<64x64xf32>
  %s = arith.addf %r, %rows : tensor<64x64xf32>
  %t = arith.addf %s, %cols : tensor<64x64xf32>
  tile.store %C[%c0, %c0], %t : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}

// -----

// Scalar math the element-wise table has no function for (math.ipowi) is refused at the op
// (it failed at LLVM translation, naming a missing dialect interface).
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 256)>},
             %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
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
  %pi = arith.index_cast %pid : index to i32
  // expected-error @+1 {{'math.ipowi' on a scalar of type 'i32' has no lowering}}
  %p = math.ipowi %pi, %pi : i32
  %pf = arith.sitofp %p : i32 to f32
  %sp = tensor.splat %pf : tensor<64x64xf32>
  %o = arith.mulf %r, %sp : tensor<64x64xf32>
  tile.store %C[%m0, %c0], %o : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
