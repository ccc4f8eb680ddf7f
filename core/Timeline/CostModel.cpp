//===- CostModel.cpp - a Hopper latency/throughput model ----------------===//
#include "core/Timeline/CostModel.h"
#include "core/Support/Json.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>

using namespace stagecraft::timeline;

namespace {
/// Tensor rate of an input type relative to bf16/f16 (dense wgmma: fp8 k32
/// at twice the rate, tf32 k8 at half).
double typeFactor(const std::string &type) {
  if (type == "f8" || type == "fp8" || type == "e4m3" || type == "e5m2")
    return 2.0;
  if (type == "tf32" || type == "f32")
    return 0.5;
  return 1.0;
}
int64_t kStep(const std::string &type) {
  double f = typeFactor(type);
  return f > 1 ? 32 : f < 1 ? 8 : 16;
}
} // namespace

int64_t HopperModel::wgmmaInstructions(const DotWork &dot, double rowShare) const {
  // wgmma is m64nNk(16|32|8) with N <= 256: one instruction per 64 rows of
  // the warp group's share, per k step, per 256 columns.
  int64_t rows = std::max<int64_t>(64, static_cast<int64_t>(std::llround(dot.m * rowShare)));
  int64_t mTiles = (rows + 63) / 64;
  int64_t kTiles = std::max<int64_t>(1, (dot.k + kStep(dot.inputType) - 1) / kStep(dot.inputType));
  int64_t nTiles = std::max<int64_t>(1, (dot.n + 255) / 256);
  return mTiles * kTiles * nTiles;
}

double HopperModel::dotSmemBytes(const DotWork &dot, double rowShare) const {
  double elem = typeFactor(dot.inputType) > 1 ? 1.0 : typeFactor(dot.inputType) < 1 ? 4.0 : 2.0;
  int64_t rows = std::max<int64_t>(64, static_cast<int64_t>(std::llround(dot.m * rowShare)));
  double mTiles = static_cast<double>((rows + 63) / 64);
  double a = dot.aInRegisters ? 0.0 : static_cast<double>(rows) * dot.k * elem;
  double b = mTiles * static_cast<double>(dot.n) * dot.k * elem;
  return a + b;
}

double HopperModel::dotCycles(const DotWork &dot, double rowShare) const {
  double byRate = tensorCyclesOf(dot, dot.flops() * rowShare);
  double byIssue = wgmmaInstructions(dot, rowShare) * wgmmaMinCycles;
  double bySmem = wgmmaSmemBytesPerCycle > 0 ? dotSmemBytes(dot, rowShare) / wgmmaSmemBytesPerCycle : 0;
  return std::max({byRate, byIssue, bySmem});
}

double HopperModel::tensorCyclesOf(const DotWork &dot, double flops) const {
  return flops / (tensorFlopsPerCycle * typeFactor(dot.inputType) * tensorEfficiency);
}

double HopperModel::powerClockGHz(double tensorBusy, double dramTBps) const {
  if (clockMaxGHz <= 0)
    return clockGHz;
  // Power f (a + b u) + c D at the cap, normalised to 1: without DRAM
  // traffic through clockMaxGHz at u0 and clockFullTensorGHz at u = 1. The
  // DRAM's part (its own clock) leaves the SMs 1 - c D of the budget.
  double u0 = std::clamp(tensorBusyAtClockMax, 0.0, 0.99);
  double full = std::min(clockFullTensorGHz, clockMaxGHz);
  double b = (1 / full - 1 / clockMaxGHz) / (1 - u0);
  double a = 1 / clockMaxGHz - b * u0;
  double u = std::clamp(tensorBusy, 0.0, 1.0);
  double left = std::max(0.5, 1 - clockDramPowerPerTBps * std::max(0.0, dramTBps));
  return std::min(clockMaxGHz, left / (a + b * u));
}

HopperModel HopperModel::atSmClock(double smGHz) const {
  HopperModel m = *this;
  double scale = clockGHz / smGHz;
  // Bytes a reference cycle -> bytes an SM cycle at smGHz: the same bytes a
  // ns over more (or fewer) cycles a ns.
  m.loadBytesPerCycle *= scale;
  m.loadBytesPerCycleMax *= scale;
  m.storeBytesPerCycle *= scale;
  m.driftLinkBytesPerTensorCycle *= scale;
  m.loadLatencyCycles /= scale;
  m.l2HitLoadBytesPerCycle *= scale;
  m.l2MissLoadBytesPerCycle *= scale;
  m.l2HitLatencyCycles /= scale;
  m.clockGHz = smGHz;
  m.clockMaxGHz = 0;
  return m;
}

