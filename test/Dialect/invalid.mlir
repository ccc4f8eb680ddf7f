// RUN: stagecraft-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: tensor<128x64xbf16>, %b: tensor<128x64xbf16>, %c: tensor<96x128xf32>) {
  // expected-error @+1 {{accumulator must be 128x128, got 96x128}}
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<96x128xf32>
  return
}

// -----

func.func @f(%a: tensor<96x64xbf16>, %b: tensor<128x64xbf16>, %c: tensor<96x128xf32>) {
  // expected-error @+1 {{M = 96 cannot map to wgmma: M must be 64, 128, 192 or 256}}
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<96x64xbf16>, tensor<128x64xbf16> -> tensor<96x128xf32>
  return
}

// -----

func.func @f(%a: tensor<64x24xbf16>, %b: tensor<64x24xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{K = 24 cannot map to wgmma: K must be a multiple of 16}}
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<64x24xbf16>, tensor<64x24xbf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @f(%a: tensor<64x64xbf16>, %b: tensor<64x300xbf16>, %c: tensor<64x300xf32>) {
  // expected-error @+1 {{N = 300 cannot map to wgmma: N must be a multiple of 8 from 8 to 256}}
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16>, tensor<64x300xbf16> -> tensor<64x300xf32>
  return
}

// -----

func.func @f(%a: tensor<64x64xbf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{operands must both be bf16, both f16, or both FP8 (f8E4M3FN or f8E5M2), got 'bf16' and 'f16'}}
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @f(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xbf16>) {
  // expected-error @+1 {{accumulator must be f32, got 'bf16'}}
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xbf16>
  return
}

// -----

func.func @f(%a: tensor<64x64xbf16>, %b: tensor<32x64xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{contraction sizes differ: a gives M = 64, K = 64 (a is MxK), b gives K = 32 (b is KxN; add transpose_b if it is NxK)}}
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
  return
}

// -----

// expected-error @+1 {{TMA box dimensions must be 1 to 256, got 512}}
func.func @f(%d: !tile.desc<512x64xbf16>) { return }

// -----

// expected-error @+1 {{TMA box inner dimension must span a multiple of 16 bytes, got 6 bytes}}
func.func @f(%d: !tile.desc<64x3xbf16>) { return }

// -----

// expected-error @+1 {{tensor descriptor element type must be bf16, f16, f32, i32 (tables of indices), f8E4M3FN, f8E5M2 (FP8 operands) or f8E8M0FNU (block scales), got 'i8'}}
func.func @f(%d: !tile.desc<64x64xi8>) { return }

// -----

func.func @f(%d: !tile.desc<1x128x64xbf16>, %i: index) {
  // expected-error @+1 {{result shape (64x64) must equal the descriptor box without leading unit dims (128x64)}}
  %a = tile.load %d[%i, %i, %i] : !tile.desc<1x128x64xbf16> -> tensor<64x64xbf16>
  return
}

// -----

func.func @f(%d: !tile.desc<128x64xbf16>, %i: index) {
  // expected-error @+1 {{takes 2 coordinates for a rank-2 descriptor, got 1}}
  %a = tile.load %d[%i] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
  return
}

// -----

func.func @f(%d: !tile.desc<128x64xbf16>, %i: index, %v: tensor<128x64xf16>) {
  // expected-error @+1 {{stored value element type 'f16' differs from the descriptor's 'bf16'}}
  tile.store %d[%i, %i], %v : !tile.desc<128x64xbf16>, tensor<128x64xf16>
  return
}

// -----

func.func @f(%s: tensor<128x128xf32>) {
  // expected-error @+1 {{result must be 'tensor<128xf32>'}}
  %r = tile.reduce max %s, dim = 1 : tensor<128x128xf32> -> tensor<64xf32>
  return
}

// -----

