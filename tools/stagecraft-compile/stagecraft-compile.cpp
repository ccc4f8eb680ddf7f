//===- stagecraft-compile.cpp - loop IR to a kernel bundle ----------------===//
//
//   stagecraft-compile IN.mlir [--schedule S.json] [--size M=8000 ...] [--target sm_100a]
//                      [--tile-order row-major|column-major|grouped:G] -o DIR
//                      [--export PKG [--measured RESULT.json]] [--timeline FILE.json]
//
// Runs the compile driver (the same call the app makes) and writes a kernel
// bundle (docs/bundle-format.md); --export also writes the kernel as a
// package for a user's project (docs/export.md), --timeline the predicted
// timeline as Chrome trace-event JSON (docs/timeline.md). Diagnostics go to
// stderr with file:line:col; the exit status is non-zero on any error, and no
// bundle or package is written then.
//
//===----------------------------------------------------------------------===//
#include "core/Support/InputCheck.h"
#include "core/Support/ToolExit.h"
#include "passes/Driver/CompileDriver.h"
#include "passes/Driver/Export.h"

#include "core/Schedule/TileLoop.h"
#include "core/Timeline/TimelineTrace.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

// The tool's own options: --help lists these, not every LLVM option linked in.
static cl::OptionCategory toolOptions("stagecraft-compile options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"), cl::Required,
                                  cl::cat(toolOptions));
static cl::opt<std::string> output("o", cl::desc("Bundle directory to write"),
                                   cl::value_desc("dir"), cl::cat(toolOptions));
static cl::opt<std::string> schedule("schedule", cl::desc("Schedule JSON to apply"),
                                     cl::value_desc("file"), cl::cat(toolOptions));
static cl::list<std::string> sizes("size", cl::desc("Problem size, NAME=VALUE (repeatable)"),
                                   cl::value_desc("NAME=VALUE"), cl::cat(toolOptions));
static cl::opt<std::string> kernel("kernel", cl::desc("Kernel to compile (default: the only one)"),
                                   cl::cat(toolOptions));
static cl::opt<std::string> tileOrder(
    "tile-order",
    cl::desc("Set a persistent kernel's tile order first (tile-set-tile-order): row-major, "
             "column-major or grouped:G (G tile rows per group)"),
    cl::value_desc("order"), cl::cat(toolOptions));
static cl::opt<int64_t> clusterSize(
    "cluster",
    cl::desc("CTAs per thread-block cluster (1, 2 or 4; default: the schedule's, else the "
             "kernel's tile.cluster): the loads whose box is the same in every CTA of a "
             "cluster are loaded once for it (TMA multicast)"),
    cl::init(0), cl::cat(toolOptions));
static cl::opt<bool> noCubin("no-cubin", cl::desc("Do not run ptxas"), cl::cat(toolOptions));
static cl::opt<std::string>
    target("target",
           cl::desc("GPU: sm_90a (Hopper, default) or sm_100a (Blackwell: compile-only, "
                    "no runner here)"),
           cl::value_desc("sm_90a|sm_100a"), cl::init("sm_90a"), cl::cat(toolOptions));
static cl::opt<std::string> ptxas("ptxas", cl::desc("ptxas to use"), cl::value_desc("path"),
                                  cl::cat(toolOptions));
static cl::opt<bool> quiet("q", cl::desc("Print nothing on success"), cl::cat(toolOptions));
static cl::opt<std::string>
    exportDir("export",
              cl::desc("Also write the kernel as a Python package + C++ header (docs/export.md)"),
              cl::value_desc("dir"), cl::cat(toolOptions));
static cl::opt<std::string>
    measured("measured",
             cl::desc("A stagecraft-run result of this kernel, for the export's README"),
             cl::value_desc("result.json"), cl::cat(toolOptions));
static cl::opt<bool> withTimeline(
    "with-timeline",
    cl::desc("Also write the instrumented kernel for measured timelines (timeline.ptx, "
             "timeline.cubin, the manifest's \"timeline\"; stagecraft-run --trace)"),
    cl::cat(toolOptions));
static cl::opt<int64_t> timelineCtas(
    "timeline-ctas",
    cl::desc("With --with-timeline: how many CTAs, spread over the grid, record events "
             "(default 4)"),
    cl::init(4), cl::cat(toolOptions));
