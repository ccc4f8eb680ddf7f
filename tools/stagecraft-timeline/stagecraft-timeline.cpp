//===- stagecraft-timeline.cpp - predicted timelines without codegen ------===//
//
//   stagecraft-timeline IN.mlir [--schedule S.json] [--size M=8000 ...]
//                       [--params P.json] [--trace OUT.json] [--json]
//   stagecraft-timeline --batch CONFIGS.json [--params P.json]
//
// Predicts how a schedule runs (core/Timeline: the Hopper model and its
// discrete-event simulation) from the IR and the schedule alone: no
// lowering, no PTX. The first form prints the prediction (or one JSON
// object) and can write the predicted timeline as Chrome trace-event JSON.
// The batch form reads a JSON array of {"id", "ir", "schedule" (a path or
// an object), "sizes": {"M": 8000, ...}, optional "registers" and
// "dynamic_smem_bytes"} and prints one JSON line per entry; each IR file is
// parsed once. bench/timeline/calibrate.py drives it.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Support/Json.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Support/InputCheck.h"
#include "core/Support/ToolExit.h"
#include "core/Timeline/Simulator.h"
#include "core/Timeline/TimelineTrace.h"
#include "core/Timeline/UnitCosts.h"
#include "passes/Driver/LoweringCheck.h"
#include "passes/Driver/PredictionCosts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

using namespace llvm;
using namespace stagecraft;

// The tool's own options: --help lists these, not every LLVM option linked in.
static cl::OptionCategory toolOptions("stagecraft-timeline options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"), cl::cat(toolOptions));
static cl::opt<std::string> scheduleFile("schedule", cl::desc("Schedule JSON to apply"),
                                         cl::value_desc("file"), cl::cat(toolOptions));
static cl::list<std::string> sizeArgs("size", cl::desc("Problem size, NAME=VALUE (repeatable)"),
                                      cl::value_desc("NAME=VALUE"), cl::cat(toolOptions));
static cl::opt<std::string>
    paramsFile("params", cl::desc("Model parameters (JSON) overriding the calibrated ones"),
               cl::value_desc("file"), cl::cat(toolOptions));
static cl::opt<std::string>
    traceFile("trace", cl::desc("Write the predicted timeline (Chrome trace-event JSON)"),
              cl::value_desc("file"), cl::cat(toolOptions));
static cl::opt<std::string> batchFile("batch",
                                      cl::desc("Predict every configuration of a JSON array"),
                                      cl::value_desc("file"), cl::cat(toolOptions));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("The kernel to predict (default: the only one)"),
                                       cl::cat(toolOptions));
static cl::opt<int64_t> clusterSize(
    "cluster",
    cl::desc("CTAs per thread-block cluster (1, 2 or 4; default: the schedule's, else the "
             "kernel's tile.cluster), as stagecraft-compile --cluster"),
    cl::init(0), cl::cat(toolOptions));
static cl::opt<bool> jsonOut("json", cl::desc("Print the prediction as one JSON object"),
                             cl::cat(toolOptions));
static cl::opt<bool> printParams("print-params", cl::desc("Print the model parameters and exit"),
                                 cl::cat(toolOptions));

