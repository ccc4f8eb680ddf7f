//===- Tcgen05Ops.h - emitting Blackwell (sm_100a) primitives --------*- C++ -*-===//
//
// The tcgen05 instructions the sm_100a path uses, as inline PTX (like wgmma
// in HopperOps.h: the operand forms and immediates the lowering needs, in
// one place): tensor-memory allocation, the MMA (dense and block-scaled),
// tcgen05.commit to an mbarrier, tcgen05.cp of scales from shared memory,
// tcgen05.ld of accumulators, and the fences around thread syncs.
// Tensor-memory addresses are i32: lane << 16 | column.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_TCGEN05OPS_H
#define STAGECRAFT_PASSES_LOWERING_TCGEN05OPS_H

#include "passes/Lowering/HopperOps.h"

namespace stagecraft::blackwell {

using hopper::Emitter;

/// tcgen05.alloc of `columns` (a power of 2 >= 32) writing the address to
/// the shared-memory word at `slot` (i32 shared address), then giving up
/// the right to allocate more. One whole warp executes it.
void tmemAlloc(Emitter &e, mlir::Value slot, int64_t columns);
void tmemDealloc(Emitter &e, mlir::Value tmem, int64_t columns);
void fenceBeforeThreadSync(Emitter &e);
void fenceAfterThreadSync(Emitter &e);

/// Shared-memory matrix descriptor of a K-major operand in 128-byte swizzled
/// rows (8-row groups 1024 bytes apart): Hopper's layout with the sm_100
/// version bit (46) set.
mlir::Value smemDescriptor(Emitter &e, mlir::Value addr);
/// The same for an unswizzled block of 16-byte rows (the scales tcgen05.cp
/// reads: 8-row groups 128 bytes apart).
mlir::Value smemDescriptorPlain(Emitter &e, mlir::Value addr);

/// The instruction descriptor of a dense MMA: f32 accumulator, `aFormat` /
/// `bFormat` (kind::f16: 0 f16, 1 bf16; kind::f8f6f4: 0 e4m3, 1 e5m2),
/// K-major operands, M x N.
uint32_t instrDescriptor(int aFormat, int bFormat, int64_t m, int64_t n);
/// A block-scaled one (kind::mxf8f6f4, e8m0 scales): `sfId` picks the byte
/// of each 32-bit scale column (the 32-element block of K this MMA uses).
uint32_t instrDescriptorBlockScaled(int aFormat, int bFormat, int64_t m, int64_t n, int sfId);

/// tcgen05.mma.cta_group::1.kind::`kind` [d], adesc, bdesc, idesc, enable-input-d.
void mma(Emitter &e, llvm::StringRef kind, mlir::Value d, mlir::Value adesc, mlir::Value bdesc,
         uint32_t idesc, mlir::Value enableInputD);
/// The block-scaled form with the scales' tensor-memory addresses.
void mmaBlockScaled(Emitter &e, mlir::Value d, mlir::Value adesc, mlir::Value bdesc,
                    uint32_t idesc, mlir::Value scaleA, mlir::Value scaleB,
                    mlir::Value enableInputD);
/// tcgen05.commit: the mbarrier at `bar` (i32 shared address) gets one
/// arrival when every tcgen05 operation this thread issued has completed.
void commit(Emitter &e, mlir::Value bar);
/// tcgen05.cp.cta_group::1.32x128b.warpx4: 32 rows of 16 bytes to four
/// columns of every lane quarter (the e8m0 scale layout of 128 rows).
void copyScales(Emitter &e, mlir::Value tmem, mlir::Value sdesc);
/// tcgen05.ld.sync.aligned.16x256b.x`reps`.b32 then tcgen05.wait::ld: 4 reps
/// values per thread (f32), rows l/4 and l/4 + 8 of the 16 lanes at `tmem`,
/// columns 8 r + 2 (l % 4) and + 1: the wgmma accumulator order.
llvm::SmallVector<mlir::Value> load16x256b(Emitter &e, mlir::Value tmem, int64_t reps);

} // namespace stagecraft::blackwell

#endif // STAGECRAFT_PASSES_LOWERING_TCGEN05OPS_H
