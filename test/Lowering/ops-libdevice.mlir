// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s
// RUN: stagecraft-opt %s -tile-lower-reference | FileCheck %s --check-prefix=REF

// Math with no PTX instruction calls CUDA's libdevice (patterns/Elementwise.cpp; the back
// end links it in and inlines it): the kernel its f32 function on each register, the
// reference its f64 one on the widened element. The classifications and copysign are exact
// in both, one compare or intrinsic.
func.func @ld(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
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
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %two = arith.constant dense<2.0> : tensor<64x64xf32>
  %e1 = math.erf %r : tensor<64x64xf32>
  %e2 = math.powf %e1, %two : tensor<64x64xf32>
  %e3 = arith.remf %e2, %two : tensor<64x64xf32>
  %e4 = math.copysign %e3, %r : tensor<64x64xf32>
  %e5 = math.roundeven %e4 : tensor<64x64xf32>
  %n = math.isnan %e5 : tensor<64x64xf32>
  %e6 = arith.select %n, %two, %e5 : tensor<64x64xi1>, tensor<64x64xf32>
  tile.store %C[%m0, %c0], %e6 : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
// CHECK-DAG: llvm.func @__nv_erff(f32) -> f32
// CHECK-DAG: llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-DAG: llvm.func @__nv_fmodf(f32, f32) -> f32
// After the loop the math is made a store panel at a time (an f32 tile: two panels of 32
// columns), 16 of the thread's 32 registers each.
// CHECK-COUNT-16: llvm.call @__nv_erff
// CHECK-COUNT-16: llvm.call @__nv_powf
// CHECK-COUNT-16: llvm.call @__nv_fmodf
// CHECK-COUNT-16: llvm.intr.copysign
// CHECK-COUNT-16: llvm.intr.roundeven
// CHECK-COUNT-16: llvm.fcmp "uno"
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-COUNT-16: llvm.call @__nv_erff
// CHECK-COUNT-16: llvm.call @__nv_powf
// CHECK-COUNT-16: llvm.call @__nv_fmodf
// CHECK-COUNT-16: llvm.intr.copysign
// CHECK-COUNT-16: llvm.intr.roundeven
// CHECK-COUNT-16: llvm.fcmp "uno"
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: llvm.call @__nv_erff

// REF-DAG: llvm.func @__nv_erf(f64) -> f64
// REF-DAG: llvm.func @__nv_pow(f64, f64) -> f64
// REF-DAG: llvm.func @__nv_fmod(f64, f64) -> f64
// REF: llvm.fpext {{.*}} : f32 to f64
// REF-NEXT: llvm.call @__nv_erf
// REF-NEXT: llvm.fptrunc {{.*}} : f64 to f32
// REF: llvm.call @__nv_pow
// REF: llvm.call @__nv_fmod