func.func @f(%s: tensor<128xf32>) {
  // expected-error @+1 {{result shape without dim 1 must equal the input shape}}
  %r = tile.broadcast %s, dim = 1 : tensor<128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @f(%s: tensor<128x128xf32>) {
  // expected-error @+1 {{schedule stage must be 0 to 64, got 99}}
  %e = arith.addf %s, %s {tile.sched = #tile.sched<"x", stage = 99, order = 0, group = 0>} : tensor<128x128xf32>
  return
}

// -----

func.func @f(%s: tensor<128x128xf32>) {
  // expected-error @+1 {{`tile.sched` must be a #tile.sched<...> attribute}}
  %e = arith.addf %s, %s {tile.sched = 3} : tensor<128x128xf32>
  return
}

// -----

// expected-error @+1 {{kernel argument #0 (index) needs a `tile.size = "NAME"` attribute}}
func.func @k(%n: index) attributes {tile.kernel, tile.grid = affine_map<()[] -> (1)>} { return }

// -----

// expected-error @+1 {{tile.shape of argument #0 must be an affine map over the 1 kernel sizes as symbols}}
func.func @k(%d: !tile.desc<64x64xbf16> {tile.shape = affine_map<(d0) -> (d0, d0)>}, %n: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>, tile.defaults = {N = 1 : i64}} { return }

// -----

// expected-error @+1 {{tile.defaults needs an integer default for size "N"}}
func.func @k(%n: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>} { return }

// -----

// expected-error @+1 {{kernel argument #0 has type 'f32'; a tile kernel takes tensor descriptors and index sizes}}
func.func @k(%x: f32) attributes {tile.kernel, tile.grid = affine_map<() -> (1)>} { return }

// -----

// expected-error @+1 {{each schedule group has 1 to 4 warp groups, got 9}}
func.func @k() attributes {tile.kernel, tile.grid = affine_map<() -> (1)>, tile.warpgroups = array<i64: 9>} { return }

// -----

// expected-error @+1 {{unregistered operation 'tile.frobnicate'}}
"tile.frobnicate"() : () -> ()

// -----

func.func @f(%a: tensor<?x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<?x64xf32>) {
  // expected-error @+1 {{tile shapes must be static and non-empty, got 'tensor<?x64xbf16>'}}
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<?x64xbf16>, tensor<64x64xbf16> -> tensor<?x64xf32>
  return
}

// -----

// expected-error @+1 {{`tile.warpgroups` needs `tile.kernel` on the same op}}
func.func @f() attributes {tile.warpgroups = array<i64: 1>} { return }

// -----

// expected-error @+1 {{`tile.registers` needs `tile.kernel` on the same op}}
func.func @f() attributes {tile.registers = array<i64: 40, 232>} { return }

// -----

// expected-error @+1 {{`tile.registers`: the budget of schedule group 1 is 300, outside 0..256 (0: the default share)}}
func.func @k() attributes {tile.kernel, tile.grid = affine_map<() -> (1)>, tile.registers = array<i64: 40, 300>} { return }

// -----

// expected-error @+1 {{`tile.registers` must be array<i64: ...> with one register budget per schedule group (0: the default share), 1 to 8 entries}}
func.func @k() attributes {tile.kernel, tile.grid = affine_map<() -> (1)>, tile.registers = [40, 232]} { return }

// -----

// expected-error @+1 {{`tile.registers` must be array<i64: ...> with one register budget per schedule group (0: the default share), 1 to 8 entries}}
func.func @k() attributes {tile.kernel, tile.grid = affine_map<() -> (1)>, tile.registers = array<i64>} { return }

// -----

func.func @f(%s: tensor<128x128xf32>) {
  // expected-error @+1 {{schedule order must be 0 to 1048576, got 5000000}}
  %e = arith.addf %s, %s {tile.sched = #tile.sched<"x", stage = 0, order = 5000000, group = 0>} : tensor<128x128xf32>
  return
}

// -----

func.func @f(%a: tensor<64x48xf8E4M3FN>, %b: tensor<64x48xf8E4M3FN>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{K = 48 cannot map to wgmma: K must be a multiple of 32 for FP8 operands (32 bytes per wgmma k step)}}
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<64x48xf8E4M3FN>, tensor<64x48xf8E4M3FN> -> tensor<64x64xf32>
  return
}

// -----

func.func @f(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{operands must both be bf16, both f16, or both FP8 (f8E4M3FN or f8E5M2), got 'f8E4M3FN' and 'bf16'}}
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<64x64xf8E4M3FN>, tensor<64x64xbf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @f(%a: tensor<128x128xf8E4M3FN>, %s: tensor<128x8xf8E8M0FNU>) {
  // expected-error @+1 {{the scale tile must be 128x4 (or 4x128 stored transposed) for a 128x128 tile, got 128x8}}
  %u = tile.upcast %a, %s : tensor<128x128xf8E4M3FN>, tensor<128x8xf8E8M0FNU> -> tensor<128x128xbf16>
  return
}

// -----

func.func @f(%a: tensor<4x128xf8E4M3FN>, %s: tensor<4x4xf8E8M0FNU>) {
  // expected-error @+1 {{the scale tile 4x4 is ambiguous: a 4x128 tile's scales read the same either way round; use a tile with more rows}}
  %u = tile.upcast %a, %s : tensor<4x128xf8E4M3FN>, tensor<4x4xf8E8M0FNU> -> tensor<4x128xbf16>
  return
}

// -----

func.func @f(%a: tensor<128x128xbf16>, %s: tensor<128x4xf8E8M0FNU>) {
  // expected-error @+1 {{input must be FP8 (f8E4M3FN or f8E5M2), got 'bf16'}}
  %u = tile.upcast %a, %s : tensor<128x128xbf16>, tensor<128x4xf8E8M0FNU> -> tensor<128x128xbf16>
  return
}

// -----

func.func @f(%a: tensor<128x128xf8E4M3FN>, %s: tensor<128x4xf32>) {
  // expected-error @+1 {{the scale tile must hold f8E8M0FNU (e8m0) scales, got 'f32'}}
  %u = tile.upcast %a, %s : tensor<128x128xf8E4M3FN>, tensor<128x4xf32> -> tensor<128x128xbf16>
  return
}

// -----

func.func @f(%a: tensor<128x128xf8E4M3FN>, %sa: tensor<128x4xf8E8M0FNU>, %b: tensor<128x128xf8E4M3FN>,
             %sb: tensor<128x4xf8E8M0FNU>, %c: tensor<128x128xf32>) {
  // expected-error @+1 {{b must be NxK with transpose_b: the scale blocks run along K, which must be the contiguous dimension of both operands}}
  %d = tile.dot_scaled %a, %sa, %b, %sb, %c : tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU> -> tensor<128x128xf32>
  return
}

// -----

func.func @f(%a: tensor<128x128xf8E4M3FN>, %sa: tensor<128x4xf8E8M0FNU>, %b: tensor<64x128xf8E4M3FN>,
             %sb: tensor<128x4xf8E8M0FNU>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{b_scale must be 64x4 (or 4x64 stored transposed) for a 64x128 tile, got 128x4}}
  %d = tile.dot_scaled %a, %sa, %b, %sb, %c {transpose_b} : tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU>, tensor<64x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU> -> tensor<128x64xf32>
  return
}

// -----

// expected-error @+1 {{tensor descriptor element type must be bf16, f16, f32, i32 (tables of indices), f8E4M3FN, f8E5M2 (FP8 operands) or f8E8M0FNU (block scales), got 'f8E4M3'}}
func.func @f(%d: !tile.desc<64x64xf8E4M3>) { return }

// -----

// A kernel's name is a PTX symbol (NVPTX aborted on a '-', ptxas rejected a '.').
// expected-error @+1 {{a kernel's name must be a PTX identifier: letters, digits, '_' or '$', not starting with a digit; got @"gemm-v2"}}
func.func @"gemm-v2"(%n: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>, tile.defaults = {N = 1 : i64}} { return }

// -----

// expected-error @+1 {{a kernel's name must be a PTX identifier: letters, digits, '_' or '$', not starting with a digit; got @"gemm.x"}}
func.func @"gemm.x"(%n: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>, tile.defaults = {N = 1 : i64}} { return }

// -----

// Index constants are computed with in 32 bits: a step of 2^32 + 64 ran as 64.
func.func @k(%n: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>, tile.defaults = {N = 1 : i64}} {
  // expected-error @+1 {{an index constant must fit in 32 bits (the kernel computes coordinates, bounds and steps in i32), got 4294967360}}
  %c = arith.constant 4294967360 : index
  return
}
