// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s

// Tiles made from scalars: tile.iota rows and columns (views until
// combined), tensor.splat of scalar math (an ALiBi-style slope from the
// program id), a comparison and a select: a mask written in IR.
func.func @idx(%A: !tile.desc<64x64xf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
               %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
               %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %rows = tile.iota %m0, dim = 0 : tensor<64x64xi32>
  %cols = tile.iota %c0, dim = 1 : tensor<64x64xi32>
  %rel = arith.subi %cols, %rows : tensor<64x64xi32>
  %relf = arith.sitofp %rel : tensor<64x64xi32> to tensor<64x64xf32>
  %p32 = arith.index_cast %pid : index to i32
  %pf = arith.sitofp %p32 : i32 to f32
  %e = math.exp2 %pf : f32
  %slope = tensor.splat %e : tensor<64x64xf32>
  %bias = arith.mulf %relf, %slope : tensor<64x64xf32>
  %zi = arith.constant dense<0> : tensor<64x64xi32>
  %keep = arith.cmpi sge, %rel, %zi : tensor<64x64xi32>
  %s = arith.addf %r, %bias : tensor<64x64xf32>
  %m = arith.select %keep, %s, %z : tensor<64x64xi1>, tensor<64x64xf32>
  tile.store %C[%m0, %c0], %m : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
// f16 operands: the f16 form of wgmma.
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// A store panel (32 f32 columns) at a time, 16 of the thread's 32 elements
// each: the row minus column index, converted; then the scalar slope (exp2
// of the program id, where first used) scales them.
// CHECK-COUNT-16: arith.sitofp {{.*}} : i32 to f32
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.nvvm.ex2.approx.ftz.f32
// CHECK-COUNT-16: arith.mulf {{.*}} : f32
// CHECK-COUNT-16: arith.cmpi sge
// CHECK-COUNT-16: arith.select
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-COUNT-16: arith.sitofp {{.*}} : i32 to f32
// CHECK: llvm.nvvm.ex2.approx.ftz.f32
// CHECK-COUNT-16: arith.mulf {{.*}} : f32
// CHECK-COUNT-16: arith.cmpi sge
// CHECK-COUNT-16: arith.select
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: arith.select
