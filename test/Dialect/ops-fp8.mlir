// RUN: stagecraft-opt %s | FileCheck %s
// RUN: stagecraft-opt %s | stagecraft-opt | FileCheck %s

// FP8 operands, e8m0 block scales, the block-scaled dot and the upcast.

// CHECK-LABEL: func.func @fp8
// CHECK-SAME: !tile.desc<128x128xf8E4M3FN>
// CHECK-SAME: !tile.desc<128x128xf8E5M2>
// CHECK-SAME: !tile.desc<4x128xf8E8M0FNU>
func.func @fp8(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E5M2>,
               %sa: tensor<4x128xf8E8M0FNU>, %sb: tensor<128x4xf8E8M0FNU>,
               %c: tensor<128x128xf32>, %da: !tile.desc<128x128xf8E4M3FN>,
               %db: !tile.desc<128x128xf8E5M2>, %ds: !tile.desc<4x128xf8E8M0FNU>)
    -> (tensor<128x128xf32>, tensor<128x128xbf16>, tensor<128x128xf32>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2> -> tensor<128x128xf32>
  %d = tile.dot %a, %b, %c {transpose_b} : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2> -> tensor<128x128xf32>
  // Scales stored transposed (K/32 x rows), the shape says so.
  // CHECK: tile.upcast %{{.*}}, %{{.*}} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xbf16>
  %u = tile.upcast %a, %sa : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xbf16>
  // CHECK: tile.dot_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU>, tensor<128x128xf8E5M2>, tensor<128x4xf8E8M0FNU> -> tensor<128x128xf32>
  %s = tile.dot_scaled %a, %sa, %b, %sb, %c {transpose_b} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU>, tensor<128x128xf8E5M2>, tensor<128x4xf8E8M0FNU> -> tensor<128x128xf32>
  return %d, %u, %s : tensor<128x128xf32>, tensor<128x128xbf16>, tensor<128x128xf32>
}
