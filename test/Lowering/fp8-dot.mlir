// RUN: stagecraft-opt %assets/fp8_gemm.mlir -tile-lower-to-nvvm | FileCheck %s
// RUN: stagecraft-opt %assets/fp8_gemm.mlir -tile-lower-reference | FileCheck %s --check-prefix=REF

// An FP8 (e4m3) GEMM: the same pipeline as bf16, wgmma m64n256k32 on e4m3,
// a K tile of 128 FP8 elements = 4 k steps of 32 bytes along the 128-byte
// swizzled rows, no transpose immediates (K-major only).
// CHECK: llvm.func @fp8_gemm(
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.setmaxregister increase 240
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {{.*}} p, 1, 1; }
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// The per-tensor scales: element 0 of each scale tile, read from its shared
// memory after the loop, multiplied into the accumulator before the bf16
// conversion and the store.
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.mulf
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta

// The reference reads the FP8 bytes and converts them exactly (through an
// f16 bit pattern scaled by 2^8), and reads the scales as f32.
// REF: llvm.func @fp8_gemm_reference
// REF: llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// REF: arith.bitcast %{{.*}} : i16 to f16
// REF: arith.mulf %{{.*}}, %cst{{.*}} : f32
// REF: llvm.intr.fma
// REF-NOT: wgmma
