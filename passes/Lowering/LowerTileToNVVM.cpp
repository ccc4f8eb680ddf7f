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
#include "passes/Lowering/Placement.h"
#include "passes/Lowering/WarpGroupFrame.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"

namespace stagecraft {
#define GEN_PASS_DEF_TILELOWERTONVVM
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;

namespace {

LogicalResult lowerKernel(func::FuncOp kernel) {
  KernelPlan plan;
  plan.kernel = kernel;
  if (failed(placeKernel(plan)) || failed(expandSchedule(plan)) ||
      failed(layoutSharedMemory(plan)))
    return failure();
  OpBuilder b(kernel.getContext());
  WarpGroupFrame frame(b, plan);
  hopper::Emitter e(b, kernel.getLoc());
  frame.emitSetup(e);
  frame.emitRoles(e, [&](hopper::Emitter &ce, Value ctid) {
    emitConsumers(ce, plan, frame, ctid);
  });
  LLVM::ReturnOp::create(b, kernel.getLoc(), ValueRange());
  return success();
}

struct TileLowerToNVVMPass
    : stagecraft::impl::TileLowerToNVVMBase<TileLowerToNVVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels = tile::getKernels(module);
    if (kernels.empty()) {
      module.emitError("tile-lower-to-nvvm: no tile kernel in the module");
      return signalPassFailure();
    }
    for (func::FuncOp kernel : kernels)
      if (failed(lowerKernel(kernel)))
        return signalPassFailure();
    for (func::FuncOp kernel : kernels)
      kernel.erase();
  }
};

} // namespace