namespace {

/// A parsed kernel with its loop graph, kept for the whole run.
struct Kernel {
  std::unique_ptr<mlir::MLIRContext> ctx;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  LoopGraph graph;
};

std::vector<std::string> gDiagnostics;

std::unique_ptr<Kernel> loadKernel(const std::string &path, std::string &error) {
  if (std::string why = checkUserFile(path); !why.empty()) {
    error = path + ":1:1: error: " + why.substr(path.size() + 2);
    return nullptr;
  }
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = path + ":1:1: error: cannot read: " + buffer.getError().message();
    return nullptr;
  }
  std::string problem = checkInputText((*buffer)->getBuffer(), path);
  if (!problem.empty()) {
    error = problem;
    return nullptr;
  }
  auto k = std::make_unique<Kernel>();
  mlir::DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  k->ctx = std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
  k->ctx->printOpOnDiagnostic(false);
  k->ctx->getDiagEngine().registerHandler([](mlir::Diagnostic &d) {
    gDiagnostics.push_back(formatDiagnostic(d));
    return mlir::success();
  });
  k->sourceMgr = std::make_unique<llvm::SourceMgr>();
  k->sourceMgr->AddNewSourceBuffer(std::move(*buffer), SMLoc());
  k->module = mlir::parseSourceFile<mlir::ModuleOp>(*k->sourceMgr, k->ctx.get());
  auto fail = [&](const std::string &fallback) {
    error = gDiagnostics.empty() ? fallback : gDiagnostics.back();
    return nullptr;
  };
  if (!k->module)
    return fail(path + ": error: cannot parse");
  auto kernels = tile::getKernels(*k->module);
  if (kernels.empty())
    return fail(path + ": error: no kernel in this file (a func.func marked tile.kernel)");
  // As stagecraft-compile: one kernel, or the one named.
  if (!kernelName.empty()) {
    auto named = llvm::find_if(kernels, [](mlir::func::FuncOp f) {
      return f.getSymName() == kernelName.getValue();
    });
    if (named == kernels.end()) {
      std::string known;
      for (mlir::func::FuncOp f : kernels)
        known += (known.empty() ? "" : ", ") + f.getSymName().str();
      return fail(path + ": error: no kernel named " + kernelName.getValue() + " (it has: " +
                  known + ")");
    }
    k->func = *named;
  } else if (kernels.size() > 1) {
    return fail(path + ":1:1: error: " + std::to_string(kernels.size()) +
                " kernels in this file: name one with --kernel");
  } else {
    k->func = kernels.front();
  }
  mlir::FailureOr<LoopGraph> graph = buildLoopGraph(k->func);
  if (failed(graph))
    return fail(path + ": error: cannot extract the pipelined loop");
  k->graph = std::move(*graph);
  return k;
}

/// Applies a schedule (JSON text) over the graph's own.
bool applySchedule(const LoopGraph &graph, const std::string &json, const std::string &source,
                   Schedule &out, std::string &error) {
  out = graph.initialSchedule;
  if (json.empty() && source.empty())
    return true;
  Expected<Schedule> given = Schedule::fromJson(json, source);
  if (!given) {
    error = toString(given.takeError());
    return false;
  }
  if (!given->kernel.empty() && given->kernel != graph.kernel) {
    error = source + ": the schedule is for kernel @" + given->kernel + ", not @" + graph.kernel +
            " (set \"kernel\" to \"\" to apply it to any kernel)";
    return false;
  }
  out.overlay(*given);
  return true;
}

json::Object predictionJson(const timeline::Prediction &p) {
  json::Object o{{"ok", p.ok}};
  if (!p.ok) {
    o["error"] = p.error;
    return o;
  }
  json::Object util;
  for (const timeline::ResourceUse &r : p.utilization)
    util[r.name] = r.busy;
  json::Array notes;
  for (const std::string &n : p.notes)
    notes.push_back(n);
  // A kernel the compiler refuses is predicted (the board's view of where
  // time would go) but cannot run: said in a field of its own.
  o["buildable"] = p.compilerRefusal.empty();
  if (!p.compilerRefusal.empty())
    o["compiler_error"] = p.compilerRefusal;
  o["iteration_ns"] = p.iterationNs;
  o["cta_us"] = p.ctaNs / 1000.0;
  o["total_us"] = p.totalNs / 1000.0;
  o["tflops"] = p.tflops;
  o["flops"] = p.flops;
  o["bound"] = p.bound;
  o["bound_detail"] = p.boundDetail;
  o["utilization"] = std::move(util);
  o["ctas_per_sm"] = p.ctasPerSM;
  o["occupancy_limit"] = p.occupancyLimit;
  o["registers_per_thread"] = p.registersPerThread;
  o["smem_per_cta"] = p.smemPerCta;
  o["threads_per_cta"] = p.threadsPerCta;
  o["ctas"] = p.ctas;
  o["waves"] = p.waves;
  o["sm_clock_ghz"] = p.clockGHz;
  o["dram_tbps"] = p.dramTBps;
  o["trip"] = p.shownTrip;
  json::Object dram, tpc;
  auto fraction = [](double f) { return f < 0 ? json::Value(nullptr) : json::Value(f); };
  for (const timeline::Prediction::LoadSource &l : p.loadSources) {
    dram[l.unit] = fraction(l.dramFraction);
    tpc[l.unit] = fraction(l.tpcShared);
  }
  o["load_dram_fraction"] = std::move(dram);
  o["load_tpc_shared_fraction"] = std::move(tpc);
  o["notes"] = std::move(notes);
  return o;
}

