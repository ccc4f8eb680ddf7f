//===- UnitCosts.h - the work of each unit, read from the IR ------*- C++ -*-===//
//
// Walks a tile kernel once and fills KernelCosts: per unit of the pipelined
// loop the bytes it loads, its dots' shapes and input type, and its element
// operations by pipe (FMA-class, MUFU-class: exp/exp2/log/tanh/rsqrt/sqrt/
// div, conversions, shuffles of reductions); the work before and after the
// loop; and each CTA's trip count, by evaluating the loop bounds' index
// arithmetic at the problem sizes for every program id.
//
// An op the model has no class for gets a generic cost (two FMA-pipe
// operations per element of its largest tensor) and is named in a note; it
// is never an error, so new ops cost something sensible from day one.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_UNITCOSTS_H
#define STAGECRAFT_CORE_TIMELINE_UNITCOSTS_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/LoopGraph.h"
#include "core/Timeline/KernelCosts.h"

namespace stagecraft::timeline {

/// Costs of `kernel` (whose loop graph is `graph`) at `sizes` (overrides of
/// its `tile.defaults`). Fails, with a diagnostic at the kernel, on an
/// unknown size name, a size out of range, or a loop that does not match
/// the graph.
mlir::FailureOr<KernelCosts>
extractKernelCosts(mlir::func::FuncOp kernel, const LoopGraph &graph,
                   const std::vector<std::pair<std::string, int64_t>> &sizes = {});

/// The class of an op that is not a load, store or dot: the element
/// operations of one execution on `elements` elements (exposed for tests).
/// Returns false, leaving `work` unchanged, for an op with no known class.
bool classifyElementwise(llvm::StringRef opName, double elements, MathWork &work);

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_UNITCOSTS_H
