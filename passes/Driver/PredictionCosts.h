//===- PredictionCosts.h - the costs a prediction runs on ---------*- C++ -*-===//
//
// The unit costs of a kernel at some sizes (core/Timeline/UnitCosts.h) with
// the FLOP count its predicted TFLOP/s divides: the manifest's, the count the
// runner's measured TFLOP/s divide (the peer's where the kernel has one, else
// the dots' executed FLOPs). Without it a prediction counted its padded
// tiles: a 4160^3 GEMM in 128x256 tiles was predicted 681 TFLOP/s, 641 of
// the problem's own FLOPs. The compiler, the timeline tool and the app all
// take their costs from here.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_PREDICTIONCOSTS_H
#define STAGECRAFT_PASSES_DRIVER_PREDICTIONCOSTS_H

#include "core/Schedule/LoopGraph.h"
#include "core/Timeline/KernelCosts.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace stagecraft {

/// timeline::extractKernelCosts, with KernelCosts::flops set from the
/// manifest (left 0, the executed count, where no manifest can be derived;
/// the manifest's own diagnostics are not emitted).
mlir::FailureOr<timeline::KernelCosts>
predictionCosts(mlir::func::FuncOp kernel, const LoopGraph &graph,
                const std::vector<std::pair<std::string, int64_t>> &sizes = {});

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_PREDICTIONCOSTS_H
