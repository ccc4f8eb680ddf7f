// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm | FileCheck %s

// The kernel becomes an llvm.func with tensor maps passed by value as grid
// constants, sizes as i32, and launch bounds for setmaxnreg.
// CHECK: llvm.mlir.global external @stagecraft_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK: llvm.func @gemm(%{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// CHECK-SAME: stagecraft.block = 384 : i64, stagecraft.dynamic_smem = 197632 : i64

// Thread 0 prefetches the three tensor maps (A, B, C), then initialises the
// barriers once: full (count 1) and empty (one arrival per consumer warp: 8).
// CHECK-COUNT-3: llvm.inline_asm has_side_effects asm_dialect = att "prefetch.tensormap [$0];", "l"
// CHECK-NOT: prefetch.tensormap
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.barrier0

// Warp specialization: the producer lowers its registers, the consumers
// raise theirs to the legality report's budget.
// CHECK: nvvm.setmaxregister decrease 24
// Producer: wait for a free slot, expect the bytes, issue the TMA load.
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.setmaxregister increase 240
// Consumer: wait for the data, 4 wgmma (K tile 64 / 16), commit, wait to
// the schedule's depth (MMA wait = 1), release the buffers of iteration i-1.
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive
// The last kernel iteration is peeled; all MMAs retire before its results
// leave it. Epilogue: staging written, then one TMA store.
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
