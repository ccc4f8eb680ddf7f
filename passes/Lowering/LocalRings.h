//===- LocalRings.h - shared-memory tiles the consumers write -------*- C++ -*-===//
//
// A tile.upcast whose result a dot reads as B (the bf16 B of a block-scaled
// dot on sm_90a: wgmma reads B from shared memory) is written by the
// consumer warp groups into a ring of its own (LocalRing), then read by the
// dot's wgmma. What that takes, beside the rings TMA fills:
//  - placement: one ring per such upcast, its copies the legality report's
//    "<unit> (upcast B)" buffer: stages from the upcast to the dot, + 2 + the
//    dot's wait (core/Schedule/Legality.cpp says why);
//  - shared memory after the TMA rings (the staging of the stores may
//    overlay it: the epilogue no longer reads it);
//  - a wgmma wait in the upcast's unit, so that a copy is overwritten only
//    when every consumer warp group has retired the dot that read it: the
//    upcast waits for the dot `copies - 1 - (its stage distance)` kernel
//    iterations back, and the other warp groups are past that wait once they
//    passed the upcast's barrier of the previous iteration.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_LOCALRINGS_H
#define STAGECRAFT_PASSES_LOWERING_LOCALRINGS_H

#include "passes/Lowering/Placement.h"

namespace stagecraft::lowering {

/// After the body units are known: the local rings (errors at the op).
mlir::LogicalResult placeLocalRings(KernelPlan &plan);
/// After layoutSharedMemory: the rings' offsets; checks the block's limit.
mlir::LogicalResult layoutLocalRings(KernelPlan &plan);
/// After expandSchedule: the upcasts' wgmma waits.
void planLocalRingWaits(KernelPlan &plan);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_LOCALRINGS_H
