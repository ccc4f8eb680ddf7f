// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm=target=sm_100a | FileCheck %s
// RUN: stagecraft-opt %assets/fp8_gemm.mlir -tile-lower-to-nvvm=target=sm_100a | FileCheck %s --check-prefix=FP8
// RUN: stagecraft-opt %assets/mxfp8_gemm.mlir -tile-lower-to-nvvm=target=sm_100a | FileCheck %s --check-prefix=MX

// The same GEMM for sm_100a: the first consumer warp allocates tensor
// memory (256 accumulator columns), one consumer thread issues the
// tcgen05.mma (M = 128, N = 256, 4 k steps of 16 bf16 per K tile) and
// commits each ring's buffer free; a last commit to the accumulators'
// barrier, then every consumer reads its rows (tcgen05.ld 16x256b) for the
// same epilogue, and tensor memory is freed.
// CHECK: llvm.func @gemm(
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$0], 256
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: tcgen05.fence::after_thread_sync
// CHECK-COUNT-4: tcgen05.mma.cta_group::1.kind::f16 [$0], $1, $2, $3, p
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.ld.sync.aligned.16x256b.x8.b32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 $0, 256
// CHECK-NOT: wgmma

// FP8 operands take kind::f8f6f4 and k steps of 32.
// FP8: llvm.func @fp8_gemm(
// FP8-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4

// mxfp8: the scale tiles on their own rings, staged by every consumer in
// the 32x16-byte layout, copied to tensor memory (one copy for A's 128
// rows, one for B's), then tcgen05.mma block_scale; the scales' buffers are
// freed by the same commits.
// MX: llvm.func @mxfp8_gemm(
// MX: tcgen05.alloc
// MX: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// MX: nvvm.fence.proxy
// MX: tcgen05.cp.cta_group::1.32x128b.warpx4
// MX: tcgen05.cp.cta_group::1.32x128b.warpx4
// MX-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X
// MX-COUNT-4: tcgen05.commit
