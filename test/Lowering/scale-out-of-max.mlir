// RUN: stagecraft-opt %s -tile-factor-scale-out-of-max | FileCheck %s
// RUN: stagecraft-opt %assets/attention_fwd_d128.mlir -tile-factor-scale-out-of-max | FileCheck %s --check-prefix=ATTN

// max(x * c) = max(x) * c for a positive splat c: the reduce reads x, its
// result is scaled (both in the reduce's unit), and the product moves to its
// remaining reader. The scores come from a dot (the rewrite fuses
// x * c - max into one fma: only for values where that is safe, below).
// CHECK-LABEL: func.func @positive
// CHECK: %[[C:.*]] = arith.constant dense<5.000000e-01> : tensor<128x128xf32>
// CHECK-NEXT: %[[CR:.*]] = arith.constant dense<5.000000e-01> : tensor<128xf32>
// CHECK: %[[MX:.*]] = tile.reduce max %[[X:.*]], dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[MX]], %[[CR]] {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[M]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[C]]
// CHECK-NEXT: arith.subf %[[P]], %[[B]]
func.func @positive(%a: tensor<128x64xbf16>, %k: tensor<128x64xbf16>) -> tensor<128x128xf32> {
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %x = tile.dot %a, %k, %z {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
  %c = arith.constant dense<0.5> : tensor<128x128xf32>
  %p = arith.mulf %x, %c {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
  %m = tile.reduce max %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
  %b = tile.broadcast %m, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
  %d = arith.subf %p, %b {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// A product whose only reader is the max disappears (the constant on the left).
// Through a select with an infinite or a moderate sentinel (-1e5 * 2).
// CHECK-LABEL: func.func @only_the_max
// CHECK-NOT: arith.mulf %{{.*}} : tensor<64x64xf32>
// CHECK: %[[MX:.*]] = tile.reduce max %[[X:.*]], dim = 1
// CHECK-NEXT: arith.mulf %[[MX]], %{{.*}} : tensor<64xf32>
func.func @only_the_max(%a: tensor<64x64xbf16>, %k: tensor<64x64xbf16>, %ok: tensor<64x64xi1>) -> tensor<64xf32> {
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %a, %k, %z {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  %big = arith.constant dense<-1.0e5> : tensor<64x64xf32>
  %s1 = arith.select %ok, %s, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
  %x = arith.select %ok, %big, %s1 : tensor<64x64xi1>, tensor<64x64xf32>
  %c = arith.constant dense<2.0> : tensor<64x64xf32>
  %p = arith.mulf %c, %x : tensor<64x64xf32>
  %m = tile.reduce max %p, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  return %m : tensor<64xf32>
}

// Not rewritten: a finite sentinel so large that half an ulp of its product
// is not small (-1e30: fused, a fully masked row's exp2(0) = 1 would become
// exp2(+-1e22)), values of unknown origin (an argument), a negative or zero
// scale, and a sum.
// CHECK-LABEL: func.func @sentinel
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce max %[[P]], dim = 1
func.func @sentinel(%a: tensor<64x64xbf16>, %k: tensor<64x64xbf16>, %ok: tensor<64x64xi1>) -> tensor<64xf32> {
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %a, %k, %z {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %huge = arith.constant dense<-1.0e30> : tensor<64x64xf32>
  %x = arith.select %ok, %s, %huge : tensor<64x64xi1>, tensor<64x64xf32>
  %c = arith.constant dense<0.18> : tensor<64x64xf32>
  %p = arith.mulf %x, %c : tensor<64x64xf32>
  %m = tile.reduce max %p, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  return %m : tensor<64xf32>
}

// CHECK-LABEL: func.func @kept
// CHECK: %[[A:.*]] = arith.mulf %arg0, %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce max %[[A]], dim = 1
// CHECK: %[[N:.*]] = arith.mulf %[[S:.*]], %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce max %[[N]], dim = 1
// CHECK: %[[Z:.*]] = arith.mulf %[[S]], %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce max %[[Z]], dim = 1
// CHECK: %[[U:.*]] = arith.mulf %[[S]], %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT: tile.reduce sum %[[U]], dim = 1
func.func @kept(%arg: tensor<64x64xf32>, %a: tensor<64x64xbf16>, %k: tensor<64x64xbf16>)
    -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %two = arith.constant dense<2.0> : tensor<64x64xf32>
  %pa = arith.mulf %arg, %two : tensor<64x64xf32>
  %ma = tile.reduce max %pa, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %x = tile.dot %a, %k, %z {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %neg = arith.constant dense<-2.0> : tensor<64x64xf32>
  %pn = arith.mulf %x, %neg : tensor<64x64xf32>
  %mn = tile.reduce max %pn, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %pz = arith.mulf %x, %z : tensor<64x64xf32>
  %mz = tile.reduce max %pz, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %ps = arith.mulf %x, %two : tensor<64x64xf32>
  %s = tile.reduce sum %ps, dim = 1 : tensor<64x64xf32> -> tensor<64xf32>
  return %ma, %mn, %mz, %s : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// The attention asset: the row maximum of the masked scores, then scaled.
// ATTN: %[[MX:.*]] = tile.reduce max %[[SM:.*]], dim = 1 {tile.sched = #tile.sched<"Softmax"
// ATTN-NEXT: arith.mulf %[[MX]], %{{.*}} {tile.sched = #tile.sched<"Softmax"
// ATTN: %[[SS:.*]] = arith.mulf %[[SM]], %{{.*}} {tile.sched = #tile.sched<"Softmax"
// ATTN-NEXT: arith.subf %[[SS]]
