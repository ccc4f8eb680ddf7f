//===- CompileDriver.cpp - the compile pipeline as a library call ---------===//
#include "passes/Driver/CompileDriver.h"
#include "passes/Driver/Manifest.h"
#include "passes/Driver/Pipeline.h"
#include "passes/Driver/ReferenceBuild.h"
#include "passes/Driver/Signature.h"
#include "passes/Driver/TimelineBuild.h"
#include "passes/Driver/TimelineManifest.h"
#include "passes/Lowering/TimelineProbes.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Support/InputCheck.h"
#include "core/Timeline/UnitCosts.h"
#include "passes/Driver/PredictionCosts.h"
#include "passes/Passes.h"
#include "passes/TileOrder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

using namespace mlir;
using namespace stagecraft;

namespace {
using Clock = std::chrono::steady_clock;
double millisSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// Collects diagnostics as "file:line:col: severity: message" lines, each
/// once (the prediction and the manifest check the same sizes).
class DiagnosticCollector {
public:
  DiagnosticCollector(MLIRContext &ctx, std::vector<std::string> &out)
      : handler(&ctx, [&out](Diagnostic &diag) {
          std::string line = formatDiagnostic(diag);
          if (llvm::is_contained(out, line))
            return success();
          out.push_back(line);
          for (Diagnostic &note : diag.getNotes())
            out.push_back(formatDiagnostic(note));
          return success();
        }) {}

private:
  ScopedDiagnosticHandler handler;
};

std::string printModule(ModuleOp module,
                        OpPrintingFlags flags = OpPrintingFlags()) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, flags);
  return text;
}

bool cancelled(const CompileOptions &o) {
  return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

/// The IR after each lowering pass, kept as copies of the module and
/// printed once nothing waits for them (printing the lowered attention
/// kernel takes longer than lowering it): on a thread of its own once the
/// kernel's module is translated to LLVM IR (the kernel's MLIRContext is not
/// touched after that), or here.
class SnapshotPrinter {
public:
  explicit SnapshotPrinter(const CompileOptions &options) : options(options) {}
  SnapshotPrinter(const SnapshotPrinter &) = delete;
  SnapshotPrinter &operator=(const SnapshotPrinter &) = delete;
  ~SnapshotPrinter() { join(); }

  /// `verified`: the module is known valid (the printer need not verify
  /// it). A copy is kept unless `live`: the caller keeps the module as it is
  /// until finish() (the last pass's: translation only reads it).
  void add(size_t index, ModuleOp module, bool verified, bool live) {
    Pending p{index, nullptr, live ? module : ModuleOp(), verified, ""};
    if (!live)
      p.copy = module.clone();
    pending.push_back(std::move(p));
  }
  void markLastVerified() {
    if (!pending.empty())
      pending.back().verified = true;
  }
  void start() {
    if (!pending.empty() && !thread.joinable() && !printed)
      thread = std::thread([this] { printAll(); });
  }
  /// Puts the texts into `result.passes`, printing them here when start()
  /// was not called. Returns the milliseconds spent here.
  double finish(CompileResult &result) {
    auto t = Clock::now();
    if (!thread.joinable())
      printAll();
    join();
    for (Pending &p : pending)
      result.passes[p.index].ir = std::move(p.text);
    pending.clear();
    return millisSince(t);
  }

  void join() {
    if (thread.joinable())
      thread.join();
  }

private:
  struct Pending {
    size_t index; // into CompileResult::passes
    OwningOpRef<ModuleOp> copy;
    ModuleOp live;
    bool verified;
    std::string text;
  };
  void printAll() {
    for (Pending &p : pending) {
      if (cancelled(options))
        break;
      OpPrintingFlags flags;
      if (p.verified)
        flags.assumeVerified();
      p.text = printModule(p.copy ? *p.copy : p.live, flags);
      p.copy = nullptr; // freed as it goes
    }
    printed = true;
  }

  const CompileOptions &options;
  std::vector<Pending> pending;
  std::thread thread;
  bool printed = false;
};
} // namespace