double HopperModel::l2RateFactor(double missFraction) const {
  if (l2HitLoadBytesPerCycle <= 0 || loadBytesPerCycle <= 0)
    return 1.0;
  double m = std::clamp(missFraction, 0.0, 1.0);
  if (l2MissLoadBytesPerCycle <= 0) // one rate for the misses: loadBytesPerCycle
    return 1.0 / ((1 - m) * loadBytesPerCycle / l2HitLoadBytesPerCycle + m);
  return 1.0 / ((1 - m) / l2HitLoadBytesPerCycle + m / l2MissLoadBytesPerCycle) /
         loadBytesPerCycle;
}

HopperModel HopperModel::fromL2(double shareBytesPerCycle) const {
  HopperModel m = *this;
  if (l2HitLoadBytesPerCycle <= 0)
    return m;
  m.loadBytesPerCycle = shareBytesPerCycle * l2RateFactor(0);
  if (l2HitLatencyCycles > 0)
    m.loadLatencyCycles = l2HitLatencyCycles;
  return m;
}

double HopperModel::loadShare(int64_t activeCtas, int64_t perSm) const {
  perSm = std::max<int64_t>(1, perSm);
  if (activeCtas <= 0 || activeCtas >= sms * perSm)
    return loadBytesPerCycle;
  double share = loadBytesPerCycle * static_cast<double>(sms * perSm) /
                 static_cast<double>(activeCtas);
  return std::max(loadBytesPerCycle, std::min(share, loadBytesPerCycleMax));
}

double HopperModel::mathCycles(const MathWork &m) const {
  // Each warp instruction takes an issue slot of its sub-partition (4 per SM
  // and clock, 32 lanes each) and its pipe: FMA at 128 lanes per SM and
  // clock, MUFU at 16, conversions at 16 instructions (32 results packed in
  // pairs), shuffles at 32, 32-bit integer ops at 64 (a pipe of their own).
  // Different pipes overlap, so the stream takes as long as its busiest pipe
  // or its issue slots; mathEfficiency accounts for
  // dependency stalls and what it issues beside the counted operations.
  double generic = 2.0 * m.generic;
  double issue =
      (m.fma + generic + m.mufu + m.convert / 2 + m.shuffle + m.other + m.integer) / 128.0;
  double pipes = std::max({(m.fma + generic) / fmaPerCycle, m.mufu / mufuPerCycle,
                           m.convert / convertPerCycle, m.shuffle / shufflePerCycle,
                           m.integer / integerPerCycle});
  // A stream with cross-lane reductions (shuffles) waits on them between its
  // element-wise steps (a row's max before its exponentials, their sum
  // after); one of element-wise math only has independent work for every
  // element, and a pipe it saturates runs near its table rate.
  // A lone warp group (loneMathRate) issues slower, and a stream with
  // reductions runs its pipes at that rate too; element-wise math its pipes
  // bound keeps their rate.
  double issueEff = mathEfficiency * (loneWarpGroup && loneMathRate > 0 ? loneMathRate : 1.0);
  double pipeEff = pipeEfficiency > 0 && m.shuffle == 0 ? pipeEfficiency : issueEff;
  return std::max(issue / issueEff, pipes / pipeEff);
}

namespace {
struct Field {
  const char *name;
  double HopperModel::*member;
};
const Field kFields[] = {
    {"clock_ghz", &HopperModel::clockGHz},
    {"integer_per_cycle", &HopperModel::integerPerCycle},
    {"clock_max_ghz", &HopperModel::clockMaxGHz},
    {"clock_full_tensor_ghz", &HopperModel::clockFullTensorGHz},
    {"tensor_busy_at_clock_max", &HopperModel::tensorBusyAtClockMax},
    {"clock_dram_power_per_tbps", &HopperModel::clockDramPowerPerTBps},
    {"tensor_efficiency", &HopperModel::tensorEfficiency},
    {"load_bytes_per_cycle", &HopperModel::loadBytesPerCycle},
    {"load_bytes_per_cycle_max", &HopperModel::loadBytesPerCycleMax},
    {"load_latency_cycles", &HopperModel::loadLatencyCycles},
    {"l2_hit_latency_cycles", &HopperModel::l2HitLatencyCycles},
    {"l2_hit_load_bytes_per_cycle", &HopperModel::l2HitLoadBytesPerCycle},
    {"l2_miss_load_bytes_per_cycle", &HopperModel::l2MissLoadBytesPerCycle},
    {"sync_latency_cycles", &HopperModel::syncLatencyCycles},
    {"math_efficiency", &HopperModel::mathEfficiency},
    {"lone_math_rate", &HopperModel::loneMathRate},
    {"math_iteration_instructions", &HopperModel::mathIterationInstructions},
    {"icache_instructions", &HopperModel::icacheInstructions},
    {"uncached_cycles_per_instruction", &HopperModel::uncachedCyclesPerInstruction},
    {"pipe_efficiency", &HopperModel::pipeEfficiency},
    {"cta_overhead_cycles", &HopperModel::ctaOverheadCycles},
    {"tensor_math_interference", &HopperModel::tensorMathInterference},
    {"wgmma_min_cycles", &HopperModel::wgmmaMinCycles},
    {"issue_cycles", &HopperModel::issueCycles},
    {"tma_issue_cycles", &HopperModel::tmaIssueCycles},
    {"wgmma_latency_cycles", &HopperModel::wgmmaLatencyCycles},
    {"wgmma_issue_queue", &HopperModel::wgmmaIssueQueue},
    {"epilogue_panel_cycles", &HopperModel::epiloguePanelCycles},
    {"store_bytes_per_cycle", &HopperModel::storeBytesPerCycle},
    {"staging_bytes_per_cycle", &HopperModel::stagingBytesPerCycle},
    {"smem_bytes_per_cycle", &HopperModel::smemBytesPerCycle},
    {"wgmma_smem_bytes_per_cycle", &HopperModel::wgmmaSmemBytesPerCycle},
    {"hbm_bytes_per_second", &HopperModel::hbmBytesPerSecond},
    {"dram_efficiency", &HopperModel::dramEfficiency},
    {"tpc_coalescing", &HopperModel::tpcCoalescing},
    {"drift_lead_iterations", &HopperModel::driftLeadIterations},
    {"drift_link_bytes_per_tensor_cycle", &HopperModel::driftLinkBytesPerTensorCycle},
    {"drift_min_iterations", &HopperModel::driftMinIterations},
};
} // namespace

