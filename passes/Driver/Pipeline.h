//===- Pipeline.h - the lowering pipeline and the back end --------*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_DRIVER_PIPELINE_H
#define STAGECRAFT_PASSES_DRIVER_PIPELINE_H

#include "passes/Driver/CompileDriver.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

#include <functional>

namespace stagecraft {

/// One step of the lowering: a name (for the per-pass IR) and the passes.
struct PipelineStep {
  std::string name;
  std::function<void(mlir::OpPassManager &)> add;
};

/// Dialects and translations the lowering produces (LLVM, NVVM, GPU, ...).
void registerCodegenDialects(mlir::DialectRegistry &registry);

/// The lowering pipeline from scheduled tile IR to the LLVM + NVVM dialects,
/// the same for the CLI, the app and the tests.
std::vector<PipelineStep> codegenPipeline(const CompileOptions &options,
                                          llvm::StringRef kernel);

/// Translates the lowered module to LLVM IR, optimizes it and emits PTX for
/// sm_90a through LLVM's NVPTX back end into `llvmIR` and `ptx`.
mlir::LogicalResult emitPtx(mlir::ModuleOp module, std::string &llvmIR, std::string &ptx);

/// The reference kernel's lowering: tile-lower-reference, then the same
/// conversions as the kernel's.
std::vector<PipelineStep> referencePipeline();

/// Runs ptxas on result.ptx; fills result.cubin and result.ptxas. A missing
/// ptxas is not an error (the bundle then carries PTX only, which the driver
/// JIT-compiles); a ptxas failure is.
mlir::LogicalResult assembleCubin(llvm::StringRef ptxasPath,
                                  CompileResult &result);

/// Parses `ptxas -v` output for the kernel's registers, shared memory,
/// spills and stack frame.
PtxasReport parsePtxasReport(llvm::StringRef text);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_PIPELINE_H
