//===- LoweringCheck.cpp - would the compiler take this loop? -------------===//
#include "passes/Driver/LoweringCheck.h"
#include "passes/Driver/Manifest.h"
#include "passes/Lowering/Placement.h"

#include "core/Schedule/ScheduleIR.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

std::string stagecraft::loweringRefusal(func::FuncOp kernel, const Schedule &schedule,
                                        const std::vector<std::pair<std::string, int64_t>> &sizes) {
  auto module = kernel->getParentOfType<ModuleOp>();
  if (!module)
    return "";
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  auto fn = copy->lookupSymbol<func::FuncOp>(kernel.getSymName());
  if (!fn)
    return "";
  std::string first;
  ScopedDiagnosticHandler capture(kernel.getContext(), [&](Diagnostic &d) {
    if (first.empty() && d.getSeverity() == DiagnosticSeverity::Error)
      first = formatDiagnostic(d);
    return success();
  });
  if (failed(writeSchedule(fn, schedule)))
    return first;
  // The sizes' refusals first, as stagecraft-compile meets them (its
  // manifest), then the lowering's.
  if (failed(checkKernelAtSizes(fn, sizes)))
    return first.empty() ? "the compiler refuses it at these sizes" : first;
  lowering::KernelPlan plan;
  std::optional<Target> target = Target::parse("sm_90a");
  if (failed(lowering::planKernel(fn, *target, plan)) && first.empty())
    first = "the lowering refuses it";
  return first;
}
