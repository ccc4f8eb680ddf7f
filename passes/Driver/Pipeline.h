//===- Pipeline.h - the lowering pipeline and the back end --------*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_DRIVER_PIPELINE_H
#define STAGECRAFT_PASSES_DRIVER_PIPELINE_H

#include "passes/Driver/CompileDriver.h"
#include "passes/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace stagecraft {

/// One step of the lowering: a name (for the per-pass IR) and the passes.
struct PipelineStep {
  std::string name;
  std::function<void(mlir::OpPassManager &)> add;
  /// Verify the module after each pass of the step. On for the project's own
  /// lowerings (a broken invariant is reported right after the pass that
  /// broke it); off for the upstream conversions and cleanups, whose output
  /// the driver verifies once before translating to LLVM IR (each
  /// verification of the lowered attention kernel costs about 1.5 ms).
  bool verifyEachPass = true;
  /// Runs the step's passes on `module` (a pass manager of its own, the
  /// verifier as verifyEachPass says); their diagnostics go to the context.
  mlir::LogicalResult run(mlir::ModuleOp module) const;
};

/// Dialects and translations the lowering produces (LLVM, NVVM, GPU, ...).
void registerCodegenDialects(mlir::DialectRegistry &registry);

/// The lowering pipeline from scheduled tile IR to the LLVM + NVVM dialects,
/// the same for the CLI, the app and the tests. `timeline`: the kernel's
/// instrumented variant (TimelineBuild.h).
std::vector<PipelineStep> codegenPipeline(const CompileOptions &options,
                                          llvm::StringRef kernel, bool timeline = false);

/// What emitPtx made, and how long each part took.
struct PtxEmission {
  std::string ptx;
  /// A failure after the module was translated (see emitPtx).
  std::string error;
  double translateMillis = 0, optimizeMillis = 0, codegenMillis = 0;
  /// The optimized LLVM IR (kernel.ll), when asked for: a copy of the module
  /// taken before code generation, printed by printLlvmIR() later, off the
  /// way to the PTX. The context outlives the module (declared first).
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> optimized;
  PtxEmission();
  ~PtxEmission();
  PtxEmission(PtxEmission &&);
  PtxEmission &operator=(PtxEmission &&);
  /// The kept LLVM IR as text ("" when none was kept); frees the copy.
  std::string printLlvmIR();
};

/// Translates the lowered module to LLVM IR, optimizes it (-O3) and emits
/// PTX for `target` (sm_90a or sm_100a) through LLVM's NVPTX back end
/// (`optLevel`: LLVM's -O1 to -O3 pipeline before it). `keepLlvmIR`: keep a copy
/// of the optimized LLVM IR in `out.optimized`. `translated`, when given, is
/// called once the module is translated: from then on emitPtx touches
/// neither the module nor its MLIRContext (another thread may print it), and
/// a failure is described in `out.error` for the caller to report instead
/// of being emitted as a diagnostic. `fuseMultiplyAdd`: a float multiply
/// and the add or subtract of its product may become one fma (what nvcc does
/// by default, --fmad=true); off, each rounds on its own (the reference).
mlir::LogicalResult emitPtx(mlir::ModuleOp module, bool keepLlvmIR, PtxEmission &out,
                            const std::function<void()> &translated = nullptr,
                            const Target &target = Target(), int optLevel = 3,
                            bool fuseMultiplyAdd = true);

/// The reference kernel's lowering: tile-lower-reference, then the same
/// conversions as the kernel's and a canonicalization.
std::vector<PipelineStep> referencePipeline();

/// ptxas on the kernel's PTX as a child process, so the compile goes on
/// (the reference, the IR text) while it runs. A missing ptxas is not an
/// error (the bundle then carries PTX only, which the driver JIT-compiles); a
/// ptxas failure is.
class PtxasRun {
public:
  PtxasRun();
  /// Starts ptxas on result.ptx (or notes in result.diagnostics that there
  /// is none); false when it could not be started.
  bool start(llvm::StringRef ptxasPath, CompileResult &result,
             const Target &target = Target());
  /// Waits for it; fills result.cubin and result.ptxas. True when it
  /// succeeded or never ran (no ptxas); false when it failed, ran for two
  /// minutes, or `*cancel` was set meanwhile (it is killed then).
  bool finish(CompileResult &result, const std::atomic<bool> *cancel);
  ~PtxasRun();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Parses `ptxas -v` output for the kernel's registers, shared memory,
/// spills and stack frame.
PtxasReport parsePtxasReport(llvm::StringRef text);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_PIPELINE_H
