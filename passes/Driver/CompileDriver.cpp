//===- CompileDriver.cpp - the compile pipeline as a library call ---------===//
#include "passes/Driver/CompileDriver.h"
#include "passes/Driver/Manifest.h"
#include "passes/Driver/Pipeline.h"
#include "passes/Driver/Signature.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Support/InputCheck.h"
#include "core/Timeline/UnitCosts.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace stagecraft;

namespace {
using Clock = std::chrono::steady_clock;
double millisSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// Collects diagnostics as "file:line:col: severity: message" lines.
class DiagnosticCollector {
public:
  DiagnosticCollector(MLIRContext &ctx, std::vector<std::string> &out)
      : handler(&ctx, [&out](Diagnostic &diag) {
          out.push_back(formatDiagnostic(diag));
          for (Diagnostic &note : diag.getNotes())
            out.push_back(formatDiagnostic(note));
          return success();
        }) {}

private:
  ScopedDiagnosticHandler handler;
};

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

bool cancelled(const CompileOptions &o) {
  return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

/// The reference kernel: the scheduled IR lowered plainly, to PTX. Blocks:
/// enough to fill the GPU, each with its scratch, at most 2 GiB of it.
LogicalResult lowerReference(ModuleOp module, const KernelManifest &manifest,
                             CompileResult &result) {
  PassManager pm(module.getContext());
  for (const PipelineStep &step : referencePipeline())
    step.add(pm);
  if (failed(pm.run(module)))
    return failure();
  LLVM::LLVMFuncOp fn;
  module.walk([&](LLVM::LLVMFuncOp f) {
    if (f->hasAttr("stagecraft.scratch_per_block"))
      fn = f;
  });
  if (!fn)
    return module.emitError("the reference lowering produced no kernel");
  result.referenceKernel = fn.getSymName().str();
  result.referenceScratchPerBlock =
      fn->getAttrOfType<IntegerAttr>("stagecraft.scratch_per_block").getInt();
  fn->removeAttr("stagecraft.scratch_per_block");
  fn->removeAttr("stagecraft.block");
  int64_t byMemory = std::max<int64_t>(
      1, (int64_t(2) << 30) / std::max<int64_t>(1, result.referenceScratchPerBlock));
  result.referenceBlocks = std::max<int64_t>(
      1, std::min<int64_t>({manifest.programs, 8 * 132, std::max<int64_t>(132, byMemory)}));
  std::string llvmIR;
  return emitPtx(module, llvmIR, result.referencePtx);
}
} // namespace

CompileResult stagecraft::compile(llvm::StringRef source,
                                  llvm::StringRef sourceName,
                                  const CompileOptions &options) {
  auto start = Clock::now();
  CompileResult result;
  auto finish = [&](CompileResult::Status status) {
    result.status = status;
    result.totalMillis = millisSince(start);
    return std::move(result);
  };

  std::string problem = checkInputText(source, sourceName);
  if (!problem.empty()) {
    result.diagnostics.push_back(problem);
    return finish(CompileResult::Status::Error);
  }

  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  registerCodegenDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  // A diagnostic names the op and its file:line; the op's dump (a whole loop
  // for an error at the loop) would bury it.
  ctx.printOpOnDiagnostic(false);
  DiagnosticCollector collector(ctx, result.diagnostics);

  auto t = Clock::now();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, sourceName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  result.parseMillis = millisSince(t);
  if (!module)
    return finish(CompileResult::Status::Error);
  result.passes.push_back({"input", printModule(*module), result.parseMillis});

  FailureOr<func::FuncOp> kernel = selectKernel(*module, options.kernel);
  if (failed(kernel))
    return finish(CompileResult::Status::Error);
  result.kernel = kernel->getSymName().str();

  // The schedule: the IR's own, overridden by the given JSON.
  FailureOr<LoopGraph> graph = buildLoopGraph(*kernel);
  if (failed(graph))
    return finish(CompileResult::Status::Error);
  Schedule schedule = graph->initialSchedule;
  if (!options.scheduleJson.empty()) {
    llvm::Expected<Schedule> given =
        Schedule::fromJson(options.scheduleJson, options.scheduleSource);
    if (!given) {
      result.diagnostics.push_back("error: " + llvm::toString(given.takeError()));
      return finish(CompileResult::Status::Error);
    }
    // Unknown names are reported by checkSchedule below (rule unknown-unit).
    for (const ScheduleEntry &e : given->entries())
      schedule.set(e.name, e.sched);
  }
  schedule.kernel = result.kernel;
  result.scheduleJson = schedule.toJson();
  ScheduleReport report = checkSchedule(*graph, schedule);
  result.scheduleSummary = report.summary();
  result.steadyState = report.steadyState;
  if (!report.legal()) {
    for (const Violation &v : report.violations)
      result.diagnostics.push_back(
          (v.location.empty() ? "" : v.location + ": ") + "error: illegal schedule (" +
          ruleName(v.rule) + "): " + v.message);
    return finish(CompileResult::Status::Error);
  }
  // The predicted timeline needs the unit costs at these sizes (an unknown
  // size is an error here as in the manifest).
  FailureOr<timeline::KernelCosts> costs =
      timeline::extractKernelCosts(*kernel, *graph, options.sizes);
  if (failed(costs))
    return finish(CompileResult::Status::Error);
  result.prediction = timeline::predict(*graph, schedule, report, *costs, timeline::HopperModel());
  t = Clock::now();
  if (failed(writeSchedule(*kernel, schedule)))
    return finish(CompileResult::Status::Error);
  result.passes.push_back({"tile-apply-schedule", printModule(*module), millisSince(t)});
  if (options.scheduleOnly)
    return finish(CompileResult::Status::Ok);

  FailureOr<KernelManifest> manifest = deriveManifest(*kernel, options.sizes);
  if (failed(manifest))
    return finish(CompileResult::Status::Error);
  // For export: the interface at any sizes (signature.json).
  result.signatureJson = describeSignature(*kernel, source, sourceName, report);

  // The reference is lowered from the same scheduled IR, later.
  OwningOpRef<ModuleOp> referenceModule;
  if (options.emitReference)
    referenceModule = module->clone();

  int64_t blockThreads = 128, dynamicSmem = 0;
  // The lowering passes, one at a time: a snapshot after each, and a
  // cancellation check between them.
  auto passesStart = Clock::now();
  for (const PipelineStep &step : codegenPipeline(options, result.kernel)) {
    if (cancelled(options))
      return finish(CompileResult::Status::Cancelled);
    t = Clock::now();
    PassManager pm(&ctx);
    step.add(pm);
    if (failed(pm.run(*module))) {
      result.passesMillis = millisSince(passesStart);
      return finish(CompileResult::Status::Error);
    }
    result.passes.push_back({step.name, printModule(*module), millisSince(t)});
  }
  result.passesMillis = millisSince(passesStart);
  if (cancelled(options))
    return finish(CompileResult::Status::Cancelled);
  {
    auto fn = module->lookupSymbol<LLVM::LLVMFuncOp>(result.kernel);
    if (!fn) {
      result.diagnostics.push_back("error: the lowering produced no kernel @" + result.kernel);
      return finish(CompileResult::Status::Error);
    }
    auto block = fn->getAttrOfType<IntegerAttr>("stagecraft.block");
    auto smem = fn->getAttrOfType<IntegerAttr>("stagecraft.dynamic_smem");
    blockThreads = block ? block.getInt() : 128;
    dynamicSmem = smem ? smem.getInt() : 0;
    result.manifestJson = manifest->toJson(blockThreads, dynamicSmem, nullptr);
    fn->removeAttr("stagecraft.block");
    fn->removeAttr("stagecraft.dynamic_smem");
  }

  t = Clock::now();
  if (failed(emitPtx(*module, result.llvmIR, result.ptx)))
    return finish(CompileResult::Status::Error);
  result.ptxMillis = millisSince(t);
  if (cancelled(options))
    return finish(CompileResult::Status::Cancelled);

  if (referenceModule) {
    t = Clock::now();
    if (failed(lowerReference(*referenceModule, *manifest, result)))
      return finish(CompileResult::Status::Error);
    ReferenceLaunch launch{result.referenceKernel, result.referenceBlocks, 256,
                           result.referenceScratchPerBlock};
    result.manifestJson = manifest->toJson(blockThreads, dynamicSmem, &launch);
    result.referenceMillis = millisSince(t);
    if (cancelled(options))
      return finish(CompileResult::Status::Cancelled);
  }

  if (options.emitCubin) {
    t = Clock::now();
    if (failed(assembleCubin(options.ptxasPath, result)))
      return finish(CompileResult::Status::Error);
    result.ptxasMillis = millisSince(t);
    if (result.ptxas.ran && result.ptxas.registers > 0) {
      timeline::SimOptions sim;
      sim.registersPerThread = result.ptxas.registers;
      sim.dynamicSmemBytes = dynamicSmem;
      result.prediction = timeline::predict(*graph, schedule, report, *costs,
                                            timeline::HopperModel(), sim);
    }
  }
  return finish(CompileResult::Status::Ok);
}

static llvm::Error writeFile(const llvm::Twine &path, llvm::StringRef data) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path.str(), ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write %s: %s", path.str().c_str(),
                                   ec.message().c_str());
  os << data;
  os.close();
  if (os.has_error())
    return llvm::createStringError(os.error(), "error writing %s",
                                   path.str().c_str());
  return llvm::Error::success();
}