std::string HopperModel::toJson() const {
  std::string s = "{\n";
  // Every digit (llvm::json writes a double so that it reads back exactly):
  // calibrate.py starts from these values.
  for (size_t i = 0; i < std::size(kFields); ++i) {
    std::string value;
    llvm::raw_string_ostream(value) << llvm::json::Value(this->*kFields[i].member);
    s += llvm::formatv("  \"{0}\": {1}{2}\n", kFields[i].name, value,
                       i + 1 < std::size(kFields) ? "," : "")
             .str();
  }
  return s + "}\n";
}

llvm::Error HopperModel::applyJson(llvm::StringRef text, llvm::StringRef sourceName) {
  llvm::Expected<llvm::json::Value> v = stagecraft::parseJson(text);
  if (!v)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                   sourceName.str().c_str(),
                                   llvm::toString(v.takeError()).c_str());
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: expected a JSON object of model parameters",
                                   sourceName.str().c_str());
  for (const auto &kv : *o) {
    const Field *f = nullptr;
    for (const Field &x : kFields)
      if (kv.first == x.name)
        f = &x;
    if (!f) {
      std::string known;
      for (const Field &x : kFields)
        known += (known.empty() ? "" : ", ") + std::string(x.name);
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: unknown model parameter \"%s\" (known: %s)",
                                     sourceName.str().c_str(), kv.first.str().c_str(),
                                     known.c_str());
    }
    std::optional<double> d = kv.second.getAsNumber();
    if (!d || !std::isfinite(*d) || *d < 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: \"%s\" must be a non-negative number",
                                     sourceName.str().c_str(), f->name);
    // The clock and the rates the model divides by have no "off" value.
    static const char *const kPositive[] = {
        "clock_ghz",      "tensor_efficiency", "load_bytes_per_cycle", "load_bytes_per_cycle_max",
        "math_efficiency", "lone_math_rate",   "hbm_bytes_per_second", "dram_efficiency",
        // The epilogue's stores: a 0 made "CTA inf us" (and JSON with inf).
        "store_bytes_per_cycle", "staging_bytes_per_cycle"};
    // (Other rates take 0 as "no limit" or "as another parameter".)
    llvm::StringRef key = kv.first;
    // Fractions (of a pipe's peak, of the time busy, of boxes shared).
    bool fraction = key.ends_with("_efficiency") || key == "tensor_busy_at_clock_max" ||
                    key == "tpc_coalescing" || key == "tensor_math_interference";
    if (fraction && *d > 1)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: \"%s\" is a fraction (0 to 1), got %g",
                                     sourceName.str().c_str(), f->name, *d);
    if (*d == 0 && llvm::is_contained(kPositive, kv.first))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: \"%s\" must be positive (a clock or a rate the "
                                     "model divides by)",
                                     sourceName.str().c_str(), f->name);
    // Clocks an SM can run at (0 turns the power clock off); outside them
    // the model's cycle arithmetic is meaningless.
    bool clock = kv.first == "clock_ghz" || kv.first == "clock_max_ghz" ||
                 kv.first == "clock_full_tensor_ghz";
    if (clock && *d != 0 && (*d < 0.1 || *d > 4.0))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: \"%s\" is %g GHz; an SM clock is 0.1 to 4 GHz",
                                     sourceName.str().c_str(), f->name, *d);
    // Past any real machine's figures (HBM's 3.35e12 bytes a second is the
    // largest default), a value only overflows the model's arithmetic.
    if (*d > 1e15)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: \"%s\" is %g, past any figure of a GPU (at most 1e15)",
                                     sourceName.str().c_str(), f->name, *d);
    this->*(f->member) = *d;
  }
  return llvm::Error::success();
}
