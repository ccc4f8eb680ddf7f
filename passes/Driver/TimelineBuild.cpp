//===- TimelineBuild.cpp - the instrumented kernel on a thread of its own -===//
#include "passes/Driver/TimelineBuild.h"
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

#include <chrono>

using namespace mlir;
using namespace stagecraft;

namespace {
/// The lowering's description of what it instrumented (TimelineProbes.cpp).
bool readDescription(DictionaryAttr d, TimelineDescription &out) {
  auto ctas = d.getAs<IntegerAttr>("ctas");
  auto capacity = d.getAs<IntegerAttr>("capacity");
  auto groups = d.getAs<ArrayAttr>("warp_groups");
  auto units = d.getAs<ArrayAttr>("units");
  if (!ctas || !capacity || !groups || !units)
    return false;
  out.ctas = ctas.getInt();
  out.capacity = capacity.getInt();
  if (auto tiles = d.getAs<IntegerAttr>("tiles"))
    out.tiles = tiles.getInt();
  for (Attribute a : groups) {
    auto g = dyn_cast<DictionaryAttr>(a);
    auto role = g ? g.getAs<StringAttr>("role") : StringAttr();
    auto name = g ? g.getAs<StringAttr>("name") : StringAttr();
    if (!role || !name)
      return false;
    out.warpGroups.push_back({role.str(), name.str()});
  }
  for (Attribute a : units) {
    auto u = dyn_cast<DictionaryAttr>(a);
    auto id = u ? u.getAs<IntegerAttr>("id") : IntegerAttr();
    auto name = u ? u.getAs<StringAttr>("name") : StringAttr();
    auto group = u ? u.getAs<IntegerAttr>("group") : IntegerAttr();
    if (!id || !name || !group)
      return false;
    auto kind = u.getAs<StringAttr>("kind");
    out.units.push_back({id.getInt(), name.str(), group.getInt(), kind ? kind.str() : ""});
  }
  return true;
}
} // namespace

void TimelineBuild::run() {
  auto start = std::chrono::steady_clock::now();
  auto done = [&](bool success) {
    ok = success;
    millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                 .count();
  };
  auto stop = [&] {
    return abandon.load(std::memory_order_relaxed) ||
           (options.cancel && options.cancel->load(std::memory_order_relaxed));
  };
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  registerCodegenDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&ctx, [this](Diagnostic &diag) {
    diagnostics.push_back(formatDiagnostic(diag) + " (the instrumented kernel)");
    for (Diagnostic &note : diag.getNotes())
      diagnostics.push_back(formatDiagnostic(note));
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(scheduledIR, sourceName + " (scheduled)"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return done(false);
  for (const PipelineStep &step : codegenPipeline(options, kernel, /*timeline=*/true)) {
    if (stop())
      return done(false);
    if (failed(step.run(*module)))
      return done(false);
  }
  if (failed(verify(*module)))
    return done(false);
  auto fn = module->lookupSymbol<LLVM::LLVMFuncOp>(kernel);
  auto described = fn ? fn->getAttrOfType<DictionaryAttr>("stagecraft.timeline") : nullptr;
  if (!described || !readDescription(described, description)) {
    diagnostics.push_back("error: the instrumented lowering produced no kernel @" + kernel +
                          " with a timeline description");
    return done(false);
  }
  fn->removeAttr("stagecraft.timeline");
  if (stop())
    return done(false);
  PtxEmission emission;
  if (failed(emitPtx(*module, /*keepLlvmIR=*/false, emission, nullptr, target))) {
    if (!emission.error.empty())
      diagnostics.push_back("error: the instrumented kernel: " + emission.error);
    return done(false);
  }
  ptx = std::move(emission.ptx);
  if (options.emitCubin && !stop()) {
    // ptxas reads and writes through a CompileResult (Pipeline.h).
    CompileResult assembled;
    assembled.ptx = ptx;
    PtxasRun run;
    bool fine = run.start(options.ptxasPath, assembled, target) &&
                run.finish(assembled, options.cancel.get());
    for (std::string &d : assembled.diagnostics)
      if (d.rfind("warning: ptxas not found", 0) != 0) // the kernel's compile says so
        diagnostics.push_back(std::move(d) + " (the instrumented kernel)");
    if (!fine)
      return done(false);
    cubin = std::move(assembled.cubin);
    ptxas = std::move(assembled.ptxas);
  }
  done(!stop());
}

