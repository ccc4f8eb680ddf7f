// RUN: stagecraft-opt %inputs/unseen/residual-epilogue.mlir -tile-lower-to-nvvm | FileCheck %s
// RUN: stagecraft-opt %s -tile-lower-to-nvvm | FileCheck %s --check-prefix=KEPT
// RUN: stagecraft-opt %inputs/unseen/persistent-pingpong-residual.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=PERSISTENT
// RUN: stagecraft-opt %inputs/unseen/gathered-residual.mlir -tile-apply-schedule=file=%bench/unseen/sweep-2026-11-28d/schedules/s01_gemm_2st.json -tile-lower-to-nvvm | FileCheck %s --check-prefix=GATHERED

// A resident whose coordinates read another's tile (R's rows from a table,
// loaded at the start with two ring stages): the table (128 bytes) first,
// its phase waited for by the loading thread, then R (64 KiB) in a second
// phase of the same barrier, which the consumers wait for (parity 1).
// GATHERED: nvvm.barrier0
// GATHERED: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c128_i32
// GATHERED: nvvm.mbarrier.try_wait.parity %{{.*}}, %c0_i32
// GATHERED: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c65536_i32
// GATHERED: nvvm.mbarrier.try_wait.parity %{{.*}}, %c1_i32

// A persistent kernel's tile only the epilogue reads: the producer loads R
// (32 KiB) after the tile's ring loads (16 KiB each), into one buffer.
// PERSISTENT-LABEL: llvm.func @persistent_pingpong_residual
// PERSISTENT-SAME: stagecraft.dynamic_smem = 230400
// PERSISTENT-NOT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768
// PERSISTENT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384
// PERSISTENT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768

// A tile only the code after the loop reads (a residual) is loaded after the
// loop, into the rings' space: four 48 KiB ring stages and the 64 KiB tile
// need 193 KiB, not 257. The consumers' barrier (every wgmma retired, every
// read of the rings done), then one thread loads the tile's four panels onto
// the second resident barrier (offset 136, after the rings' 16 barriers and
// the first resident barrier), every consumer waits for it, then the staging
// and the stores.
// CHECK-LABEL: llvm.func @gemm_residual
// CHECK-SAME: stagecraft.dynamic_smem = 197632
// CHECK-NOT: mbarrier.arrive.expect_tx {{.*}}%c65536
// CHECK: nvvm.barrier0
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256
// CHECK: %[[BAR:.*]] = llvm.getelementptr %{{.*}}[%c136{{.*}}]
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %c65536
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg3, %[[BAR]]
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %c0
// CHECK: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg2

// A tile the loop reads as well stays loaded at the start, for the whole
// kernel: here a scale multiplied into every iteration's product and the
// result.
// KEPT-LABEL: llvm.func @kept
// KEPT: nvvm.barrier0
// KEPT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384
// KEPT-NOT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384
// KEPT: llvm.return
func.func @kept(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                %S: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
                %C: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 64)>},
                %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %s = tile.load %S[%m0, %c0] : !tile.desc<64x64xf32> -> tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %e = arith.mulf %d, %s : tensor<64x64xf32>
    scf.yield %e : tensor<64x64xf32>
  }
  %f = arith.mulf %r, %s : tensor<64x64xf32>
  %o = arith.truncf %f : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %C[%m0, %c0], %o : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
  return
}
