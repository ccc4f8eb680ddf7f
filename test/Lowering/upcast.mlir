// RUN: stagecraft-opt %assets/mxfp8_gemm.mlir -tile-split-dot-scaled | FileCheck %s --check-prefix=SPLIT
// RUN: stagecraft-opt %assets/mxfp8_gemm.mlir -tile-lower-to-nvvm | FileCheck %s
// RUN: stagecraft-opt %assets/mxfp8_gemm_upcast.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=UNIT
// RUN: stagecraft-opt %assets/mxfp8_gemm.mlir -tile-lower-reference | FileCheck %s --check-prefix=REF

// sm_90a runs tile.dot_scaled as its definition: two upcasts to bf16 in a
// unit of their own named after the dot's, in its stage, and a bf16 dot.
// SPLIT: tile.upcast %{{.*}}, %{{.*}} {tile.sched = #tile.sched<"MMA.upcast", stage = 2, order = 0, group = 1>} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xbf16>
// SPLIT: tile.upcast %{{.*}}, %{{.*}} {tile.sched = #tile.sched<"MMA.upcast", stage = 2, order = 0, group = 1>} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xbf16>
// SPLIT: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>, transpose_b} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
// SPLIT-NOT: tile.dot_scaled

// The scale tiles are TMA loads on rings of their own (four loads by the
// producer per iteration); the upcast of B waits for its dot of two
// iterations back (its ring of 3 copies), converts 16-byte chunks into the
// bf16 ring and meets the other consumers at named barrier 2 behind a proxy
// fence; A is upcast into registers and fed to a register-A wgmma.
// CHECK: llvm.func @mxfp8_gemm(
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.setmaxregister increase
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}} {$64, $65, $66, $67}, $68, p, 1, 1, 0; }
// CHECK: nvvm.wgmma.commit.group.sync.aligned

// With the upcasts a unit of their own one stage ahead, the bf16 A crosses
// the stage in registers (packed pairs) and B's ring has 4 copies.
// UNIT: llvm.func @mxfp8_gemm_upcast(
// UNIT: scf.for
// UNIT: nvvm.fence.proxy
// UNIT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// The reference: a K-loop of fused multiply-adds of the scaled values.
// REF: llvm.func @mxfp8_gemm_reference
// REF: scf.for
// REF: arith.mulf
// REF: arith.mulf
// REF: llvm.intr.fma
// REF-NOT: wgmma
