//===- Pipeline.cpp - the lowering pipeline -------------------------------===//
#include "passes/Driver/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace stagecraft;

static void addConversions(OpPassManager &pm) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  // NVVM ops without an intrinsic (mbarrier try_wait loops, ...) become
  // inline PTX.
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult PipelineStep::run(ModuleOp module) const {
  PassManager pm(module.getContext());
  pm.enableVerifier(verifyEachPass);
  add(pm);
  return pm.run(module);
}

std::vector<PipelineStep> stagecraft::codegenPipeline(const CompileOptions &options,
                                                      llvm::StringRef, bool timeline) {
  TileLowerToNVVMOptions lowering;
  lowering.target = options.target;
  lowering.timeline = timeline;
  lowering.timelineCtas = options.timelineCtas;
  lowering.timelineTiles = options.timelineTiles;
  lowering.timelineCapacity = options.timelineCapacity;
  return {
      {"tile-lower-to-nvvm",
       [lowering](OpPassManager &pm) { pm.addPass(createTileLowerToNVVM(lowering)); }},
      {"convert-to-llvm", addConversions, /*verifyEachPass=*/false},
      {"canonicalize",
       [](OpPassManager &pm) {
         pm.addPass(createCanonicalizerPass());
         pm.addPass(createCSEPass());
       },
       /*verifyEachPass=*/false},
  };
}

std::vector<PipelineStep> stagecraft::referencePipeline() {
  return {
      {"tile-lower-reference",
       [](OpPassManager &pm) { pm.addPass(createTileLowerReference()); }},
      {"convert-to-llvm",
       [](OpPassManager &pm) {
         addConversions(pm);
         pm.addPass(createCanonicalizerPass());
       },
       /*verifyEachPass=*/false},
  };
}
