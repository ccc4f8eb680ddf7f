// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s

// Every elementwise op of the dialect's table lowers to its scalar form on
// each register of the accumulator layout (one warp group, a 64x64 tile:
// 32 f32 per thread), whatever the op: one pattern (patterns/Elementwise.cpp).
func.func @ew(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
              %C: !tile.desc<64x64xf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
              %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %one = arith.constant dense<1.0> : tensor<64x64xf32>
  %e1 = math.exp %r : tensor<64x64xf32>
  %e2 = math.exp2 %e1 : tensor<64x64xf32>
  %e3 = math.log %e2 : tensor<64x64xf32>
  %e4 = math.log2 %e3 : tensor<64x64xf32>
  %e5 = math.tanh %e4 : tensor<64x64xf32>
  %e6 = math.absf %e5 : tensor<64x64xf32>
  %e7 = math.sqrt %e6 : tensor<64x64xf32>
  %e8 = math.rsqrt %e7 : tensor<64x64xf32>
  %e9 = arith.negf %e8 : tensor<64x64xf32>
  %e10 = arith.divf %e9, %one : tensor<64x64xf32>
  %e11 = arith.minimumf %e10, %one : tensor<64x64xf32>
  %e12 = arith.subf %e11, %r : tensor<64x64xf32>
  %c = arith.cmpf ogt, %e12, %one : tensor<64x64xf32>
  %e13 = arith.select %c, %e12, %r : tensor<64x64xi1>, tensor<64x64xf32>
  %h = arith.truncf %e13 : tensor<64x64xf32> to tensor<64x64xf16>
  tile.store %C[%m0, %c0], %h : !tile.desc<64x64xf16>, tensor<64x64xf16>
  return
}
// One per element (32 per thread) of each:
// CHECK-COUNT-32: llvm.nvvm.ex2.approx.ftz.f32
// CHECK-COUNT-32: llvm.nvvm.ex2.approx.ftz.f32
// CHECK-COUNT-32: llvm.nvvm.lg2.approx.ftz.f
// CHECK-COUNT-32: llvm.nvvm.lg2.approx.ftz.f
// CHECK-COUNT-32: tanh.approx.f32
// CHECK-COUNT-32: llvm.intr.fabs
// CHECK-COUNT-32: llvm.nvvm.sqrt.approx.f
// CHECK-COUNT-32: llvm.nvvm.rsqrt.approx.ftz.f
// CHECK-COUNT-32: arith.negf
// f32 division as div.full (the reference's stays IEEE: reference.mlir).
// CHECK-COUNT-32: llvm.nvvm.div.full
// CHECK-COUNT-32: arith.minimumf
// CHECK-COUNT-32: arith.subf
// CHECK-COUNT-32: arith.cmpf ogt
// CHECK-COUNT-32: arith.select
// The f16 result is rounded once per pair where it is staged.
// CHECK-COUNT-16: llvm.fptrunc {{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
