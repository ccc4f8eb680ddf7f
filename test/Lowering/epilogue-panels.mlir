// RUN: stagecraft-opt %inputs/unseen/persistent-pingpong-residual.mlir -tile-lower-to-nvvm | FileCheck %s

// The epilogue C = A B^T + R is made a store panel at a time
// (ConsumerLoop.cpp, findPanelOps): each team's thread holds 128 elements of
// the 128x128 tile; of R it reads from shared memory the 64 of a panel's
// columns, adds them, writes the panel (stmatrix) and stores it, then the
// next panel's 64. Made whole before the first panel, all 128 of R and of
// the sums were live beside the accumulators and ptxas spilled 584 bytes.
// CHECK-LABEL: llvm.func @persistent_pingpong_residual
// CHECK-COUNT-64: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
// CHECK: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// CHECK-COUNT-64: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
// CHECK: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
// CHECK: llvm.return

// RUN: stagecraft-opt %inputs/unseen/narrow-tile-epilogue.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=NARROW
// A 24-column tile (one panel of 24, not a multiple of the 16-column
// chunk): both chunks written, columns 0-15 by one stmatrix.x4 and 16-23 by
// an x2, before the store. Rounding the chunk count down left 16-23 unwritten
// (the fifth held-out sweep's g15: stale output, no warning).
// The thread's 12 elements of 2 * acc: 8 for the first chunk, 4 for the
// second (8 only, before: the x2 wrote poison).
// NARROW-COUNT-8: arith.mulf {{.*}} : f32
// NARROW: nvvm.stmatrix %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {
// NARROW-COUNT-4: arith.mulf {{.*}} : f32
// NARROW: nvvm.stmatrix %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {
// NARROW: nvvm.cp.async.bulk.tensor.global.shared.cta

// Stores with the same panels that share element-wise math are stored panel by panel in turn
// (emitStoreGroup): stored one after the other, LLVM made the shared math once and kept the
// first store's values of every panel live until the second's (the fifth sweep's B2 spills).
// RUN: stagecraft-opt %inputs/unseen/two-stores-shared.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=TURNS
// RUN: stagecraft-opt %inputs/unseen/two-stores-shared-exp.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=TURNS
// TURNS: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// TURNS: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3
// TURNS: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// TURNS: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3
// TURNS-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// With other panels (a bf16 and an f32 output), one after the other: sharing cheap math, the
// second reads the accumulators through opaque copies (64 a thread: a 128x128 tile over two warp
// groups), so LLVM cannot merge its math with the first's; sharing a transcendental (a sigmoid),
// it reads them as they are: the merge's spills cost less than making the exponentials twice
// (bench/results/opaque-reads-h200-2026-11-28).
// RUN: stagecraft-opt %inputs/unseen/two-stores-shared-f32.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=OPAQUE
// OPAQUE: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// OPAQUE: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// OPAQUE-COUNT-64: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %{{[0-9]+}} : (i32) -> i32
// OPAQUE: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3
// RUN: stagecraft-opt %inputs/unseen/two-stores-shared-exp-f32.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=SHARED
// SHARED: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// SHARED: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2
// SHARED: "mov.b32 $0, $1;", "=r,r" %{{[0-9]+}}
// SHARED-NOT: "mov.b32 $0, $1;"
// SHARED: nvvm.cp.async.bulk.tensor.global.shared.cta %arg3

// A persistent kernel whose epilogue makes a whole tile (acc * 2, stored and row-reduced): its
// zero-started accumulators start each tile as one opaque zero, not undef: left undef, their
// first reader was the next tile's first wgmma, and ptxas kept the last tile's accumulators
// live through the epilogue beside what it made from them (the fifth sweep's B3: 324-340 bytes
// of spills, none now: test/Compile/epilogue-registers.test). An epilogue made a store panel at
// a time (column sums of acc itself) keeps them undef (the moves cost up to 1.3%).
// RUN: stagecraft-opt %bench/unseen/sweep-2026-11-28e/m_pp_store_and_reduce.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=ACCINIT
// RUN: stagecraft-opt %inputs/unseen/pingpong-colreduce.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=NOINIT
// ACCINIT: %[[BITS:[0-9]+]] = llvm.bitcast %cst{{[_0-9]*}} : f32 to i32
// ACCINIT-NEXT: %[[HIDDEN:[0-9]+]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %[[BITS]]
// ACCINIT-NEXT: %[[ACC0:[0-9]+]] = llvm.bitcast %[[HIDDEN]] : i32 to f32
// ACCINIT: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC0]], %{{.*}} = %[[ACC0]],
// NOINIT: %[[UNDEF:[0-9]+]] = llvm.mlir.undef : f32
// NOINIT-NOT: llvm.inline_asm
// NOINIT: scf.for {{.*}} iter_args(%{{.*}} = %[[UNDEF]], %{{.*}} = %[[UNDEF]],

// An accumulator started from a tile loaded before the loop (C += A B^T, the third held-out
// sweep's x01): with no iterations the results are that tile, read again from shared memory,
// where it still is; passing the registers read before the loop through, LLVM made the branch a
// select after the loop and kept them live through it (180 bytes of spills, 64 now).
// RUN: stagecraft-opt %bench/unseen/sweep-2026-11-28c/x01-acc-init-load.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=LOADEDINIT
// LOADEDINIT: llvm.extractvalue %{{[0-9]+}}[127]
// LOADEDINIT-NEXT: scf.yield
// LOADEDINIT-NEXT: } else {
// LOADEDINIT-COUNT-128: llvm.load %{{[0-9]+}} : !llvm.ptr<3> -> f32
// LOADEDINIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// LOADEDINIT-NEXT: scf.yield
