//===- PredictionCosts.cpp - the costs a prediction runs on ---------------===//
#include "passes/Driver/PredictionCosts.h"
#include "passes/Driver/Manifest.h"

#include "core/Timeline/UnitCosts.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;

FailureOr<stagecraft::timeline::KernelCosts>
stagecraft::predictionCosts(func::FuncOp kernel, const LoopGraph &graph,
                            const std::vector<std::pair<std::string, int64_t>> &sizes) {
  FailureOr<timeline::KernelCosts> costs = timeline::extractKernelCosts(kernel, graph, sizes);
  if (failed(costs))
    return failure();
  ScopedDiagnosticHandler silence(kernel.getContext(), [](Diagnostic &) { return success(); });
  if (FailureOr<KernelManifest> m = deriveManifest(kernel, sizes); succeeded(m))
    costs->flops = m->flops;
  return costs;
}
