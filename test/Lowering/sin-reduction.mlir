// RUN: stagecraft-opt %inputs/unseen/sin.mlir -tile-lower-to-nvvm | FileCheck %s

// math.sin: the argument reduced by 2 pi (in two f32 parts through FMAs) twice, then
// sin.approx. One step left |r| past pi from |x| ~ 1e6, where sin.approx is not specified
// (bench/math/sincos_reduction.py).
// CHECK: %[[Q1:.*]] = llvm.fmul %[[X:.*]], %{{.*}} : f32
// CHECK-NEXT: %[[K1:.*]] = llvm.intr.roundeven(%[[Q1]]) : (f32) -> f32
// CHECK-NEXT: %[[N1:.*]] = llvm.fneg %[[K1]] : f32
// CHECK-NEXT: arith.constant 6.28318548 : f32
// CHECK-NEXT: %[[H1:.*]] = llvm.intr.fma(%[[N1]], %{{.*}}, %[[X]])
// CHECK-NEXT: arith.constant -1.74845553E-7 : f32
// CHECK-NEXT: %[[R1:.*]] = llvm.intr.fma(%[[N1]], %{{.*}}, %[[H1]])
// CHECK-NEXT: arith.constant 0.159154937 : f32
// CHECK-NEXT: %[[Q2:.*]] = llvm.fmul %[[R1]], %{{.*}} : f32
// CHECK-NEXT: %[[K2:.*]] = llvm.intr.roundeven(%[[Q2]]) : (f32) -> f32
// CHECK-NEXT: %[[N2:.*]] = llvm.fneg %[[K2]] : f32
// CHECK-NEXT: arith.constant 6.28318548 : f32
// CHECK-NEXT: %[[H2:.*]] = llvm.intr.fma(%[[N2]], %{{.*}}, %[[R1]])
// CHECK-NEXT: arith.constant -1.74845553E-7 : f32
// CHECK-NEXT: %[[R2:.*]] = llvm.intr.fma(%[[N2]], %{{.*}}, %[[H2]])
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%[[R2]])
