//===- ScheduleFuzzer.cpp - libFuzzer: schedules against real loop graphs -===//
//
// Input: one byte choosing a kernel of assets/ (a GEMM, attention, ...), then
// a schedule file (JSON), then optionally a NUL byte and raw moves, 33 bytes
// each: a unit index and the target stage, order, group and wait as raw
// 64-bit integers (any value, not only those a board can produce).
//
// What it checks, as the app does on every drag: Schedule::fromJson, the
// canonical JSON round trip (export(import(export(s))) == export(s)),
// checkSchedule (legality, buffers, registers, the steady state) and
// explainMove. Beyond the sanitizers: an illegal move always has an
// explanation, a legal one none.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace stagecraft;

namespace {
std::vector<LoopGraph> &graphs() {
  static std::vector<LoopGraph> g;
  return g;
}

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "schedule fuzzer: %s\n", what.c_str());
  std::abort();
}

void loadGraph(const char *asset) {
  mlir::DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  mlir::MLIRContext ctx(registry);
  std::string path = std::string(STAGECRAFT_ASSETS_DIR) + "/" + asset;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, &ctx);
  if (!module)
    fail("cannot parse " + path);
  mlir::FailureOr<LoopGraph> g = buildLoopGraph(tile::getKernels(*module).front());
  if (failed(g))
    fail("no loop graph in " + path);
  graphs().push_back(std::move(*g));
}

int64_t readInt(const uint8_t *p) {
  int64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  for (const char *asset : {"gemm.mlir", "gemm_128x128.mlir", "attention_fwd_d128.mlir",
                            "attention_fwd_d64_causal.mlir", "persistent_gemm.mlir"})
    loadGraph(asset);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const LoopGraph &g = graphs()[data[0] % graphs().size()];
  llvm::StringRef rest(reinterpret_cast<const char *>(data + 1), size - 1);
  auto [json, moves] = rest.split('\0');

  llvm::Expected<Schedule> parsed = Schedule::fromJson(json, "fuzz.json");
  if (!parsed) {
    std::string message = llvm::toString(parsed.takeError());
    if (message.rfind("fuzz.json: ", 0) != 0)
      fail("a schedule error that does not name the file: " + message);
    return 0;
  }
  Schedule s = std::move(*parsed);
  std::string canonical = s.toJson();
  llvm::Expected<Schedule> again = Schedule::fromJson(canonical, "canonical.json");
  if (!again)
    fail("the canonical JSON does not parse back: " + llvm::toString(again.takeError()));
  if (*again != s || again->toJson() != canonical)
    fail("the canonical JSON round trip changes the schedule:\n" + canonical);

  ScheduleReport report = checkSchedule(g, s);
  (void)report.summary();

  // Moves: each unit to each entry's place (as a drag onto that card's
  // cell), then the raw ones.
  std::vector<std::pair<std::string, OpSchedule>> tries;
  for (size_t i = 0; i < s.entries().size() && i < 8; ++i)
    for (size_t u = 0; u < g.units.size() && u < 8; ++u)
      tries.push_back({g.units[u].name, s.entries()[i].sched});
  const uint8_t *m = reinterpret_cast<const uint8_t *>(moves.data());
  for (size_t left = moves.size(); left >= 33 && tries.size() < 96; left -= 33, m += 33) {
    std::string unit = g.units.empty() ? "" : g.units[m[0] % g.units.size()].name;
    tries.push_back({unit, {readInt(m + 1), readInt(m + 9), readInt(m + 17), readInt(m + 25)}});
  }
  for (const auto &[unit, to] : tries) {
    std::string why = explainMove(g, s, unit, to);
    Schedule moved = s;
    moved.set(unit, to);
    bool legal = checkSchedule(g, moved).legal();
    if (legal != why.empty())
      fail("explainMove of " + unit + (legal ? " explains a legal move: " + why
                                             : " does not explain an illegal move"));
  }
  return 0;
}
