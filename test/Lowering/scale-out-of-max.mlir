// RUN: stagecraft-opt %s -tile-factor-scale-out-of-max | FileCheck %s
// RUN: stagecraft-opt %assets/attention_fwd_d128.mlir -tile-factor-scale-out-of-max | FileCheck %s --check-prefix=ATTN

// max(x * c) = max(x) * c for a positive splat c: the reduce reads x, its
// result is scaled (both in the reduce's unit), and the product moves to its
// remaining reader.
// CHECK-LABEL: func.func @positive
// CHECK: %[[C:.*]] = arith.constant dense<5.000000e-01> : tensor<128x128xf32>
// CHECK-NEXT: %[[CR:.*]] = arith.constant dense<5.000000e-01> : tensor<128xf32>
// CHECK: %[[MX:.*]] = tile.reduce max %[[X:.*]], dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[MX]], %[[CR]] {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[M]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[C]]
// CHECK-NEXT: arith.subf %[[P]], %[[B]]
func.func @positive(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %c = arith.constant dense<0.5> : tensor<128x128xf32>
  %p = arith.mulf %x, %c {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
  %m = tile.reduce max %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
  %b = tile.broadcast %m, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
  %d = arith.subf %p, %b {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// A product whose only reader is the max disappears (the constant on the left).
// CHECK-LABEL: func.func @only_the_max
// CHECK-NOT: arith.mulf %{{.*}} : tensor<64x64xf32>
// CHECK: %[[MX:.*]] = tile.reduce max %arg0, dim = 1
// CHECK-NEXT: arith.mulf %[[MX]], %{{.*}} : tensor<64xf32>
func.func @only_the_max(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %c = arith.constant dense<2.0> : tensor<64x64xf32>
  %p = arith.mulf %c, %x : tensor<64x64xf32>
  %m = tile.reduce max %p, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  return %m : tensor<64xf32>
}

// Not rewritten: a negative, zero or non-splat scale, and a sum.
// CHECK-LABEL: func.func @kept
// CHECK: %[[N:.*]] = arith.mulf %arg0, %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce max %[[N]], dim = 1
// CHECK: %[[Z:.*]] = arith.mulf %arg0, %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce max %[[Z]], dim = 1
// CHECK: %[[S:.*]] = arith.mulf %arg0, %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce sum %[[S]], dim = 1
func.func @kept(%x: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %neg = arith.constant dense<-2.0> : tensor<64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %pn = arith.mulf %x, %neg : tensor<64x64xf32>
  %mn = tile.reduce max %pn, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %pz = arith.mulf %x, %zero : tensor<64x64xf32>
  %mz = tile.reduce max %pz, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %c = arith.constant dense<2.0> : tensor<64x64xf32>
  %ps = arith.mulf %x, %c : tensor<64x64xf32>
  %s = tile.reduce sum %ps, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  return %mn, %mz, %s : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// The attention asset: the row maximum of the masked scores, then scaled.
// ATTN: %[[MX:.*]] = tile.reduce max %[[SM:.*]], dim = 1 {tile.sched = #tile.sched<"Softmax"
// ATTN-NEXT: arith.mulf %[[MX]], %{{.*}} {tile.sched = #tile.sched<"Softmax"
// ATTN: %[[SS:.*]] = arith.mulf %[[SM]], %{{.*}} {tile.sched = #tile.sched<"Softmax"
// ATTN-NEXT: arith.subf %[[SS]]
