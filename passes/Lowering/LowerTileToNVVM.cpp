//===- LowerTileToNVVM.cpp - scheduled tile kernels to NVVM for sm_90a -----===//
//
// The pass description in passes/Passes.td says what the generated kernel
// does. One lowering for every kernel, in steps of one job each:
//   Placement.cpp       what lives in rings, resident tiles, registers
//   Expansion.cpp       the schedule made concrete: carries, waits, releases
//   WarpGroupFrame.cpp  the function, shared memory, barriers, roles, producer
//   ConsumerLoop.cpp    the consumer warp groups' expanded loop and epilogue
//   patterns/           one pattern per op family
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/Lowering/ConsumerLoop.h"
#include "passes/Lowering/Expansion.h"
#include "passes/Lowering/LocalRings.h"
#include "passes/Lowering/Normalize.h"
#include "passes/Lowering/Placement.h"
#include "passes/Lowering/ScaleOutOfMax.h"
#include "passes/Lowering/SplitScaledDots.h"
#include "passes/Lowering/Tcgen05.h"
#include "passes/Lowering/TimelineProbes.h"
#include "passes/Lowering/WarpGroupFrame.h"
#include "passes/Lowering/patterns/Memory.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"

namespace stagecraft {
#define GEN_PASS_DEF_TILELOWERTONVVM
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;

LogicalResult stagecraft::lowering::planKernel(func::FuncOp kernel, const Target &target,
                                               KernelPlan &plan) {
  normalizeKernel(kernel);
  if (!target.blackwell())
    splitScaledDots(kernel); // sm_90a has no block-scaled MMA
  factorScaleOutOfMax(kernel);
  plan.kernel = kernel;
  plan.target = target;
  if (failed(placeKernel(plan)) || failed(expandSchedule(plan)) ||
      failed(layoutSharedMemory(plan)) || failed(layoutLocalRings(plan)))
    return failure();
  planLocalRingWaits(plan);
  if (target.blackwell() && failed(planTcgen05(plan)))
    return failure();
  return success();
}

namespace {

/// The instrumented variant's settings (TimelineProbes.h); ctas 0: none.
struct TimelineSettings {
  int64_t ctas = 0, capacity = 0, tiles = 0;
};

LogicalResult lowerKernel(func::FuncOp kernel, const Target &target,
                          TimelineSettings timeline) {
  KernelPlan plan;
  if (failed(planKernel(kernel, target, plan)))
    return failure();
  OpBuilder b(kernel.getContext());
  WarpGroupFrame frame(b, plan);
  frame.sources.extract = residentExtractor(plan);
  hopper::Emitter e(b, kernel.getLoc());
  std::optional<TimelineProbes> probes;
  if (timeline.ctas > 0) {
    probes.emplace(plan, timeline.ctas, timeline.capacity, timeline.tiles);
    probes->install(e, frame);
    frame.probes = &*probes;
  }
  frame.emitSetup(e);
  frame.emitRoles(e, [&](hopper::Emitter &ce, Value ctid) {
    if (target.blackwell())
      emitTensorMemoryAlloc(ce, plan, ctid);
    frame.emitInstrumentedOrPlain(ce, [&] {
      if (frame.probes)
        frame.probes->enter(ce, ce.divu(ctid, ce.c32(128)), ctid);
      emitConsumers(ce, plan, frame, ctid);
      if (frame.probes)
        frame.probes->finish(ce);
    });
    if (target.blackwell())
      emitTensorMemoryRelease(ce, plan, ctid);
  });
  frame.emitTeardown(e);
  LLVM::ReturnOp::create(b, kernel.getLoc(), ValueRange());
  return success();
}

struct TileLowerToNVVMPass
    : stagecraft::impl::TileLowerToNVVMBase<TileLowerToNVVMPass> {
  using TileLowerToNVVMBase::TileLowerToNVVMBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels = tile::getKernels(module);
    if (kernels.empty()) {
      module.emitError("tile-lower-to-nvvm: no tile kernel in the module");
      return signalPassFailure();
    }
    std::optional<Target> gpu = Target::parse(target);
    if (!gpu) {
      module.emitError("tile-lower-to-nvvm: unknown target \"")
          << target << "\" (known: " << Target::known() << ")";
      return signalPassFailure();
    }
    TimelineSettings probes;
    if (timeline) {
      if (gpu->blackwell() || timelineCtas < 1 || timelineCapacity < 1 ||
          timelineCapacity > (int64_t(1) << 24) || timelineTiles < 1) {
        module.emitError("tile-lower-to-nvvm: timeline=true needs target sm_90a, "
                         "timeline-ctas >= 1, timeline-capacity in 1..16777216 and "
                         "timeline-tiles >= 1 (got ")
            << target << ", " << int64_t(timelineCtas) << ", " << int64_t(timelineCapacity)
            << ", " << int64_t(timelineTiles) << ")";
        return signalPassFailure();
      }
      probes = {timelineCtas, timelineCapacity, timelineTiles};
    }
    for (func::FuncOp kernel : kernels)
      if (failed(lowerKernel(kernel, *gpu, probes)))
        return signalPassFailure();
    for (func::FuncOp kernel : kernels)
      kernel.erase();
  }
};

} // namespace
