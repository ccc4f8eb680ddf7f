//===- LoweringCheck.h - would the compiler take this loop? -------*- C++ -*-===//
//
// The timeline predicts from the loop graph and the unit costs alone, so it
// predicted loops the lowering refuses (a reduction over the rows, a store
// in the loop, a tile the consumers cannot split): a number for a kernel that
// cannot be built. This runs the lowering's planning (planKernel) on a copy
// of the kernel under a schedule and returns its first refusal.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_LOWERINGCHECK_H
#define STAGECRAFT_PASSES_DRIVER_LOWERINGCHECK_H

#include "core/Schedule/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <utility>
#include <vector>

namespace stagecraft {

/// The lowering's refusal of `kernel` under `schedule` for sm_90a at `sizes`
/// (overrides of tile.defaults; checkKernelAtSizes) ("FILE:LINE:COL: error:
/// ..."), or "" when it would lower it. `kernel` is not changed.
std::string loweringRefusal(mlir::func::FuncOp kernel, const Schedule &schedule,
                            const std::vector<std::pair<std::string, int64_t>> &sizes = {});

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_LOWERINGCHECK_H
