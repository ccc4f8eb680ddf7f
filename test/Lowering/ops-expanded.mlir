// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s
// RUN: stagecraft-opt %s -tile-lower-reference | FileCheck %s --check-prefix=REF

// Ops both lowerings take in an expanded form (Normalize.cpp, MLIR's own expansions):
// clampf as a minimum and a maximum, fpowi as multiplies (a constant power) or powf of the
// converted power, sincos as a sin and a cos, ceildivsi/floordivsi as a division and a
// correction. In the loop the expansion stays in the op's unit ("Clamp": the same stage and
// warp group as before). Integer bit counts and absi are one intrinsic each.
func.func @ex(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 256)>},
              %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
              %D: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
              %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %lo = arith.constant dense<-1.0> : tensor<64x64xf32>
  %hi = arith.constant dense<1.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %z {transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 1, group = 0>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %c = math.clampf %d to [%lo, %hi] {tile.sched = #tile.sched<"Clamp", stage = 1, order = 2, group = 0>} : tensor<64x64xf32>
    %s = arith.addf %acc, %c {tile.sched = #tile.sched<"Clamp", stage = 1, order = 2, group = 0>} : tensor<64x64xf32>
    scf.yield %s : tensor<64x64xf32>
  }
  %three = arith.constant dense<3> : tensor<64x64xi32>
  %cols = tile.iota %c0, dim = 1 : tensor<64x64xi32>
  %p3 = math.fpowi %r, %three : tensor<64x64xf32>, tensor<64x64xi32>
  %cm = arith.remsi %cols, %three : tensor<64x64xi32>
  %pc = math.fpowi %p3, %cm : tensor<64x64xf32>, tensor<64x64xi32>
  %sin, %cos = math.sincos %pc : tensor<64x64xf32>
  %sc = arith.addf %sin, %cos : tensor<64x64xf32>
  tile.store %C[%m0, %c0], %sc : !tile.desc<64x64xf32>, tensor<64x64xf32>
  %rows = tile.iota %m0, dim = 0 : tensor<64x64xi32>
  %diff = arith.subi %cols, %rows : tensor<64x64xi32>
  %cd = arith.ceildivsi %diff, %three : tensor<64x64xi32>
  %fd = arith.floordivsi %diff, %three : tensor<64x64xi32>
  %pop = math.ctpop %cd : tensor<64x64xi32>
  %lz = math.ctlz %fd : tensor<64x64xi32>
  %tz = math.cttz %pop : tensor<64x64xi32>
  %ab = math.absi %diff : tensor<64x64xi32>
  %i1 = arith.addi %lz, %tz : tensor<64x64xi32>
  %i2 = arith.addi %i1, %ab : tensor<64x64xi32>
  %f = arith.sitofp %i2 : tensor<64x64xi32> to tensor<64x64xf32>
  tile.store %D[%m0, %c0], %f : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
// CHECK-NOT: math.
// CHECK-NOT: __nv_sinf
// CHECK-DAG: llvm.func @__nv_powf(f32, f32) -> f32
// The clamp in the loop, before the accumulation: a minimum and a maximum of each register.
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: arith.addf
// After the loop, a store panel (32 f32 columns) at a time: 16 registers each.
// sin and cos: the argument reduced by 2 pi in two FMAs, then sin.approx and cos.approx.
// CHECK-COUNT-16: llvm.call @__nv_powf
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.nvvm.cos.approx.f"
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-COUNT-16: llvm.call @__nv_powf
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: arith.divsi
// CHECK: llvm.intr.ctpop
// CHECK: llvm.intr.ctlz
// CHECK: llvm.intr.cttz
// CHECK: llvm.intr.abs

// REF-NOT: math.
// REF-DAG: llvm.func @__nv_pow(f64, f64) -> f64
// REF-DAG: llvm.func @__nv_sin(f64) -> f64
// REF-DAG: llvm.func @__nv_cos(f64) -> f64
// REF: arith.minimumf
// REF: arith.maximumf
// REF: llvm.call @__nv_pow
// REF: llvm.call @__nv_sin
// REF: llvm.call @__nv_cos
// REF: llvm.intr.ctpop