struct Config {
  std::string ir, scheduleJson, scheduleSource;
  int64_t cluster = 0; // --cluster: overrides the schedule's, as stagecraft-compile's does
  std::vector<std::pair<std::string, int64_t>> sizes;
  timeline::SimOptions sim;
};

timeline::Prediction run(Kernel &k, const Config &c, const timeline::HopperModel &model,
                         std::string &error) {
  timeline::Prediction p;
  Schedule schedule;
  if (!applySchedule(k.graph, c.scheduleJson, c.scheduleSource, schedule, error))
    return p;
  if (c.cluster)
    schedule.cluster = c.cluster;
  ScheduleReport report = checkSchedule(k.graph, schedule);
  if (!report.legal()) {
    // As stagecraft-compile words it: the op at fault's file:line:col (the
    // IR's), then the schedule file the placement came from, if any.
    const Violation &v = report.violations.front();
    error = (v.location.empty() ? c.ir : v.location) + ": error: illegal schedule (" +
            std::string(ruleName(v.rule)) + "): " + v.message;
    if (!c.scheduleSource.empty())
      error += " (schedule: " + c.scheduleSource + ")";
    return p;
  }
  size_t before = gDiagnostics.size();
  mlir::FailureOr<timeline::KernelCosts> costs =
      predictionCosts(k.func, k.graph, c.sizes);
  if (failed(costs)) {
    error = gDiagnostics.size() > before ? gDiagnostics.back() : "cannot extract the unit costs";
    return p;
  }
  p = timeline::predict(k.graph, schedule, report, *costs, model, c.sim);
  if (!p.ok) {
    error = p.error;
    return p;
  }
  // A prediction of a kernel that cannot be built says so first.
  if (std::string refusal = loweringRefusal(k.func, schedule, c.sizes); !refusal.empty()) {
    p.notes.insert(p.notes.begin(), "the compiler refuses this kernel, so it cannot run: " + refusal);
    p.compilerRefusal = refusal;
  }
  return p;
}

bool readText(const std::string &path, std::string &out, std::string &error) {
  if (std::string why = checkUserFile(path); !why.empty()) {
    error = path + ":1:1: error: " + why.substr(path.size() + 2);
    return false;
  }
  auto b = MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!b) {
    error = path + ":1:1: error: cannot read: " + b.getError().message();
    return false;
  }
  out = (*b)->getBuffer().str();
  return true;
}

