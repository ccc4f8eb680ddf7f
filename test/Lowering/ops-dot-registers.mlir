// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s

// A second dot whose A operand is computed in the loop (a 16-bit tile in
// registers: packed pairs are the wgmma A fragments), with B N-major (a
// row-major [K, N] tile: trans-b = 1), and one warp group holding two
// 64-row blocks (a 128-row tile: two wgmma per k step).
func.func @regA(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                %B: !tile.desc<64x128xbf16> {tile.shape = affine_map<()[N] -> (64, 128)>},
                %C: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[N] -> (N, 128)>},
                %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 128)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c128 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %two = arith.constant dense<2.0> : tensor<128x64xf32>
  %r = scf.for %k = %c0 to %c64 step %c64 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 0, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
    %af = arith.extf %a {tile.sched = #tile.sched<"scale", stage = 1, order = 2, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
    %as = arith.mulf %af, %two {tile.sched = #tile.sched<"scale", stage = 1, order = 2, group = 1>} : tensor<128x64xf32>
    %ab = arith.truncf %as {tile.sched = #tile.sched<"scale", stage = 1, order = 2, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
    %b = tile.load %B[%k, %c0] {tile.sched = #tile.sched<"loadB", stage = 0, order = 1, group = 0>} : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %ab, %b, %acc {tile.sched = #tile.sched<"MMA", stage = 1, order = 3, group = 1>} : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %o = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %C[%m0, %c0], %o : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
  return
}
// The A tile read from shared memory into registers (swizzled addresses),
// scaled, and packed: 32 pairs per 64-row block.
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-64: llvm.load {{.*}} : !llvm.ptr<3> -> bf16
// CHECK-COUNT-64: llvm.fptrunc {{.*}} : vector<2xf32> to vector<2xbf16>
// Register A: four registers, trans-b = 1; two row blocks per k step.
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, {${{[0-9]+}}, ${{[0-9]+}}, ${{[0-9]+}}, ${{[0-9]+}}}, ${{[0-9]+}}, p, 1, 1, 1;
