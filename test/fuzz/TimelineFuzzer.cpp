//===- TimelineFuzzer.cpp - libFuzzer: the timeline model on any schedule -===//
//
// The app predicts a timeline after every drag and the CLI for any size a
// user types, so the model must answer every legal schedule at every size
// with a prediction or a clear error, quickly, and never with a crash, a
// hang or a number that is not one.
//
// Input: one byte choosing a kernel of assets/, four 32-bit sizes (the
// kernel's sizes in argument order; a value with its top bit clear is taken
// modulo 65536 plus one, so most inputs reach the simulator, one with it set
// is used as it is, out of range included), the compiled kernel's registers
// (16 bits) and dynamic shared memory (32 bits) as the runner reports them
// (0: estimated), then a schedule file (JSON) overlaid on the kernel's own.
//
// What it checks: extractKernelCosts and predict succeed or say why; a
// prediction's times, TFLOP/s and fractions are finite and in range (no
// faster than the tensor cores' fp8 peak), its zones lie on its rows and
// units with start <= end, and its Chrome trace is JSON that parses back.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Timeline/Simulator.h"
#include "core/Timeline/TimelineTrace.h"
#include "core/Timeline/UnitCosts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace stagecraft;

namespace {
struct Kernel {
  std::unique_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  LoopGraph graph;
  std::vector<std::string> sizeNames;
};

std::vector<Kernel> &kernels() {
  static std::vector<Kernel> k;
  return k;
}

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "timeline fuzzer: %s\n", what.c_str());
  std::abort();
}

void loadKernel(const char *asset) {
  Kernel k;
  mlir::DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  k.ctx = std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
  // Size errors are diagnostics; the fuzzer only needs extraction to fail.
  k.ctx->getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
  std::string path = std::string(STAGECRAFT_ASSETS_DIR) + "/" + asset;
  k.module = mlir::parseSourceFile<mlir::ModuleOp>(path, k.ctx.get());
  if (!k.module)
    fail("cannot parse " + path);
  k.func = tile::getKernels(*k.module).front();
  mlir::FailureOr<LoopGraph> g = buildLoopGraph(k.func);
  mlir::FailureOr<tile::KernelSignature> sig = tile::KernelSignature::get(k.func);
  if (failed(g) || failed(sig))
    fail("no loop graph or signature in " + path);
  k.graph = std::move(*g);
  k.sizeNames = sig->sizeNames;
  kernels().push_back(std::move(k));
}

uint32_t readU32(const uint8_t *p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

bool finite(double v) { return std::isfinite(v); }

void checkPrediction(const timeline::Prediction &p, const timeline::HopperModel &model,
                     const std::string &where) {
  auto bad = [&](const std::string &what) { fail(where + ": " + what + "\n" + p.summary()); };
  if (!p.ok) {
    if (p.error.empty())
      bad("a failed prediction without an error");
    return;
  }
  if (!finite(p.iterationNs) || p.iterationNs < 0)
    bad("iteration time " + std::to_string(p.iterationNs));
  if (!finite(p.ctaNs) || p.ctaNs <= 0 || !finite(p.totalNs) || p.totalNs <= 0)
    bad("CTA or launch time not a positive number");
  if (!finite(p.flops) || p.flops < 0 || !finite(p.tflops) || p.tflops < 0)
    bad("flops or TFLOP/s not a number");
  // fp8 runs the tensor cores at twice the bf16 rate; nothing is faster.
  double peak = 2 * model.tensorFlopsPerCycle * model.sms * model.clockGHz * 1e-3;
  if (p.tflops > peak * 1.001)
    bad("faster than the tensor cores' peak: " + std::to_string(p.tflops) + " TFLOP/s");
  if (p.ctas < 1 || !finite(p.waves) || p.waves <= 0 || p.ctasPerSM < 1)
    bad("launch shape");
  for (const timeline::ResourceUse &r : p.utilization)
    if (!finite(r.busy) || r.busy < 0 || r.busy > 1.0001)
      bad(r.name + " busy " + std::to_string(r.busy));
  for (const auto &l : p.loadSources)
    if (!(l.dramFraction == -1 || (l.dramFraction >= 0 && l.dramFraction <= 1)) ||
        !(l.tpcShared == -1 || (l.tpcShared >= 0 && l.tpcShared <= 1)))
      bad("load fractions of " + l.unit);
  const timeline::Timeline &t = p.timeline;
  for (const timeline::Zone &z : t.zones) {
    if (z.row >= t.rows.size() || z.unit >= t.units.size())
      bad("a zone off its rows or units");
    if (!finite(z.start) || !finite(z.end) || z.end < z.start)
      bad("a zone from " + std::to_string(z.start) + " to " + std::to_string(z.end));
  }
  if (p.bound.empty() || p.summary().empty())
    bad("no bound");
  (void)p.boundAndSourcesText();
  std::string text = trace::toJson(timeline::predictedTrace(p, "fuzz", model));
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    bad("the trace is not JSON: " + llvm::toString(parsed.takeError()));
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  for (const char *asset : {"gemm.mlir", "gemm_128x128.mlir", "attention_fwd_d128.mlir",
                            "attention_fwd_d64_causal.mlir", "persistent_gemm.mlir",
                            "persistent_gemm_pingpong.mlir", "persistent_attention_fwd_d128.mlir",
                            "fp8_gemm.mlir", "mxfp8_gemm.mlir", "persistent_gemm_cluster.mlir"})
    loadKernel(asset);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  constexpr size_t kHeader = 1 + 4 * 4 + 2 + 4;
  if (size < kHeader)
    return 0;
  Kernel &k = kernels()[data[0] % kernels().size()];
  std::vector<std::pair<std::string, int64_t>> sizes;
  std::string where = k.func.getSymName().str();
  for (size_t i = 0; i < 4 && i < k.sizeNames.size(); ++i) {
    uint32_t raw = readU32(data + 1 + 4 * i);
    int64_t v = (raw & 0x80000000u) ? int64_t(int32_t(raw)) : int64_t(raw % 65536) + 1;
    sizes.push_back({k.sizeNames[i], v});
    where += " " + k.sizeNames[i] + "=" + std::to_string(v);
  }
  timeline::SimOptions options;
  uint16_t registers;
  std::memcpy(&registers, data + 17, sizeof registers);
  options.registersPerThread = registers;
  options.dynamicSmemBytes = readU32(data + 19);

  Schedule schedule = k.graph.initialSchedule;
  std::string json(reinterpret_cast<const char *>(data + kHeader), size - kHeader);
  if (!json.empty()) {
    llvm::Expected<Schedule> given = Schedule::fromJson(json, "fuzz.json");
    if (!given) {
      llvm::consumeError(given.takeError());
      return 0;
    }
    schedule.overlay(*given);
  }
  ScheduleReport report = checkSchedule(k.graph, schedule);
  if (!report.legal())
    return 0; // the app and the CLI predict legal schedules only

  mlir::FailureOr<timeline::KernelCosts> costs =
      timeline::extractKernelCosts(k.func, k.graph, sizes);
  if (failed(costs))
    return 0;
  timeline::HopperModel model;
  timeline::Prediction p = timeline::predict(k.graph, schedule, report, *costs, model, options);
  checkPrediction(p, model, where + " registers=" + std::to_string(options.registersPerThread) +
                                " smem=" + std::to_string(options.dynamicSmemBytes));
  return 0;
}