llvm::Error stagecraft::writeBundle(const CompileResult &result,
                                    llvm::StringRef dir) {
  if (!result.ok())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write a bundle of a failed compile");
  llvm::SmallString<256> tmp(dir);
  tmp += ".partial";
  llvm::sys::fs::remove_directories(tmp);
  if (std::error_code ec = llvm::sys::fs::create_directories(tmp + "/ir"))
    return llvm::createStringError(ec, "cannot create %s: %s", tmp.c_str(),
                                   ec.message().c_str());
  auto in = [&](llvm::StringRef name) { return (tmp + "/" + name).str(); };
  if (auto e = writeFile(in("manifest.json"), result.manifestJson)) return e;
  if (auto e = writeFile(in("kernel.ptx"), result.ptx)) return e;
  if (!result.cubin.empty())
    if (auto e = writeFile(in("kernel.cubin"), result.cubin)) return e;
  if (!result.referencePtx.empty())
    if (auto e = writeFile(in("reference.ptx"), result.referencePtx)) return e;
  if (auto e = writeFile(in("schedule.json"), result.scheduleJson)) return e;
  if (!result.signatureJson.empty())
    if (auto e = writeFile(in("signature.json"), result.signatureJson)) return e;
  if (auto e = writeFile(in("ptxas.txt"), result.ptxas.text)) return e;
  if (!result.llvmIR.empty())
    if (auto e = writeFile(in("kernel.ll"), result.llvmIR)) return e;
  for (size_t i = 0; i < result.passes.size(); ++i)
    if (auto e = writeFile(in(llvm::formatv("ir/{0}{1}-{2}.mlir", i < 10 ? "0" : "", i,
                                            result.passes[i].name)
                                  .str()),
                           result.passes[i].ir))
      return e;
  llvm::sys::fs::remove_directories(dir);
  if (std::error_code ec = llvm::sys::fs::rename(tmp, dir))
    return llvm::createStringError(ec, "cannot move %s to %s: %s", tmp.c_str(),
                                   dir.str().c_str(), ec.message().c_str());
  return llvm::Error::success();
}
