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
#include "PredictionCheck.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Timeline/Simulator.h"
#include "core/Timeline/UnitCosts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

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
  std::string problem = fuzz::predictionProblem(p, model);
  if (!problem.empty())
    fail(where + " registers=" + std::to_string(options.registersPerThread) +
         " smem=" + std::to_string(options.dynamicSmemBytes) + ": " + problem + "\n" + p.summary());
  return 0;
}