int batch(const timeline::HopperModel &model) {
  std::string text, error;
  if (!readText(batchFile, text, error)) {
    errs() << error << "\n";
    return 1;
  }
  Expected<json::Value> v = stagecraft::parseJson(text);
  if (!v) {
    errs() << batchFile << ": error: " << toString(v.takeError()) << "\n";
    return 1;
  }
  const json::Array *entries = v->getAsArray();
  if (!entries) {
    errs() << batchFile << ": error: expected a JSON array of configurations\n";
    return 1;
  }
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
  std::map<std::string, std::string> loadErrors;
  int failures = 0;
  for (size_t i = 0; i < entries->size(); ++i) {
    const json::Object *e = (*entries)[i].getAsObject();
    json::Object out;
    auto field = [&](const char *name) { return formatv("{0}[{1}].{2}", batchFile, i, name).str(); };
    if (!e) {
      out["error"] = formatv("{0}[{1}]: expected an object", batchFile, i).str();
      outs() << json::Value(std::move(out)) << "\n";
      ++failures;
      continue;
    }
    if (const json::Value *id = e->get("id"))
      out["id"] = *id;
    Config c;
    std::string err;
    // Every field of the wrong type is an error of its entry, not a
    // default silently taken (sizes as an array predicted the IR's defaults).
    for (const auto &kv : *e) {
      llvm::StringRef key = kv.first;
      if (key != "id" && key != "ir" && key != "schedule" && key != "sizes" &&
          key != "registers" && key != "dynamic_smem_bytes")
        err = field(key.str().c_str()) + ": unknown field (id, ir, schedule, sizes, registers, "
                                         "dynamic_smem_bytes)";
    }
    if (const json::Value *ir = e->get("ir"); ir && !ir->getAsString())
      err = field("ir") + ": expected a path (a string)";
    else if (auto path = e->getString("ir"))
      c.ir = path->str();
    else
      err = field("ir") + ": missing (a path)";
    if (const json::Value *v = e->get("sizes"); v && !v->getAsObject())
      err = field("sizes") + ": expected an object of sizes ({\"M\": 4096, ...})";
    for (const char *name : {"registers", "dynamic_smem_bytes"})
      if (const json::Value *v = e->get(name); v && !v->getAsInteger())
        err = field(name) + ": expected an integer";
    if (const json::Value *s = e->get("schedule")) {
      if (auto path = s->getAsString()) {
        c.scheduleSource = path->str();
        if (!readText(c.scheduleSource, c.scheduleJson, err))
          err = err;
      } else if (s->getAsObject()) {
        std::string t;
        raw_string_ostream os(t);
        os << *s;
        c.scheduleJson = t;
        c.scheduleSource = field("schedule");
      } else {
        err = field("schedule") + ": expected a path or an object";
      }
    }
    if (const json::Object *sz = e->getObject("sizes"))
      for (const auto &kv : *sz) {
        auto n = kv.second.getAsInteger();
        if (!n)
          err = field("sizes") + ": " + kv.first.str() + " must be an integer";
        else
          c.sizes.push_back({kv.first.str(), *n});
      }
    // What ptxas and the launch would report: 1-255 registers a thread, at
    // most the SM's 228 KiB of shared memory.
    if (auto r = e->getInteger("registers")) {
      if (*r < 1 || *r > 255)
        err = field("registers") + ": " + std::to_string(*r) + " is not 1 to 255 registers a thread";
      c.sim.registersPerThread = *r;
    }
    if (auto s = e->getInteger("dynamic_smem_bytes")) {
      if (*s < 0 || *s > 233472)
        err = field("dynamic_smem_bytes") + ": " + std::to_string(*s) +
              " is not 0 to 233472 bytes (an SM's shared memory)";
      c.sim.dynamicSmemBytes = *s;
    }
    c.sim.maxZones = 0; // figures only
    timeline::Prediction p;
    if (err.empty()) {
      auto it = kernels.find(c.ir);
      if (it == kernels.end() && !loadErrors.count(c.ir)) {
        std::unique_ptr<Kernel> k = loadKernel(c.ir, err);
        if (k)
          it = kernels.emplace(c.ir, std::move(k)).first;
        else
          loadErrors[c.ir] = err;
      }
      if (loadErrors.count(c.ir))
        err = loadErrors[c.ir];
      else
        p = run(*it->second, c, model, err);
    }
    json::Object pj = predictionJson(p);
    for (auto &kv : pj)
      out[kv.first] = std::move(kv.second);
    if (!err.empty()) {
      out["ok"] = false;
      out["error"] = err;
      ++failures;
    }
    outs() << json::Value(std::move(out)) << "\n";
  }
  return failures ? 1 : 0;
}

} // namespace

