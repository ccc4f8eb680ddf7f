// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s

// Row reductions and broadcasts, 1-d vectors loaded by TMA (a column bias
// read from shared memory into registers) and stored (a row vector: one
// lane of each row's quad writes it; TMA stores the 1-d box).
func.func @vec(%A: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[N] -> (64, N)>},
               %B: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (64, 64)>},
               %Bias: !tile.desc<64xf32> {tile.shape = affine_map<()[N] -> (64)>},
               %Rmax: !tile.desc<128xf32> {tile.shape = affine_map<()[N] -> (N)>},
               %C: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
               %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 128)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 2>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c128 : index
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<128x64xf32>) {
    %a = tile.load %A[%k, %m0] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
    %b = tile.load %B[%c0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %b, %acc {transpose_a, transpose_b} : tensor<64x128xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %bias = tile.load %Bias[%c0] : !tile.desc<64xf32> -> tensor<64xf32>
  %bb = tile.broadcast %bias, dim = 0 : tensor<64xf32> -> tensor<128x64xf32>
  %s = arith.addf %r, %bb : tensor<128x64xf32>
  %mx = tile.reduce max %s, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
  %sum = tile.reduce sum %s, dim = 1 : tensor<128x64xf32> -> tensor<128xf32>
  %q = arith.divf %mx, %sum : tensor<128xf32>
  %qb = tile.broadcast %q, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
  %o = arith.mulf %s, %qb : tensor<128x64xf32>
  tile.store %Rmax[%m0], %mx : !tile.desc<128xf32>, tensor<128xf32>
  %ob = arith.truncf %o : tensor<128x64xf32> to tensor<128x64xbf16>
  tile.store %C[%m0, %c0], %ob : !tile.desc<128x64xbf16>, tensor<128x64xbf16>
  return
}
// The A operand is M-major (transpose_a): wgmma's trans-a immediate is 1.
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 0;
// The bias: 16 columns per thread (8-column blocks x 2) read from shared memory.
// CHECK-COUNT-16: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// Row max and row sum: within the thread, then across the quad of lanes.
// CHECK: nvvm.shfl.sync bfly {{.*}}, %{{.*}}, %c1_i32
// CHECK: nvvm.shfl.sync bfly {{.*}}, %{{.*}}, %c2_i32
// CHECK: arith.maximumf
// The row vector: lanes 0 mod 4 write their two rows; then the tile.
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
