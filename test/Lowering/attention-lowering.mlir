// RUN: stagecraft-opt %assets/attention_fwd_d128.mlir -tile-lower-to-nvvm | FileCheck %s

// The default schedule of the d128 attention loop: a producer warp group and
// two consumer warp groups of 64 query rows; Q (32 KiB), then two K and two V
// buffers of 32 KiB after the 1 KiB barrier area.
// CHECK: llvm.func @attn_fwd_d128(%{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: stagecraft.block = 384 : i64, stagecraft.dynamic_smem = 164864

// Full and empty barriers of the 2 + 2 ring buffers, and Q's barrier.
// CHECK-COUNT-9: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.barrier0
// Q is loaded once, as two 128-byte-wide panels of 64 columns.
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %arg0,

// Producer: one elected thread, registers lowered; K and V in two panels each.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %arg1,
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %arg2,

// Consumers: registers raised; MMA0 = Q K^T from shared memory (8 k-steps of
// 16, both operands K-major: trans-b 0), the first step ignoring the
// accumulator (scale-d from a register, 0 then 1).
// CHECK: nvvm.setmaxregister increase 240
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0; }
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// Softmax reads S only after its group retired; the wait passes S through.
// CHECK: "wgmma.wait_group.sync.aligned 0;", "=f,=f,
// Row max and row sum across the 4 lanes of a row, exp2 on the SFU.
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// P goes to bf16 pairs in registers ...
// CHECK: llvm.fptrunc {{.*}} : vector<2xf32> to vector<2xbf16>
// ... and is the register A operand of MMA1 (4 registers per k-step); V is
// MN-major in shared memory (trans-b 1).
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, {{{.*}}}, ${{[0-9]+}}, p, 1, 1, 1; }
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// After the last iteration: every wgmma retired, the output normalized,
// staged over Q once both consumer warp groups are done, stored by TMA.
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: llvm.nvvm.div.full
// CHECK: nvvm.barrier id = {{.*}} number_of_threads = {{.*}}
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