static int timelineMain(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv,
                              "Stagecraft: predicted timeline of a schedule (no codegen)\n");
  timeline::HopperModel model;
  if (!paramsFile.empty()) {
    std::string text, error;
    if (!readText(paramsFile, text, error)) {
      errs() << error << "\n";
      return 1;
    }
    if (Error e = model.applyJson(text, paramsFile)) {
      errs() << "error: " << toString(std::move(e)) << "\n";
      return 1;
    }
  }
  if (printParams) {
    outs() << model.toJson();
    return 0;
  }
  if (!batchFile.empty())
    return batch(model);
  if (input.empty()) {
    errs() << "error: no input file (or --batch)\n";
    return 1;
  }
  Config c;
  c.ir = input;
  if (std::string why = stagecraft::parseSizeOptions(sizeArgs, c.sizes); !why.empty()) {
    errs() << "error: " << why << "\n";
    return 1;
  }
  if (clusterSize.getNumOccurrences()) {
    if (clusterSize != 1 && clusterSize != 2 && clusterSize != 4) {
      errs() << "error: --cluster must be 1, 2 or 4 (got " << clusterSize << ")\n";
      return 1;
    }
    c.cluster = clusterSize;
  }
  std::string error;
  if (!scheduleFile.empty()) {
    c.scheduleSource = scheduleFile;
    if (!readText(scheduleFile, c.scheduleJson, error)) {
      errs() << error << "\n";
      return 1;
    }
  }
  std::unique_ptr<Kernel> k = loadKernel(input, error);
  if (!k) {
    errs() << error << "\n";
    return 1;
  }
  timeline::Prediction p = run(*k, c, model, error);
  if (!error.empty() || !p.ok) {
    // IR diagnostics come as FILE:LINE:COL: error: ...; the others get the prefix.
    std::string what = error.empty() ? p.error : error;
    errs() << (StringRef(what).contains("error:") ? "" : "error: ") << what << "\n";
    // A --json reader gets an object either way (as --batch writes its
    // lines): {"ok": false, "error": ...} when nothing could be predicted.
    if (jsonOut)
      outs() << json::Value(json::Object{{"ok", false}, {"error", what}}) << "\n";
    return 1;
  }
  if (!traceFile.empty()) {
    std::string werr = trace::writeFileAtomically(
        traceFile, trace::toJson(timeline::predictedTrace(p, k->graph.kernel, model)));
    if (!werr.empty()) {
      errs() << "error: " << werr << "\n";
      return 1;
    }
  }
  if (jsonOut) {
    outs() << json::Value(predictionJson(p)) << "\n";
    return 0;
  }
  outs() << "kernel " << k->graph.kernel << ": " << p.summary() << "\n";
  std::string detail = p.boundAndSourcesText();
  for (StringRef line : llvm::split(detail, '\n'))
    outs() << "  " << line << "\n";
  outs() << formatv("  CTA {0:F2} us ({1} iterations), launch {2:F1} us, {3} CTAs, "
                    "{4} per SM (limit: {5}; {6} threads, {7} registers, {8} B shared)\n",
                    p.ctaNs / 1000, p.shownTrip, p.totalNs / 1000, p.ctas, p.ctasPerSM,
                    p.occupancyLimit, p.threadsPerCta, p.registersPerThread, p.smemPerCta);
  for (const std::string &n : p.notes)
    outs() << "  note: " << n << "\n";
  return 0;
}

int main(int argc, char **argv) { return stagecraft::finishStdout(timelineMain(argc, argv)); }
