// RUN: stagecraft-opt %s | FileCheck %s
// RUN: stagecraft-opt %s | stagecraft-opt | FileCheck %s

// CHECK-LABEL: func.func @ops
// CHECK-SAME: !tile.desc<1x128x64xbf16>
func.func @ops(%d: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[S] -> (2, S, 64)>},
               %S: index {tile.size = "S"})
    attributes {tile.kernel, tile.grid = affine_map<()[S] -> (S ceildiv 128, 2)>,
                tile.defaults = {S = 256 : i64}} {
  // CHECK: tile.program_id 0 : index
  %p = tile.program_id 0 : index
  // CHECK: tile.num_programs 1 : index
  %n = tile.num_programs 1 : index
  %c0 = arith.constant 0 : index
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
  %a = tile.load %d[%c0, %p, %c0] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
  %s = tile.dot %a, %a, %z {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
  // CHECK: tile.mask %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal} : tensor<128x128xf32>
  %m = tile.mask %s, %p, %c0, %S {causal} : tensor<128x128xf32>
  // CHECK: tile.reduce max %{{.*}}, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
  %r = tile.reduce max %m, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
  // CHECK: tile.reduce sum %{{.*}}, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
  %r0 = tile.reduce sum %m, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
  // CHECK: tile.broadcast %{{.*}}, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
  %b = tile.broadcast %r, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
  %bb = arith.truncf %b : tensor<128x64xf32> to tensor<128x64xbf16>
  // CHECK: tile.store %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
  tile.store %d[%c0, %p, %c0], %bb : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
  // CHECK: #tile.sched<"x", stage = 1, order = 2, group = 3, wait = 1>
  %e = arith.addf %s, %s {tile.sched = #tile.sched<"x", stage = 1, order = 2, group = 3, wait = 1>} : tensor<128x128xf32>
  // CHECK: #tile.sched<"y", stage = 0, order = 0, group = 0>}
  %f = arith.addf %e, %e {tile.sched = #tile.sched<"y", stage = 0, order = 0, group = 0, wait = 0>} : tensor<128x128xf32>
  return
}
