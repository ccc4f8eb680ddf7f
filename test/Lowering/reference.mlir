// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-reference | FileCheck %s
// RUN: stagecraft-opt %assets/attention_fwd_d128_causal.mlir -tile-lower-reference | FileCheck %s --check-prefix=ATTN

// The reference kernel: the kernel's parameters with descriptors as global
// pointers, then the scratch and `reorder`; one block of 256 threads per
// program at a time; no shared memory, no wgmma, no TMA, no mbarrier.
// CHECK: llvm.func @gemm_reference(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr<1>, %[[REORDER:.*]]: i32)
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME: stagecraft.scratch_per_block = {{[0-9]+}}
// `reorder` non-zero runs every sum backwards (the runner's second run).
// CHECK: %[[REV:.*]] = arith.cmpi ne, %[[REORDER]], %{{.*}} : i32
// The dot: a loop over K of fused multiply-adds on fp32 slots, step k or
// K - 1 - k.
// CHECK: scf.for %[[K:[a-z0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[BACK:.*]] = arith.subi %{{.*}}, %[[K]] : i32
// CHECK: arith.select %[[REV]], %[[BACK]], %[[K]] : i32
// CHECK: llvm.intr.fma
// CHECK: nvvm.barrier0
// CHECK-NOT: wgmma
// CHECK-NOT: cp.async.bulk.tensor
// CHECK-NOT: mbarrier

// The attention's mask and softmax element by element; exp2 in the plain
// (not flush-to-zero) approximation.
// ATTN: llvm.func @attn_fwd_d128_causal_reference
// ATTN: llvm.nvvm.ex2.approx.f32
// ATTN-NOT: ex2.approx.ftz
// The normalization O / l divides as IEEE (arith.divf: div.rn.f32), where the
// pipelined kernel takes div.full (ops-elementwise.mlir): the two lowerings do
// not share an approximation.
// ATTN: arith.divf %{{.*}}, %{{.*}} : f32
// ATTN-NOT: llvm.nvvm.div.full
