// RUN: stagecraft-opt %s -split-input-file -tile-lower-to-nvvm | FileCheck %s

// A 16-bit tile is staged for its TMA store with stmatrix: each warp's
// 16 rows x 64 columns of the wgmma accumulator layout are 16 8x8
// matrices, four per stmatrix.x4, in the thread's own pairs (no shuffles).
// CHECK-LABEL: llvm.func @bf16_out
// CHECK-NOT: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-COUNT-4: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg1
func.func @bf16_out(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                    %C: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                    %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %o = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %C[%m0, %c0], %o : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
  return
}

// -----

// Eight columns: one column block, its two 8x8 matrices in one stmatrix.x2.
// CHECK-LABEL: llvm.func @narrow_out
// CHECK: nvvm.stmatrix {{.*}} : !llvm.ptr<3>, i32, i32{{$}}
// CHECK-NOT: nvvm.stmatrix
func.func @narrow_out(%A: !tile.desc<64x64xf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                      %B: !tile.desc<8x64xf16> {tile.shape = affine_map<()[N] -> (8, 64)>},
                      %C: !tile.desc<64x8xf16> {tile.shape = affine_map<()[N] -> (N, 8)>},
                      %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x8xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<64x8xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xf16> -> tensor<64x64xf16>
    %b = tile.load %B[%c0, %k] : !tile.desc<8x64xf16> -> tensor<8x64xf16>
    %d = tile.dot %a, %b, %acc {transpose_b} : tensor<64x64xf16>, tensor<8x64xf16> -> tensor<64x8xf32>
    scf.yield %d : tensor<64x8xf32>
  }
  %o = arith.truncf %r : tensor<64x8xf32> to tensor<64x8xf16>
  tile.store %C[%m0, %c0], %o : !tile.desc<64x8xf16>, tensor<64x8xf16>
  return
}

// -----

// f32 has no stmatrix form: pairs of columns as 8-byte stores.
// CHECK-LABEL: llvm.func @f32_out
// CHECK-NOT: nvvm.stmatrix
// CHECK: llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
func.func @f32_out(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                   %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
                   %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %C[%m0, %c0], %r : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
