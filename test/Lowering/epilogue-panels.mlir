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