static cl::opt<int64_t> timelineTiles(
    "timeline-tiles",
    cl::desc("With --with-timeline, in a persistent kernel: how many tiles (their first) the "
             "recording CTAs record; they run the rest as the plain kernel (default 2)"),
    cl::init(2), cl::cat(toolOptions));
static cl::opt<int64_t> timelineCapacity(
    "timeline-capacity",
    cl::desc("With --with-timeline: events kept per recording CTA and warp group (default "
             "8192; more are counted, not kept)"),
    cl::init(8192), cl::cat(toolOptions));
static cl::opt<std::string>
    timelineFile("timeline",
                 cl::desc("Write the predicted timeline (Chrome trace-event JSON) here"),
                 cl::value_desc("file"), cl::cat(toolOptions));

static int compileMain(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "Stagecraft: loop IR to a kernel bundle\n");

  if (output.getNumOccurrences() && output.empty()) {
    errs() << "error: -o: no bundle directory given (an empty path)\n";
    return 1;
  }
  if (exportDir.getNumOccurrences() && exportDir.empty()) {
    errs() << "error: --export: no package directory given (an empty path)\n";
    return 1;
  }
  // "pkg/." and "a/../pkg" name the package directory "pkg": taken so from
  // here on (moving "pkg/." aside failed, leaving an empty pkg behind).
  if (!exportDir.empty()) {
    SmallString<256> norm(exportDir.getValue());
    sys::path::remove_dots(norm, /*remove_dot_dot=*/true);
    exportDir.setValue(std::string(norm));
  }
  for (cl::opt<std::string> *o : {&output, &schedule, &exportDir, &timelineFile, &kernel,
                                  &target, &ptxas, &measured, &tileOrder})
    if (o->getNumOccurrences() > 1) {
      errs() << "error: " << (o->ArgStr.size() == 1 ? "-" : "--") << o->ArgStr << " given "
             << o->getNumOccurrences() << " times; give it once\n";
      return 1;
    }
  if (!withTimeline && (timelineCtas.getNumOccurrences() || timelineTiles.getNumOccurrences() ||
                        timelineCapacity.getNumOccurrences())) {
    errs() << "error: --timeline-ctas, --timeline-tiles and --timeline-capacity shape the "
              "instrumented kernel: they go with --with-timeline\n";
    return 1;
  }
  if (!timelineFile.empty())
    if (Error e = stagecraft::checkOutputFile(timelineFile)) {
      errs() << "error: --timeline: " << toString(std::move(e)) << "\n";
      return 1;
    }
  if (!exportDir.empty() && !output.empty() &&
      sys::path::remove_leading_dotslash(exportDir) == sys::path::remove_leading_dotslash(output)) {
    errs() << "error: --export and -o name the same directory (" << output
           << "): the package and the bundle need places of their own\n";
    return 1;
  }
  std::string readError;
  std::unique_ptr<MemoryBuffer> source = stagecraft::readUserInput(input, readError);
  if (!source) {
    StringRef why(readError);
    errs() << why.split(": ").first << ":1:1: error: " << why.split(": ").second << "\n";
    return 1;
  }
  stagecraft::CompileOptions options;
  options.emitCubin = !noCubin;
  // Nobody looks at the PTX before the bundle is written: the reference and
  // the IR text may take the second core from the start.
  options.ptxFirst = false;
  options.ptxasPath = ptxas;
  options.emitTimeline = withTimeline;
  if (timelineCtas < 1) {
    llvm::errs() << "error: --timeline-ctas must be at least 1 (got " << timelineCtas << ")\n";
    return 1;
  }
  options.timelineCtas = timelineCtas;
  if (timelineTiles < 1) {
    llvm::errs() << "error: --timeline-tiles must be at least 1 (got " << timelineTiles << ")\n";
    return 1;
  }
  options.timelineTiles = timelineTiles;
  if (timelineCapacity < 1 || timelineCapacity > (int64_t(1) << 24)) {
    llvm::errs() << "error: --timeline-capacity must be in 1..16777216 (got " << timelineCapacity
                 << ")\n";
    return 1;
  }
  options.timelineCapacity = timelineCapacity;
  options.kernel = kernel;
  options.target = target;
  if (clusterSize.getNumOccurrences()) {
    if (clusterSize != 1 && clusterSize != 2 && clusterSize != 4) {
      errs() << "error: --cluster must be 1, 2 or 4 (got " << clusterSize << ")\n";
      return 1;
    }
    options.cluster = clusterSize;
  }
  if (!tileOrder.empty()) {
    stagecraft::TileOrderChoice choice;
    std::string error;
    if (!stagecraft::TileOrderChoice::parse(tileOrder, choice, error)) {
      errs() << "error: --tile-order: " << error << "\n";
      return 1;
    }
    options.tileOrder = choice.spec();
  }
  if (std::string why = stagecraft::parseSizeOptions(sizes, options.sizes); !why.empty()) {
    errs() << "error: " << why << "\n";
    return 1;
  }
  if (!schedule.empty()) {
    if (std::string why = stagecraft::checkUserFile(schedule); !why.empty()) {
      errs() << schedule << ":1:1: error: " << StringRef(why).drop_front(schedule.size() + 2) << "\n";
      return 1;
    }
    auto text = MemoryBuffer::getFile(schedule, /*IsText=*/true);
    if (!text) {
      errs() << schedule << ":1:1: error: cannot read: " << text.getError().message() << "\n";
      return 1;
    }
    if ((*text)->getBuffer().trim().empty()) {
      // Worded as Schedule::fromJson words it (stagecraft-timeline's).
      errs() << "error: " << schedule << ": empty schedule file\n";
      return 1;
    }
    options.scheduleJson = (*text)->getBuffer().str();
    options.scheduleSource = schedule;
  }

  std::optional<stagecraft::ExportMeasurement> measurement;
  if (!measured.empty()) {
    if (exportDir.empty()) {
      errs() << "error: --measured goes with --export\n";
      return 1;
    }
    if (std::string why = stagecraft::checkUserFile(measured); !why.empty()) {
      errs() << measured << ":1:1: error: " << StringRef(why).drop_front(measured.size() + 2) << "\n";
      return 1;
    }
    auto text = MemoryBuffer::getFile(measured, /*IsText=*/true);
    if (!text) {
      errs() << measured << ":1:1: error: cannot read: " << text.getError().message() << "\n";
      return 1;
    }
    auto m = stagecraft::parseMeasurement((*text)->getBuffer(), measured);
    if (!m) {
      errs() << "error: " << toString(m.takeError()) << "\n";
      return 1;
    }
    measurement = *m;
  }
  if (!exportDir.empty()) {
    if (auto name = stagecraft::exportPackageName(exportDir); !name) {
      errs() << "error: " << toString(name.takeError()) << "\n";
      return 1;
    }
    // Refused before compiling: an export needs the cubin, and its place.
    if (noCubin) {
      errs() << "error: --export needs the kernel's cubin: drop --no-cubin\n";
      return 1;
    }
    if (Error e = stagecraft::checkExportDestination(exportDir)) {
      errs() << "error: export: " << toString(std::move(e)) << "\n";
      return 1;
    }
  }

  // Refused before the compile, not after it: the user's files stay.
  if (!output.empty())
    if (Error e = stagecraft::checkBundleDestination(output)) {
      errs() << "error: -o: " << toString(std::move(e)) << "\n";
      return 1;
    }
  stagecraft::CompileResult result =
      stagecraft::compile(source->getBuffer(), input, options);
  for (const std::string &d : result.diagnostics)
    errs() << d << "\n";
  if (!result.ok())
    return 1;
  // The timeline (the likeliest output to fail: any path) is written first,
  // and removed again if a later output fails: a failure leaves the bundle,
  // the package and an earlier bundle as they were.
  bool timelineExisted = !timelineFile.empty() && sys::fs::exists(timelineFile);
  if (!timelineFile.empty()) {
    if (!result.prediction.ok) {
      errs() << "error: no predicted timeline: " << result.prediction.error << "\n";
      return 1;
    }
    std::string werr = stagecraft::trace::writeFileAtomically(
        timelineFile, stagecraft::trace::toJson(stagecraft::timeline::predictedTrace(
                          result.prediction, result.kernel, stagecraft::timeline::HopperModel())));
    if (!werr.empty()) {
      errs() << "error: " << werr << "\n";
      return 1;
    }
  }
  auto dropTimeline = [&] {
    if (!timelineFile.empty() && !timelineExisted)
      sys::fs::remove(timelineFile);
  };
  // --export without -o: the bundle goes to a temporary directory.
  std::string bundleDir = output;
  SmallString<128> scratch;
  if (bundleDir.empty() && !exportDir.empty()) {
    if (std::error_code ec = sys::fs::createUniqueDirectory("stagecraft-export", scratch)) {
      errs() << "error: cannot create a temporary directory: " << ec.message() << "\n";
      dropTimeline();
      return 1;
    }
    bundleDir = (scratch + "/bundle").str();
  }
  auto removeScratch = [&] {
    if (!scratch.empty())
      sys::fs::remove_directories(scratch);
  };
  if (!bundleDir.empty())
    if (Error e = stagecraft::writeBundle(result, bundleDir)) {
      errs() << "error: " << toString(std::move(e)) << "\n";
      removeScratch();
      dropTimeline();
      return 1;
    }
  if (!exportDir.empty()) {
    stagecraft::ExportOptions eo;
    eo.bundleDir = bundleDir;
    eo.outDir = exportDir;
    eo.measured = measurement;
    if (Error e = stagecraft::exportPackage(eo)) {
      errs() << "error: export: " << toString(std::move(e)) << "\n";
      removeScratch();
      dropTimeline();
      return 1;
    }
  }
  removeScratch();
  if (!quiet) {
    outs() << "kernel " << result.kernel << ": " << result.steadyState << "\n";
    // The timeline model is the H100's: say so where the kernel is for another GPU.
    outs() << (options.target == "sm_100a" ? "predicted (on an H100; no sm_100a model): "
                                           : "predicted: ")
           << result.prediction.summary() << "\n";
    if (result.ptxas.ran)
      outs() << formatv("ptxas: {0} registers, {1} bytes smem, {2} bytes spill "
                        "stores, {3} bytes spill loads\n",
                        result.ptxas.registers, result.ptxas.sharedBytes,
                        result.ptxas.spillStoreBytes, result.ptxas.spillLoadBytes);
    // The timeline model has no local memory: a spilling kernel runs slower
    // than predicted, by far where the spills sit in a loop (a 2048^2 epilogue
    // of 22 libdevice functions: 30x, bench/results/unseen-math-h200-2026-11-28).
    if (result.ptxas.ran && (result.ptxas.spillStoreBytes || result.ptxas.spillLoadBytes))
      outs() << "note: ptxas spills registers to local memory, which the prediction does "
                "not count: expect the kernel slower than predicted (fewer values live at "
                "once, or more registers for the consumers, help)\n";
    // C7520: ptxas made every wgmma wait for the one before, which the
    // prediction (wgmma groups overlapping as the schedule asks) does not know.
    if (!result.ptxas.wgmmaSerialized.empty())
      outs() << "note: ptxas serialized the wgmma instructions (C7520, "
             << result.ptxas.wgmmaSerialized
             << "): each waits for the one before, so expect the kernel slower than predicted; "
                "another schedule (the MMA's wait, or its stage) may avoid it\n";
    if (!result.timelinePtx.empty()) {
      outs() << formatv("instrumented: timeline.ptx in {0:F1} ms", result.timelineMillis);
      if (result.timelinePtxas.ran)
        outs() << formatv(", {0} registers, {1} bytes spill stores, {2} bytes spill loads",
                          result.timelinePtxas.registers, result.timelinePtxas.spillStoreBytes,
                          result.timelinePtxas.spillLoadBytes);
      outs() << "\n";
    }
    outs() << formatv("time: parse {0:F1} ms, passes {1:F1} ms, ptx {2:F1} ms "
                      "(PTX after {3:F1} ms), reference {4:F1} ms, IR text {5:F1} ms, "
                      "ptxas {6:F1} ms, total {7:F1} ms\n",
                      result.parseMillis, result.passesMillis, result.ptxMillis,
                      result.ptxReadyMillis, result.referenceMillis,
                      result.snapshotMillis, result.ptxasMillis, result.totalMillis);
    if (!output.empty())
      outs() << "bundle: " << output << "\n";
    if (!exportDir.empty())
      outs() << "exported: " << exportDir << " (README.md says how to call it)\n";
    if (!timelineFile.empty())
      outs() << "timeline: " << timelineFile << "\n";
  }
  return 0;
}

int main(int argc, char **argv) { return stagecraft::finishStdout(compileMain(argc, argv)); }