CompileResult stagecraft::compile(llvm::StringRef source,
                                  llvm::StringRef sourceName,
                                  const CompileOptions &options) {
  auto start = Clock::now();
  CompileResult result;
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  registerCodegenDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  // A diagnostic names the op and its file:line; the op's dump (a whole loop
  // for an error at the loop) would bury it.
  ctx.printOpOnDiagnostic(false);
  DiagnosticCollector collector(ctx, result.diagnostics);
  // After the context: its copies of the module go first.
  SnapshotPrinter snapshots(options);
  auto finish = [&](CompileResult::Status status) {
    // The IR up to a failure is printed too: it shows what went wrong.
    if (status != CompileResult::Status::Cancelled)
      result.snapshotMillis += snapshots.finish(result);
    else
      snapshots.join(); // it stops at the next copy
    result.status = status;
    result.totalMillis = millisSince(start);
    return std::move(result);
  };

  std::string problem = checkInputText(source, sourceName);
  if (!problem.empty()) {
    result.diagnostics.push_back(problem);
    return finish(CompileResult::Status::Error);
  }
  std::optional<Target> target = Target::parse(options.target);
  if (!target) {
    result.diagnostics.push_back("error: unknown target \"" + options.target + "\" (known: " +
                                 Target::known().str() + ")");
    return finish(CompileResult::Status::Error);
  }

  auto t = Clock::now();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, sourceName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  result.parseMillis = millisSince(t);
  if (!module)
    return finish(CompileResult::Status::Error);
  // The IR before the lowering is small: printed at once (the schedule
  // check's result shows it).
  result.passes.push_back({"input", printModule(*module), result.parseMillis});

  t = Clock::now();
  FailureOr<func::FuncOp> kernel = selectKernel(*module, options.kernel);
  if (failed(kernel))
    return finish(CompileResult::Status::Error);
  result.kernel = kernel->getSymName().str();
  if (!options.tileOrder.empty()) {
    auto orderStart = Clock::now();
    if (failed(setTileOrder(*kernel, options.tileOrder)))
      return finish(CompileResult::Status::Error);
    result.passes.push_back(
        {"tile-set-tile-order", printModule(*module), millisSince(orderStart)});
  }

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
    if (!given->kernel.empty() && given->kernel != result.kernel) {
      result.diagnostics.push_back("error: " + options.scheduleSource + ": the schedule is for kernel @" +
                                   given->kernel + ", not @" + result.kernel +
                                   " (set \"kernel\" to \"\" to apply it to any kernel)");
      return finish(CompileResult::Status::Error);
    }
    // Unknown names are reported by checkSchedule below (rule unknown-unit);
    // writeSchedule puts the kernel-wide choices on the kernel.
    schedule.overlay(*given);
  }
  if (options.consumers)
    schedule.consumers = options.consumers;
  if (options.cluster)
    schedule.cluster = options.cluster;
  schedule.kernel = result.kernel;
  result.scheduleJson = schedule.toJson();
  ScheduleReport report =
      checkSchedule(*graph, schedule, target->blackwell() ? TargetLimits::sm100a() : TargetLimits{});
  result.scheduleSummary = report.summary();
  result.steadyState = report.steadyState;
  if (!report.legal()) {
    for (const Violation &v : report.violations)
      result.diagnostics.push_back(
          (v.location.empty() ? "" : v.location + ": ") + "error: illegal schedule (" +
          ruleName(v.rule) + "): " + v.message +
          // The IR's line is where the op is; the schedule that moved it
          // may be a file of its own, as stagecraft-timeline says too.
          (options.scheduleJson.empty() || options.scheduleSource.empty()
               ? ""
               : " (schedule: " + options.scheduleSource + ")"));
    return finish(CompileResult::Status::Error);
  }
  // The predicted timeline needs the unit costs at these sizes (an unknown
  // size is an error here as in the manifest).
  FailureOr<timeline::KernelCosts> costs =
      predictionCosts(*kernel, *graph, options.sizes);
  if (failed(costs))
    return finish(CompileResult::Status::Error);
  result.prediction = timeline::predict(*graph, schedule, report, *costs, timeline::HopperModel());
  auto applyStart = Clock::now();
  if (failed(writeSchedule(*kernel, schedule)))
    return finish(CompileResult::Status::Error);
  result.passes.push_back(
      {"tile-apply-schedule", printModule(*module), millisSince(applyStart)});
  result.checkMillis = millisSince(t);
  if (options.scheduleOnly)
    return finish(CompileResult::Status::Ok);
  // The phases handed on so far succeeded (finish() sets the final status;
  // until then the result's default is Error, which the app would show).
  result.status = CompileResult::Status::Ok;
  if (options.onScheduleChecked)
    options.onScheduleChecked(result);

  FailureOr<KernelManifest> manifest = deriveManifest(*kernel, options.sizes);
  if (succeeded(manifest))
    manifest->target = target->name().str();
  if (failed(manifest))
    return finish(CompileResult::Status::Error);
  // A loop bounded by data (lengths read from a tensor) has no FLOP count:
  // the runner then reports its time only. Said here, where the bundle is
  // made, not discovered as "0 TFLOP/s".
  bool hasDot = false;
  kernel->walk([&](Operation *op) { hasDot |= isa<tile::DotOp, tile::DotScaledOp>(op); });
  if (hasDot && manifest->flops <= 0 && !manifest->flopsUncounted)
    result.diagnostics.push_back(
        "note: no FLOPs at these sizes: the pipelined loop runs no iterations (its bounds "
        "meet), so the runner reports its time, no TFLOP/s");
  else if (hasDot && manifest->flops <= 0)
    result.diagnostics.push_back(
        "note: no FLOP count at these sizes (the pipelined loop's trip count depends on the "
        "kernel's data, or the launch has more loop iterations than are counted): the runner "
        "reports its time, no TFLOP/s; the prediction assumes the trip counts its notes name");
  // For export: the interface at any sizes (signature.json).
  result.signatureJson = describeSignature(*kernel, source, sourceName, report);

  // The reference is lowered from the same scheduled IR, in its own context
  // on its own thread (ReferenceBuild.h). Its destructor joins it on every
  // return path.
  std::string scheduledIR;
  if (options.emitReference || options.emitTimeline)
    scheduledIR = printModule(*module, OpPrintingFlags().enableDebugInfo().assumeVerified());
  // The instrumented kernel (TimelineBuild.h), likewise; started after the
  // kernel's PTX.
  std::unique_ptr<TimelineThread> timelineBuild;
  if (options.emitTimeline && target->blackwell()) {
    result.diagnostics.push_back("note: no instrumented kernel for " + target->name().str() +
                                 " (measured timelines are sm_90a only)");
  } else if (options.emitTimeline) {
    auto build = std::make_unique<TimelineBuild>();
    build->scheduledIR = scheduledIR;
    build->sourceName = sourceName.str();
    build->kernel = result.kernel;
    build->target = *target;
    build->options = options;
    build->options.onPtx = build->options.onScheduleChecked = nullptr;
    timelineBuild = std::make_unique<TimelineThread>(std::move(build));
  }
  std::unique_ptr<ReferenceThread> reference;
  if (options.emitReference) {
    auto build = std::make_unique<ReferenceBuild>();
    build->scheduledIR = std::move(scheduledIR);
    build->sourceName = sourceName.str();
    build->programs = manifest->programs;
    build->target = *target;
    build->cancel = options.cancel;
    reference = std::make_unique<ReferenceThread>(std::move(build));
    if (!options.ptxFirst)
      reference->start();
  }

  int64_t blockThreads = 128, dynamicSmem = 0;
  // The lowering passes, one at a time: a copy of the IR after each, and a
  // cancellation check between them.
  auto passesStart = Clock::now();
  bool verified = true;
  std::vector<PipelineStep> steps = codegenPipeline(options, result.kernel);
  for (size_t i = 0; i < steps.size(); ++i) {
    const PipelineStep &step = steps[i];
    if (cancelled(options))
      return finish(CompileResult::Status::Cancelled);
    t = Clock::now();
    if (failed(step.run(*module))) {
      result.passesMillis = millisSince(passesStart);
      return finish(CompileResult::Status::Error);
    }
    verified = step.verifyEachPass;
    double millis = millisSince(t);
    // The module after the last pass is its own snapshot: it is not
    // changed after it.
    if (options.keepSnapshots)
      snapshots.add(result.passes.size(), *module, verified,
                    /*live=*/i + 1 == steps.size());
    result.passes.push_back({step.name, "", millis});
  }
  // The conversions' output, verified once rather than after each of them.
  if (!verified) {
    if (failed(verify(*module))) {
      result.passesMillis = millisSince(passesStart);
      return finish(CompileResult::Status::Error);
    }
    snapshots.markLastVerified();
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
    // Translation to LLVM IR ignores these attributes (no dialect named
    // "stagecraft" translates them): the module is left as it is, since it
    // is the last pass's snapshot.
    auto block = fn->getAttrOfType<IntegerAttr>("stagecraft.block");
    auto smem = fn->getAttrOfType<IntegerAttr>("stagecraft.dynamic_smem");
    blockThreads = block ? block.getInt() : 128;
    dynamicSmem = smem ? smem.getInt() : 0;
    result.manifestJson = manifest->toJson(blockThreads, dynamicSmem, nullptr);
  }

  t = Clock::now();
  PtxEmission emission;
  // When the PTX need not come first, the IR text is printed while LLVM
  // optimizes (the command-line tool: two cores, and it waits for all).
  std::function<void()> translated;
  if (!options.ptxFirst)
    translated = [&] { snapshots.start(); };
  if (failed(emitPtx(*module, options.keepLlvmIR, emission, translated, *target))) {
    if (!emission.error.empty()) {
      snapshots.finish(result); // the printer is done with the context
      module->emitError(emission.error);
    }
    return finish(CompileResult::Status::Error);
  }
  result.ptx = std::move(emission.ptx);
  result.ptxMillis = millisSince(t);
  result.llvmTranslateMillis = emission.translateMillis;
  result.llvmOptimizeMillis = emission.optimizeMillis;
  result.nvptxMillis = emission.codegenMillis;
  result.ptxReadyMillis = millisSince(start);
  // Everything below overlaps: the reference on its thread, ptxas in its
  // process, the IR text here.
  if (reference && !cancelled(options))
    reference->start();
  if (timelineBuild && !cancelled(options))
    timelineBuild->start();
  result.status = CompileResult::Status::Ok;
  if (options.onPtx)
    options.onPtx(result);
  if (cancelled(options))
    return finish(CompileResult::Status::Cancelled);

  auto ptxasStart = Clock::now();
  PtxasRun ptxas;
  if (options.emitCubin && !ptxas.start(options.ptxasPath, result, *target))
    return finish(CompileResult::Status::Error);

  snapshots.start();
  t = Clock::now();
  result.llvmIR = emission.printLlvmIR();
  result.snapshotMillis += millisSince(t);
  result.snapshotMillis += snapshots.finish(result);
  if (cancelled(options))
    return finish(CompileResult::Status::Cancelled);

  if (options.emitCubin) {
    bool assembled = ptxas.finish(result, options.cancel.get());
    result.ptxasMillis = millisSince(ptxasStart);
    if (cancelled(options))
      return finish(CompileResult::Status::Cancelled);
    if (!assembled)
      return finish(CompileResult::Status::Error);
    if (result.ptxas.ran && result.ptxas.registers > 0) {
      timeline::SimOptions sim;
      sim.registersPerThread = result.ptxas.registers;
      sim.dynamicSmemBytes = dynamicSmem;
      result.prediction = timeline::predict(*graph, schedule, report, *costs,
                                            timeline::HopperModel(), sim);
    }
  }

  if (reference) {
    ReferenceBuild &ref = reference->join();
    result.referenceMillis = ref.millis;
    if (cancelled(options))
      return finish(CompileResult::Status::Cancelled);
    result.diagnostics.insert(result.diagnostics.end(), ref.diagnostics.begin(),
                              ref.diagnostics.end());
    if (!ref.ok)
      return finish(CompileResult::Status::Error);
    result.referencePtx = std::move(ref.ptx);
    result.referenceKernel = ref.kernel;
    result.referenceBlocks = ref.blocks;
    result.referenceScratchPerBlock = ref.scratchPerBlock;
    ReferenceLaunch launch{result.referenceKernel, result.referenceBlocks, 256,
                           result.referenceScratchPerBlock};
    result.manifestJson = manifest->toJson(blockThreads, dynamicSmem, &launch);
  }

  if (timelineBuild) {
    TimelineBuild &tl = timelineBuild->join();
    result.timelineMillis = tl.millis;
    if (cancelled(options))
      return finish(CompileResult::Status::Cancelled);
    result.diagnostics.insert(result.diagnostics.end(), tl.diagnostics.begin(),
                              tl.diagnostics.end());
    if (!tl.ok)
      return finish(CompileResult::Status::Error);
    // The runner could not hold this buffer: say so now, not on the GPU host.
    const TimelineDescription &d = tl.description;
    double bufferBytes = static_cast<double>(sampledCtas(d.ctas, manifest->grid).size()) *
                         static_cast<double>(d.warpGroups.size()) *
                         static_cast<double>(lowering::kTimelineHeaderBytes +
                                             lowering::kTimelineRecordBytes * d.capacity);
    if (bufferBytes > static_cast<double>(lowering::kTimelineBufferLimitBytes)) {
      result.diagnostics.push_back(llvm::formatv(
          "error: the instrumented kernel's event buffer would take {0:F0} MB ({1} recording "
          "CTAs x {2} warp groups x {3} records), over the runner's limit of 1 GiB: record fewer "
          "CTAs (--timeline-ctas) or fewer events each (--timeline-capacity)",
          bufferBytes / 1e6, sampledCtas(d.ctas, manifest->grid).size(), d.warpGroups.size(),
          d.capacity));
      return finish(CompileResult::Status::Error);
    }
    llvm::Expected<std::string> withIt = withTimeline(
        result.manifestJson, timelineManifestObject(tl.description, result.kernel, manifest->grid));
    if (!withIt) {
      result.diagnostics.push_back("error: manifest.json: " + llvm::toString(withIt.takeError()));
      return finish(CompileResult::Status::Error);
    }
    result.manifestJson = std::move(*withIt);
    result.timelinePtx = std::move(tl.ptx);
    result.timelineCubin = std::move(tl.cubin);
    result.timelinePtxas = std::move(tl.ptxas);
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

/// A refusal of an output path, as an llvm::Error carrying `why`.
static llvm::Error refuse(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", why.str().c_str());
}

llvm::Error stagecraft::checkBundleDestination(llvm::StringRef dir) {
  namespace fs = llvm::sys::fs;
  if (dir.empty())
    return refuse("no bundle directory given");
  if (!fs::exists(dir))
    return llvm::Error::success();
  if (!fs::is_directory(dir))
    return refuse("bundle directory \"" + dir + "\" exists and is not a directory; choose a new path");
  // An earlier bundle is replaced (recompiling into the same place is the
  // usual loop); an empty directory is taken; anything else is the user's
  // and stays.
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec)
    return refuse("cannot read bundle directory \"" + dir + "\": " + ec.message());
  if (it == end)
    return llvm::Error::success();
  auto manifest = llvm::MemoryBuffer::getFile(dir + "/manifest.json", /*IsText=*/true);
  if (!manifest || !(*manifest)->getBuffer().contains("\"stagecraft-bundle\""))
    return refuse("bundle directory \"" + dir + "\" exists and is not an earlier bundle (no "
                  "stagecraft-bundle manifest.json); choose a new or empty directory");
  return llvm::Error::success();
}

