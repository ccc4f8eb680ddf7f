//===- Tcgen05.h - the pipelined loop on sm_100a (tcgen05) -----------*- C++ -*-===//
//
// The sm_100a path of the one lowering (Target.h: a compile option), for
// GEMM-shaped loops: loads, and dots that accumulate into their own
// zero-initialized loop-carried tile whose result is read after the loop
// (tile.dot, bf16/f16 or FP8; tile.dot_scaled, mxfp8). What differs from
// sm_90a:
//  - the accumulators live in tensor memory (tcgen05.alloc by the first
//    consumer warp) for the whole loop, so the loop holds no register tiles;
//  - one consumer thread issues the MMAs: per source iteration it waits for
//    the operands' rings, issues K / 16 (K / 32 for 8-bit) tcgen05.mma
//    (M = 128) and tcgen05.commit to each ring's empty barrier, which frees
//    the buffers when the MMAs reading them complete: that commit is the
//    MMA-pipelining signal (the schedule's `wait` has no meaning here);
//  - a block-scaled dot's scale tiles are TMA loads on rings of their own,
//    pipelined like its operands; every source iteration the consumers
//    stage them in shared memory in the layout tcgen05.cp reads (32 rows of
//    16 bytes per 128 rows: row r's four scales at 16 (r % 32) + 4 (r / 32)),
//    and the issuer copies them to tensor memory (tcgen05.cp 32x128b.warpx4)
//    ahead of its tcgen05.mma block_scale; their buffers are freed by the
//    same commit;
//  - after the loop, a last commit to an mbarrier tells the consumers the
//    accumulators are complete; each reads its rows with tcgen05.ld
//    16x256b, which gives wgmma's accumulator order, so the epilogue (the
//    ops after the loop, the stores) is the sm_90a one; the last consumer
//    barrier frees the tensor memory.
// Everything else (placement, the producer and its rings, shared memory,
// the epilogue) is the same lowering. What is refused says why.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_TCGEN05_H
#define STAGECRAFT_PASSES_LOWERING_TCGEN05_H

#include "passes/Lowering/WarpGroupFrame.h"

#include <utility>
#include <vector>

namespace stagecraft::lowering {

/// After placement, expansion and the shared-memory layout: checks the loop
/// is GEMM-shaped, lays out tensor memory and the scales' staging, and marks
/// the rings as freed by commits. Errors at the op.
mlir::LogicalResult planTcgen05(KernelPlan &plan);

/// At the start of the consumers: the first consumer warp allocates tensor
/// memory; thread 0 initialises the accumulators' barrier.
void emitTensorMemoryAlloc(hopper::Emitter &e, const KernelPlan &plan, mlir::Value ctid);
/// The pipelined loop: returns each loop result (in its register layout).
std::vector<std::pair<mlir::Value, Frag>> emitTcgen05Loop(hopper::Emitter &e, KernelPlan &plan,
                                                          WarpGroupFrame &frame,
                                                          mlir::Value ctid);
/// At the end of the consumers: tensor memory freed.
void emitTensorMemoryRelease(hopper::Emitter &e, const KernelPlan &plan, mlir::Value ctid);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_TCGEN05_H
