//===- ReferenceBuild.cpp - the reference kernel on a thread of its own ---===//
#include "passes/Driver/ReferenceBuild.h"
#include "passes/Driver/Pipeline.h"

#include "core/Schedule/ScheduleIR.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace stagecraft;

namespace {
bool shouldStop(const ReferenceBuild &b) {
  return b.abandon.load(std::memory_order_relaxed) ||
         (b.cancel && b.cancel->load(std::memory_order_relaxed));
}
} // namespace

void ReferenceBuild::run() {
  auto start = std::chrono::steady_clock::now();
  auto done = [&](bool success) {
    ok = success;
    millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                       start)
                 .count();
  };
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  registerCodegenDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.printOpOnDiagnostic(false); // as the kernel's: file:line, no op dump
  ScopedDiagnosticHandler handler(&ctx, [this](Diagnostic &diag) {
    diagnostics.push_back(formatDiagnostic(diag));
    for (Diagnostic &note : diag.getNotes())
      diagnostics.push_back(formatDiagnostic(note));
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(scheduledIR, sourceName + " (scheduled)"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return done(false);

  for (const PipelineStep &step : referencePipeline()) {
    if (shouldStop(*this)) {
      stopped = true;
      return done(false);
    }
    if (failed(step.run(*module)))
      return done(false);
  }
  if (failed(verify(*module)))
    return done(false);
  LLVM::LLVMFuncOp fn;
  module->walk([&](LLVM::LLVMFuncOp f) {
    if (f->hasAttr("stagecraft.scratch_per_block"))
      fn = f;
  });
  if (!fn) {
    module->emitError("the reference lowering produced no kernel");
    return done(false);
  }
  kernel = fn.getSymName().str();
  scratchPerBlock = fn->getAttrOfType<IntegerAttr>("stagecraft.scratch_per_block").getInt();
  fn->removeAttr("stagecraft.scratch_per_block");
  fn->removeAttr("stagecraft.block");
  // Blocks: enough to fill the GPU, each with its scratch, at most 2 GiB of it.
  int64_t byMemory =
      std::max<int64_t>(1, (int64_t(2) << 30) / std::max<int64_t>(1, scratchPerBlock));
  blocks = std::max<int64_t>(
      1, std::min<int64_t>({programs, 8 * 132, std::max<int64_t>(132, byMemory)}));
  if (shouldStop(*this)) {
    stopped = true;
    return done(false);
  }
  PtxEmission emission;
  // -O1: the reference runs once per check and its speed is no benchmark;
  // -O3's loop strength reduction and SCEV over its loops were two thirds
  // of its compile (bench/results/compile-latency-2026-11-23), and it is
  // on the whole command-line compile's critical path.
  if (failed(emitPtx(*module, /*keepLlvmIR=*/false, emission, nullptr, target, /*optLevel=*/1,
                     /*fuseMultiplyAdd=*/false)))
    return done(false);
  ptx = std::move(emission.ptx);
  done(true);
}