llvm::Error stagecraft::checkOutputFile(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  if (path.empty())
    return refuse("no file given");
  if (fs::is_directory(path))
    return refuse("\"" + path + "\" is a directory; name a file");
  llvm::SmallString<256> parent(path);
  llvm::sys::path::remove_filename(parent);
  if (parent.empty())
    parent = ".";
  if (!fs::exists(parent))
    return refuse("the directory \"" + parent + "\" of \"" + path + "\" does not exist");
  if (!fs::is_directory(parent))
    return refuse("\"" + parent + "\" (of \"" + path + "\") is not a directory");
  if (fs::access(parent, fs::AccessMode::Write))
    return refuse("cannot write in \"" + parent + "\" (for \"" + path + "\")");
  return llvm::Error::success();
}

llvm::Error stagecraft::writeBundle(const CompileResult &result,
                                    llvm::StringRef dir) {
  namespace fs = llvm::sys::fs;
  if (!result.ok())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write a bundle of a failed compile");
  if (llvm::Error e = checkBundleDestination(dir))
    return e;
  llvm::SmallString<256> parent(dir);
  llvm::sys::path::remove_filename(parent);
  if (!parent.empty())
    if (std::error_code ec = fs::create_directories(parent))
      return llvm::createStringError(ec, "cannot create %s: %s", parent.c_str(),
                                     ec.message().c_str());
  // Written beside its place under a name of this process's own, then
  // renamed into place: a failure leaves the earlier bundle as it was.
  std::string suffix = "-" + std::to_string(llvm::sys::Process::getProcessId());
  llvm::SmallString<256> tmp(dir);
  tmp += ".partial" + suffix;
  fs::remove_directories(tmp);
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
  if (!result.timelinePtx.empty()) {
    if (auto e = writeFile(in("timeline.ptx"), result.timelinePtx)) return e;
    if (!result.timelineCubin.empty())
      if (auto e = writeFile(in("timeline.cubin"), result.timelineCubin)) return e;
    if (result.timelinePtxas.ran)
      if (auto e = writeFile(in("timeline-ptxas.txt"), result.timelinePtxas.text)) return e;
  }
  for (size_t i = 0; i < result.passes.size(); ++i)
    if (auto e = writeFile(in(llvm::formatv("ir/{0}{1}-{2}.mlir", i < 10 ? "0" : "", i,
                                            result.passes[i].name)
                                  .str()),
                           result.passes[i].ir))
      return e;
  std::string old = (dir + ".old" + suffix).str();
  bool hadOld = fs::exists(dir);
  if (hadOld)
    if (std::error_code ec = fs::rename(dir, old)) {
      fs::remove_directories(tmp);
      return llvm::createStringError(ec, "cannot move the earlier bundle %s aside: %s",
                                     dir.str().c_str(), ec.message().c_str());
    }
  if (std::error_code ec = fs::rename(tmp, dir)) {
    if (hadOld)
      fs::rename(old, dir);
    fs::remove_directories(tmp);
    return llvm::createStringError(ec, "cannot move %s to %s: %s", tmp.c_str(),
                                   dir.str().c_str(), ec.message().c_str());
  }
  if (hadOld)
    fs::remove_directories(old);
  return llvm::Error::success();
}
