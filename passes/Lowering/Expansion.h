//===- Expansion.h - the schedule made concrete ---------------------*- C++ -*-===//
//
// Source iteration per unit, carries, wgmma waits and ring releases of a
// placed kernel (Expansion.cpp says how).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_EXPANSION_H
#define STAGECRAFT_PASSES_LOWERING_EXPANSION_H

#include "passes/Lowering/Placement.h"

namespace stagecraft::lowering {

/// Fills the plan's carries, waits and releases; fails with an error at the
/// op whose schedule cannot be expanded.
mlir::LogicalResult expandSchedule(KernelPlan &plan);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_EXPANSION_H
