//===- Simulator.cpp - a discrete-event model of a scheduled loop ---------===//
//
// From the runs of one SM (SmRun.h) to a prediction: occupancy, the shown
// CTA's timeline, the steady-state iteration time and what bounds it, and
// the whole launch (every distinct trip count, CTAs placed on the SMs in
// launch order, a DRAM floor).
//
//===----------------------------------------------------------------------===//
#include "core/Timeline/Simulator.h"
#include "core/Timeline/LoadSharing.h"
#include "core/Timeline/SimPlan.h"
#include "core/Timeline/SmRun.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>

using namespace stagecraft;
using namespace stagecraft::timeline;
using llvm::formatv;

namespace {

int64_t floor8(int64_t x) { return x / 8 * 8; }

/// The steady state of `n` simulated iterations: the middle half, as the
/// first and last iteration index (none below four iterations).
std::optional<std::pair<int64_t, int64_t>> steadyWindow(int64_t n) {
  if (n < 4)
    return std::nullopt;
  int64_t i0 = n / 4, i1 = std::max<int64_t>(i0 + 1, (3 * n) / 4);
  return std::make_pair(i0, std::min<int64_t>(i1, n - 1));
}

/// What the first wave reads from DRAM, per load unit, and the TMA rate an
/// SM gets from its share of DRAM for those misses (0 when no load's boxes
/// are known). The first wave's CTAs that load the same box share its trip
/// to DRAM (the others hit in the L2); what they all miss streams at
/// dram_efficiency x the HBM's bandwidth, shared by the SMs that stream.
struct DramShare {
  std::vector<Prediction::LoadSource> sources;
  double rate = 0;
  double missedBytes = 0; // per iteration of the loop, of the boxes evaluated
  double loopBytes = 0;   // the same boxes' bytes
};
DramShare dramShare(const KernelCosts &costs, const HopperModel &model, int64_t ctas,
                    int64_t slots) {
  DramShare out;
  int64_t wave = std::min<int64_t>(ctas, slots);
  double loopBytes = 0, missedBytes = 0;
  for (const UnitWork &w : costs.units) {
    if (w.footprints.empty())
      continue;
    out.sources.push_back({w.name, missFraction(w, wave).value_or(-1.0),
                           tpcSharedFraction(w, wave).value_or(-1.0)});
    for (const LoadFootprint &f : w.footprints)
      if (std::optional<double> miss = boxMissFraction(f, wave)) {
        loopBytes += static_cast<double>(f.bytes);
        missedBytes += static_cast<double>(f.bytes) * *miss;
      }
  }
  out.missedBytes = missedBytes;
  out.loopBytes = loopBytes;
  if (missedBytes > 0) {
    double streamingSms = static_cast<double>(std::min<int64_t>(model.sms, ctas));
    double hbmPerCycle = model.dramEfficiency * model.hbmBytesPerSecond / (model.clockGHz * 1e9);
    out.rate = hbmPerCycle * loopBytes / (missedBytes * streamingSms);
  }
  return out;
}

} // namespace

std::string Prediction::summary() const {
  if (!ok)
    return "no prediction: " + error;
  // A loop without dots (a norm, a softmax stream) moves bytes: its rate is
  // its DRAM traffic, not "0.0 TFLOP/s".
  std::string rate = flops > 0 ? formatv("{0:F1} TFLOP/s", tflops).str()
                               : formatv("{0:F2} TB/s from DRAM", dramTBps).str();
  return formatv("iteration {0:F3} us, bound: {1}; {2} predicted "
                 "({3} CTA(s)/SM, {4:F2} waves)",
                 iterationNs / 1000.0, bound, rate, ctasPerSM, waves)
      .str();
}

std::string Prediction::loadSourcesText() const {
  if (loadSources.empty())
    return "";
  auto list = [&](double LoadSource::*part) {
    std::string s;
    for (size_t i = 0; i < loadSources.size(); ++i) {
      const LoadSource &l = loadSources[i];
      s += formatv("{0} {1} ", i ? "," : "", l.unit).str();
      s += l.*part < 0 ? std::string("unknown (its box could not be evaluated)")
                       : formatv("{0:F0}%", 100 * (l.*part)).str();
    }
    return s;
  };
  return "from DRAM:" + list(&LoadSource::dramFraction) +
         " (the rest L2 hits: boxes the first wave's other CTAs load too)\nshared with the "
         "SM beside it on its TPC:" +
         list(&LoadSource::tpcShared) + " (those boxes cross the TPC's link once)";
}

std::string Prediction::boundAndSourcesText() const {
  if (loadSources.empty() || bound == "DRAM")
    return boundDetail;
  return boundDetail + "\n" + loadSourcesText();
}

namespace {
Prediction predictOnce(const LoopGraph &g, const Schedule &schedule,
                       const ScheduleReport &report, const KernelCosts &costs,
                       const HopperModel &model, const SimOptions &options);
/// Rounds of CTAs a launch runs before the CTAs sharing boxes drift apart.
constexpr double kInStepRounds = 2;

/// One run of the loop (predictOnce) and, where shared memory is a limit
/// (smemBytesPerCycle), a second one at each side's share of it.
Prediction predictWithSharedMemory(const LoopGraph &g, const Schedule &schedule,
                                   const ScheduleReport &report, const KernelCosts &costs,
                                   const HopperModel &model, const SimOptions &options) {
  Prediction p = predictOnce(g, schedule, report, costs, model, options);
  if (model.smemBytesPerCycle <= 0 || !p.ok || p.iterationNs <= 0)
    return p;
  // Shared memory in the steady state: what the wgmma read of it (each m64
  // instruction its A rows and all of B; a ping-pong team a tile whole) and
  // what the loads write into it, per iteration of the CTAs on an SM.
  bool teams = report.consumers == Consumers::PingPong;
  double wgmma = 0, loads = 0;
  for (unsigned u = 0; u < g.units.size() && u < costs.units.size(); ++u) {
    const UnitWork &w = costs.units[u];
    int64_t size = std::max<int64_t>(1, g.warpGroupsOf(effectiveSchedule(g, schedule, u).group));
    if (teams)
      size = 1;
    for (const DotWork &d : w.dots)
      wgmma += static_cast<double>(size) * model.dotSmemBytes(d, 1.0 / static_cast<double>(size));
    loads += static_cast<double>(w.loadBytes);
  }
  int64_t resident = std::max<int64_t>(
      1, std::min<int64_t>(p.ctasPerSM, (p.ctas + model.sms - 1) / std::max<int64_t>(1, model.sms)));
  double cycles = p.iterationNs / model.nsPerCycle();
  double W = static_cast<double>(resident) * wgmma / cycles;
  double T = static_cast<double>(resident) * loads / cycles;
  if (W + T <= model.smemBytesPerCycle)
    return p;
  // Over it: each gets its share in proportion to its demand, and the loop
  // runs again at those rates.
  HopperModel limited = model;
  double share = model.smemBytesPerCycle * W / (W + T);
  limited.wgmmaSmemBytesPerCycle =
      model.wgmmaSmemBytesPerCycle > 0 ? std::min(model.wgmmaSmemBytesPerCycle, share) : share;
  limited.tmaSmemBytesPerCycle = model.smemBytesPerCycle * T / (W + T);
  Prediction q = predictOnce(g, schedule, report, costs, limited, options);
  if (!q.ok)
    return p;
  std::string why = formatv("shared memory: the wgmma's operand reads ({0:F0} bytes a cycle) and the "
                            "loads' writes ({1:F0}) want more than its {2:F0}; each at its share",
                            W, T, model.smemBytesPerCycle)
                        .str();
  if (q.bound == "tensor cores" || q.bound == "TMA loads") {
    q.bound = "shared memory";
    q.boundDetail = why + " (" + q.boundDetail + ")";
  } else {
    q.notes.push_back(why);
  }
  return q;
}

/// The loop at the model's one SM clock (the power clock resolved).
Prediction predictAtClock(const LoopGraph &g, const Schedule &schedule,
                          const ScheduleReport &report, const KernelCosts &costs,
                          const HopperModel &model, const SimOptions &options) {
  Prediction p = predictWithSharedMemory(g, schedule, report, costs, model, options);
  if (model.driftLeadIterations > 0 && model.tpcCoalescing > 0 && p.ok && p.bound == "TMA loads" &&
      static_cast<double>(p.loadLead) >= model.driftLeadIterations &&
      static_cast<double>(p.shownTrip) >= model.driftMinIterations &&
      p.linkBytesPerTensorCycle >= model.driftLinkBytesPerTensorCycle && p.waves > kInStepRounds) {
    // Loads far ahead in a loop its copies bound, in CTAs long enough: the
    // sharers drift apart (CostModel.h, driftLeadIterations,
    // driftMinIterations) and every box crosses the link in
    // full, from the launch's third round of CTAs on (the 128x128 GEMM's
    // traces: its first two rounds run alike with loads three and four
    // ahead, the later ones 10-20% apart, bench/results/wave-spans-h100-
    // 2026-11-27). The timeline stays the first round's (CTA 0).
    HopperModel apart = model;
    apart.tpcCoalescing = 0;
    Prediction q = predictWithSharedMemory(g, schedule, report, costs, apart, options);
    if (q.ok && q.totalNs > p.totalNs) {
      double inStep = kInStepRounds / p.waves;
      p.totalNs = inStep * p.totalNs + (1 - inStep) * q.totalNs;
      p.tflops = p.totalNs > 0 ? p.flops / p.totalNs / 1e3 : 0;
      p.notes.push_back(formatv("the loads run {0} iterations ahead of their readers in a loop its "
                                "copies bound: after the first {1:F0} rounds of CTAs, those that "
                                "share boxes drift apart and every box crosses the link in full "
                                "({2:F0} against {3:F0} ns an iteration)",
                                p.loadLead, kInStepRounds, q.iterationNs, p.iterationNs)
                            .str());
    }
  }
  return p;
}

/// The tensor pipe's busy fraction over a predicted launch: its dots'
/// tensor-core cycles over every SM's cycles of the launch.
double launchTensorBusy(const Prediction &p, const KernelCosts &costs, const HopperModel &model,
                        double smGHz) {
  double flops = 0, cycles = 0;
  for (const UnitWork &w : costs.units)
    for (const DotWork &d : w.dots) {
      flops += d.flops();
      cycles += model.tensorCyclesOf(d, d.flops());
    }
  if (flops <= 0 || p.totalNs <= 0)
    return 0;
  double smCycles = p.totalNs * smGHz * static_cast<double>(model.sms);
  return p.executedFlops * (cycles / flops) / smCycles;
}

/// The DRAM's traffic over a predicted launch (TB/s): the loop's loads at the
/// first wave's miss fractions (dramShare) for every iteration of the launch
/// and the stored tensors written once, at least its distinct bytes
/// (KernelCosts::dramBytes). (The GEMMs' stores are 0.12 of the 4.09 bytes
/// a kflop Nsight Compute counts at 8192^3: bench/timeline/ncu/dram_traffic.py.)
double launchDramTBps(const Prediction &p, const KernelCosts &costs, const HopperModel &model) {
  if (p.totalNs <= 0)
    return 0;
  double flopsPerIteration = 0;
  for (const UnitWork &w : costs.units)
    for (const DotWork &d : w.dots)
      flopsPerIteration += d.flops();
  double missed = dramShare(costs, model, p.ctas, model.sms * std::max<int64_t>(1, p.ctasPerSM))
                      .missedBytes;
  double bytes = costs.dramBytes;
  // Where the L2 holds the operands, only the first round of tiles misses
  // (a CTA's first tile: a persistent CTA's later tiles are later rounds).
  double missing = 1;
  int64_t slots = model.sms * std::max<int64_t>(1, p.ctasPerSM), tiles = 0;
  for (const CtaRun &r : costs.ctas)
    tiles += std::max<int64_t>(1, r.passes) * r.count;
  tiles = std::max(tiles, p.ctas);
  if (tiles > slots && model.holdsInL2(costs.dramBytes - costs.storedBytes))
    missing = static_cast<double>(slots) / static_cast<double>(tiles);
  if (flopsPerIteration > 0)
    bytes = std::max(bytes, missing * p.executedFlops * missed / flopsPerIteration + costs.storedBytes);
  // No launch moves more than the HBM's rate; the launch's time is at least
  // its distinct bytes at that rate (predictAtClock), and misses beyond them
  // are an estimate.
  return std::min(bytes / p.totalNs / 1e3, model.hbmBytesPerSecond / 1e12); // bytes a ns = GB/s
}
} // namespace

Prediction stagecraft::timeline::predict(const LoopGraph &g, const Schedule &schedule,
                                         const ScheduleReport &report,
                                         const KernelCosts &costs, const HopperModel &model,
                                         const SimOptions &options) {
  if (model.clockMaxGHz <= 0) {
    Prediction p = predictAtClock(g, schedule, report, costs, model, options);
    p.clockGHz = model.clockGHz;
    if (p.ok)
      p.dramTBps = launchDramTBps(p, costs, model);
    return p;
  }
  // The power clock: from the highest clock, each run's tensor-pipe
  // activity and DRAM traffic set the next run's clock. A lower clock leaves
  // the memory side (fixed in ns) relatively faster, so the pipe only gets
  // busier and the clocks fall towards the highest fixed point, settled
  // within 1 MHz (a 5 MHz stop left schedules that differ in nothing else
  // 0.1-0.3% apart by where it stopped; at most eight runs).
  constexpr int kClockRuns = 8;
  double f = model.clockMaxGHz;
  Prediction p = predictAtClock(g, schedule, report, costs, model.atSmClock(f), options);
  double u = 0, dram = 0;
  for (int run = 1; p.ok; ++run) {
    u = launchTensorBusy(p, costs, model, f);
    dram = launchDramTBps(p, costs, model);
    double next = model.powerClockGHz(u, dram);
    if (std::abs(next - f) < 0.001 || run == kClockRuns)
      break;
    f = next;
    p = predictAtClock(g, schedule, report, costs, model.atSmClock(f), options);
  }
  p.clockGHz = f;
  p.dramTBps = dram;
  if (p.ok)
    p.notes.push_back(formatv("SM clock {0:F2} GHz: the tensor cores busy {1:F0}% of the launch, "
                              "the DRAM moving {2:F2} TB/s (the power cap's clock, {3:F2} GHz at "
                              "most)",
                              f, 100 * u, dram, model.clockMaxGHz)
                          .str());
  return p;
}

namespace {
Prediction predictOnce(const LoopGraph &g, const Schedule &schedule,
                       const ScheduleReport &report, const KernelCosts &costs,
                       const HopperModel &model, const SimOptions &options) {
  Prediction out;
  if (!report.legal()) {
    out.error = "the schedule is illegal";
    return out;
  }
  Plan plan;
  std::string problem = buildPlan(g, schedule, report, costs, model, plan);
  if (!problem.empty()) {
    out.error = problem;
    return out;
  }
  out.notes = costs.notes;
  for (const UnitWork &u : costs.units)
    if (!u.genericOps.empty()) {
      std::string ops;
      for (const std::string &o : u.genericOps)
        ops += (ops.empty() ? "" : ", ") + o;
      out.notes.push_back(u.name + ": no cost class for " + ops +
                          " (costed as 2 FMA-pipe operations per element)");
    }

  // Occupancy.
  out.threadsPerCta = plan.threads;
  if (options.registersPerThread > 0) {
    out.registersPerThread = options.registersPerThread;
  } else if (report.warpSpecialized && report.launchRegisters > 0) {
    // setmaxnreg trades in the registers the block launched with: every
    // warp starts at the largest consumer budget, capped by the launch
    // bounds (65536 / threads), so chosen budgets below that cap launch
    // smaller blocks (Legality.h: launchRegisters).
    out.registersPerThread = report.launchRegisters;
  } else if (report.warpSpecialized) {
    out.registersPerThread = std::min<int64_t>(255, floor8(model.regsPerSM / std::max<int64_t>(1, plan.threads)));
  } else {
    int64_t r = 32;
    for (const GroupRegisters &gr : report.registers)
      r = std::max({r, gr.regsPerThread, gr.epilogueRegsPerThread});
    out.registersPerThread = std::min<int64_t>(255, (r + 7) / 8 * 8);
  }
  out.smemPerCta = options.dynamicSmemBytes > 0 ? options.dynamicSmemBytes : report.smemBytes + 1024;
  int64_t warps = (plan.threads + 31) / 32;
  int64_t regsPerWarp = (out.registersPerThread * 32 + 255) / 256 * 256;
  int64_t byRegs = model.regsPerSM / std::max<int64_t>(1, regsPerWarp * warps);
  int64_t bySmem = model.smemPerSM / std::max<int64_t>(1, out.smemPerCta + model.smemReservedPerCta);
  int64_t byThreads = model.threadsPerSM / std::max<int64_t>(1, plan.threads);
  out.ctasPerSM = std::max<int64_t>(1, std::min({byRegs, bySmem, byThreads, model.ctasPerSM}));
  out.occupancyLimit = out.ctasPerSM == byRegs        ? "registers"
                       : out.ctasPerSM == bySmem      ? "shared memory"
                       : out.ctasPerSM == byThreads   ? "threads"
                                                      : "CTA slots";

  out.ctas = costs.numCtas();
  if (out.ctas <= 0) {
    out.error = "the launch has no CTAs";
    return out;
  }
  // CTAs resident together on an SM: no more than the grid spreads there.
  int64_t resident = std::max<int64_t>(
      1, std::min<int64_t>(out.ctasPerSM, (out.ctas + model.sms - 1) / model.sms));
  // One warp group computing on each SM: its register math at the lone
  // warp group's rate (CostModel.h, loneMathRate).
  int64_t computing = 0;
  for (const WarpGroupPlan &w : plan.wgs)
    computing += w.computes;
  if (computing * resident == 1 && model.loneMathRate > 0 && model.loneMathRate != 1) {
    HopperModel lone = model;
    lone.loneWarpGroup = true;
    Plan again;
    if (buildPlan(g, schedule, report, costs, lone, again).empty())
      plan = std::move(again);
  }
  // A grid smaller than the GPU's slots leaves SMs idle or part full: the
  // L2 bandwidth is shared by the CTAs that stream (the block scheduler
  // spreads CTAs over SMs first), each SM up to its own limit. (144 CTAs of
  // two per SM on 132 SMs: the 12 SMs with two take more than the others'.)
  HopperModel sm = model;
  sm.loadBytesPerCycle = model.loadShare(out.ctas, resident);
  DramShare dram = dramShare(costs, model, out.ctas, model.sms * resident);
  // A loop of no iterations in any CTA loads nothing: no share of its bytes
  // comes from DRAM or the TPC's link (the eleventh sweep's m7).
  if (!llvm::all_of(costs.ctas, [](const CtaRun &r) { return r.trip == 0 || r.passes == 0; }))
    out.loadSources = dram.sources;
  out.sizes = costs.sizes;
  // What each load's transfer costs on its TPC's link: less where the SM
  // beside this one loads the same boxes (LoadSharing.h).
  int64_t wave = std::min<int64_t>(out.ctas, model.sms * resident);
  double bytes = 0, link = 0;
  for (size_t u = 0; u < plan.units.size(); ++u)
    if (plan.units[u].kind == UnitKind::Load && costs.units[u].loadBytes > 0) {
      plan.units[u].linkBytes = linkBytes(costs.units[u], wave, model.tpcCoalescing);
      bytes += plan.units[u].bytes;
      link += plan.units[u].linkBytes;
      // How far ahead of the units that read it a CTA loads it (iterations).
      for (unsigned r : plan.units[u].readers)
        out.loadLead = std::max<int64_t>(out.loadLead, plan.units[r].stage - plan.units[u].stage);
    }
  double tensorCycles = 0; // a CTA's dots per iteration (a ping-pong team's tile)
  for (const UnitWork &w : costs.units)
    for (const DotWork &d : w.dots)
      tensorCycles += model.dotCycles(d, 1.0);
  if (tensorCycles > 0)
    out.linkBytesPerTensorCycle = link / tensorCycles;
  // Hits and misses at their rates (CostModel.h, l2MissLoadBytesPerCycle).
  double rateFactor = dram.loopBytes > 0 && model.l2MissLoadBytesPerCycle > 0
                          ? model.l2RateFactor(dram.missedBytes / dram.loopBytes)
                          : 1.0;
  sm.loadBytesPerCycle *= rateFactor;
  // The TMA rate an SM gets when DRAM bounds it rather than the L2 (0: not).
  // The transfers are charged in link bytes: DRAM's rate, in bytes loaded,
  // becomes the same time per link byte.
  double dramBoundRate = 0;
  double linkPerByte = bytes > 0 ? link / bytes : 1.0;
  if (dram.rate > 0 && dram.rate * linkPerByte < sm.loadBytesPerCycle) {
    dramBoundRate = dram.rate;
    sm.loadBytesPerCycle = dram.rate * linkPerByte;
  }
  // A launch whose operands the L2 holds: its first round of CTAs brings
  // them in from DRAM (the rates above), the later rounds load L2 hits
  // (CostModel.h, l2HitLoadBytesPerCycle).
  int64_t slotsAtOnce = model.sms * resident;
  bool warmRounds = out.ctas > slotsAtOnce && model.holdsInL2(costs.dramBytes - costs.storedBytes);
  HopperModel warm = model.fromL2(model.loadShare(out.ctas, resident));
  warm.loadLatencyCycles = model.loadLatencyCycles; // a full round's queue
  if (warmRounds)
    out.notes.push_back(formatv("the L2 holds the loaded tensors ({0:F1} MB): after the first "
                                "round of CTAs every load hits in it",
                                (costs.dramBytes - costs.storedBytes) / 1e6)
                            .str());

  // The CTA to show: the longest.
  CtaRun shown = costs.ctas.front();
  for (const CtaRun &r : costs.ctas)
    if (r.passes * r.trip > shown.passes * shown.trip)
      shown = r;
  int64_t shownTrip = shown.passes * shown.trip;
  out.shownTrip = shownTrip;
  // CTAs of different trip counts (causal attention, variable lengths): the
  // one drawn is the longest, which the text did not say (the thirteenth
  // sweep's M9).
  int64_t fewest = shownTrip;
  for (const CtaRun &r : costs.ctas)
    if (r.count > 0)
      fewest = std::min(fewest, r.passes * r.trip);
  if (fewest < shownTrip)
    out.notes.push_back(formatv("the CTAs run {0} to {1} iterations: the timeline draws one of "
                                "the longest; the launch counts them all",
                                fewest, shownTrip)
                            .str());

  // Duration of a CTA with `trip` iterations, `resident` per SM; long loops
  // are simulated in part and extended at the steady-state rate.
  struct CtaTime {
    double cycles = 0;
  };
  std::map<int64_t, CtaTime> cache;
  RunResult shownRun;
  // A persistent kernel's CTA runs `passes` tiles of `trip` iterations: the
  // consumers' epilogue after each (SmRun's tiles).
  std::map<int64_t, int64_t> tileTripOf;
  for (const CtaRun &r : costs.ctas)
    tileTripOf.emplace(r.passes * r.trip, r.trip);
  auto simulate = [&](int64_t trip, bool record) -> CtaTime {
    int64_t simTrip = std::min<int64_t>(trip, std::max<int64_t>(8, options.maxSimulatedIterations));
    RunResult res = runSm(plan, g, sm, simTrip, tileTripOf[trip], static_cast<int>(resident),
                          record, options);
    CtaTime t;
    if (res.deadlock) {
      t.cycles = -1;
      if (record)
        shownRun = std::move(res);
      return t;
    }
    t.cycles = res.ctaEnd;
    if (record)
      shownRun = std::move(res);
    return t;
  };

  // The shown CTA, recorded (all its iterations up to the simulation cap).
  CtaTime shownTime = simulate(shownTrip, true);
  if (shownTime.cycles < 0) {
    out.error = "the model deadlocks (" + shownRun.deadlockWhere +
                "): the schedule's waits form a cycle the model cannot resolve";
    return out;
  }
  int64_t simTrip = std::min<int64_t>(shownTrip, std::max<int64_t>(8, options.maxSimulatedIterations));

  // Steady state: the middle half of the simulated iterations of CTA 0.
  const std::vector<double> &ends = shownRun.iterationEnd;
  double ns = model.nsPerCycle();
  double perIterationCycles = 0, w0 = 0, w1 = 0;
  if (auto window = steadyWindow(simTrip)) {
    auto [i0, i1] = *window;
    w0 = ends[i0];
    w1 = ends[i1];
    perIterationCycles = (w1 - w0) / static_cast<double>(i1 - i0);
  }
  if (perIterationCycles <= 0) {
    w0 = model.ctaOverheadCycles;
    w1 = shownTime.cycles;
    perIterationCycles = (w1 - w0) / std::max<int64_t>(1, simTrip);
  }
  out.iterationNs = perIterationCycles * ns;
  // Below four iterations nothing repeats (the thirteenth sweep's M2: "a
  // steady-state iteration" of 3.7 us for a loop of one).
  if (shownTrip > 0 && shownTrip < 4)
    out.notes.push_back(formatv("the loop runs {0} iteration{1}: it has no steady state; its "
                                "\"iteration\" is the CTA's time in it over {0}, fill and drain "
                                "included",
                                shownTrip, shownTrip == 1 ? "" : "s")
                            .str());

  // Utilization in the steady window, and the waits there.
  double window = std::max(1e-9, w1 - w0);
  out.utilization = {{"tensor cores", shownRun.tensor.within(w0, w1) / window},
                     {"TMA loads", shownRun.tma.within(w0, w1) / window},
                     {"CUDA cores", shownRun.math.within(w0, w1) / window}};
  const ResourceUse *top = &out.utilization.front();
  for (const ResourceUse &r : out.utilization)
    if (r.busy > top->busy)
      top = &r;
  std::string busyList;
  for (const ResourceUse &r : out.utilization)
    busyList += formatv("{0}{1} {2:F0}%", busyList.empty() ? "" : ", ", r.name,
                        std::min(100.0, r.busy * 100))
                    .str();
  if (top->busy >= 0.85 && top->name == std::string("TMA loads") && dramBoundRate > 0) {
    // The loads stream at the SM's share of DRAM for what the wave misses.
    out.bound = "DRAM";
    out.boundDetail = formatv("TMA loads busy {0:F0}% of the steady state ({1}) at {2:F1} bytes a "
                              "cycle: this SM's share of DRAM for the L2 misses; {3}",
                              std::min(100.0, top->busy * 100), busyList, dramBoundRate,
                              out.loadSourcesText())
                          .str();
  } else if (top->busy >= 0.85) {
    out.bound = top->name;
    out.boundDetail = formatv("{0} busy {1:F0}% of the steady state ({2})", top->name,
                              std::min(100.0, top->busy * 100), busyList)
                          .str();
  } else {
    // What the consumers wait for is what the loop waits for; a producer
    // waiting for free buffers only says the consumers are slower.
    std::map<std::string, double> waited;
    bool consumerWaits = false;
    for (const WaitSpan &s : shownRun.waits)
      consumerWaits |= s.consumer && s.end > w0 && s.start < w1;
    for (const WaitSpan &s : shownRun.waits)
      if (s.consumer || !consumerWaits)
        waited[s.reason] += std::max(0.0, std::min(w1, s.end) - std::max(w0, s.start));
    std::string worst;
    double most = 0;
    for (const auto &[reason, t] : waited)
      if (t > most) {
        most = t;
        worst = reason;
      }
    // Per warp group, not summed over them (a sum read "161% of the steady
    // state": the thirteenth sweep's M3): the warp groups the waits were
    // counted over, the consumers' rows (or every row's, when only the
    // producer waited).
    double waitingGroups = 0;
    for (const TimelineRow &r : shownRun.timeline.rows)
      if (r.kind == RowKind::Consumer || (!consumerWaits && r.kind == RowKind::Producer))
        waitingGroups += 1;
    waitingGroups = std::max(1.0, waitingGroups);
    out.bound = "latency";
    out.boundDetail =
        worst.empty()
            ? "no pipe is busy most of the time (" + busyList + ")"
            : formatv("no pipe is busy most of the time ({0}); the warp groups wait longest "
                      "for {1} ({2:F0}% of the steady state, a warp group's share on average)",
                      busyList, worst, std::min(100.0, 100.0 * most / window / waitingGroups))
                  .str();
  }

  // Timeline of the shown CTA.
  out.timeline = std::move(shownRun.timeline);
  out.timeline.title = "predicted";
  for (const Unit &u : g.units)
    out.timeline.units.push_back(
        {u.name, u.kind == UnitKind::Load  ? ZoneKind::Load
                 : u.kind == UnitKind::Dot ? ZoneKind::Dot
                                           : ZoneKind::Compute});
  // The code after the loop (SmRun's zone of a consumer after each tile).
  // A loop simulated in part ends before the real one does: no epilogue at
  // its cut, unless a tile ends there.
  auto epilogue = static_cast<uint16_t>(g.units.size());
  out.timeline.units.push_back({g.epilogueUnitName(), ZoneKind::Epilogue});
  int64_t shownTile = tileTripOf[shownTrip] > 0 ? tileTripOf[shownTrip] : shownTrip;
  if (simTrip < shownTrip && shownTile == shownTrip &&
      shownTrip < std::numeric_limits<int32_t>::max()) {
    // One tile of more iterations than simulated: the first half of the
    // simulated ones are the loop's first, the second half (its drain and
    // the epilogue) its last, the steady state repeating between them (a
    // trace of the first 256 of 16384 iterations ended in a drain the loop
    // never had at 255: the thirteenth sweep's B2).
    int64_t head = simTrip / 2, skipped = shownTrip - simTrip;
    double shift = static_cast<double>(skipped) * perIterationCycles * ns;
    for (Zone &z : out.timeline.zones)
      if (z.iteration >= head) {
        z.iteration += static_cast<int32_t>(skipped);
        z.start += shift;
        z.end += shift;
      }
    std::stable_sort(out.timeline.zones.begin(), out.timeline.zones.end(),
                     [](const Zone &a, const Zone &b) {
                       return a.row != b.row ? a.row < b.row : a.start < b.start;
                     });
    out.notes.push_back(formatv("the timeline draws iterations 0-{0} and {1}-{2} of {3} (and the "
                                "epilogue); the {4} between repeat the steady state, {5:F3} us each",
                                head - 1, shownTrip - (simTrip - head), shownTrip - 1, shownTrip,
                                skipped, perIterationCycles * ns / 1000)
                            .str());
  } else if (simTrip < shownTrip) {
    // A persistent CTA's tiles past the simulated iterations: not drawn
    // (a cut mid-tile has no epilogue there), and said, whole tiles too.
    if (simTrip % shownTile != 0)
      llvm::erase_if(out.timeline.zones, [&](const Zone &z) {
        return z.unit == epilogue && z.iteration == simTrip;
      });
    out.notes.push_back(formatv("the timeline draws the first {0} of the CTA's {1} iterations "
                                "({2} of its {3} tiles); the rest repeat the steady state",
                                simTrip, shownTrip,
                                (simTrip + shownTile - 1) / shownTile,
                                (shownTrip + shownTile - 1) / shownTile)
                            .str());
  }

  auto extrapolate = [&](const CtaTime &t, int64_t trip, int64_t simulated) {
    return t.cycles + static_cast<double>(trip - simulated) * perIterationCycles;
  };
  out.ctaNs = extrapolate(shownTime, shownTrip, simTrip) * ns;
  // A CTA of `trip` iterations under another model (cycles, extended at
  // that run's own steady-state rate), or -1 when it deadlocks.
  auto simulateAlone = [&](const HopperModel &m, int64_t trip) -> double {
    int64_t sim = std::min<int64_t>(trip, std::max<int64_t>(8, options.maxSimulatedIterations));
    RunResult res = runSm(plan, g, m, sim, tileTripOf[trip], static_cast<int>(resident), false,
                          options);
    if (res.deadlock)
      return -1;
    double rate = perIterationCycles;
    if (auto window = steadyWindow(sim)) {
      auto [i0, i1] = *window;
      rate = (res.iterationEnd[i1] - res.iterationEnd[i0]) / static_cast<double>(i1 - i0);
    }
    return res.ctaEnd + static_cast<double>(trip - sim) * rate;
  };

  out.executedFlops = costs.dotFlops();
  // The count a TFLOP/s means, but never more than the simulated launch
  // executes: where a loop's trip count could not be evaluated (a tile loop
  // bounded by an xor: 2 of its tiles assumed a CTA) the problem's count
  // over the assumed launch's time was 9110 TFLOP/s (the compile fuzzer).
  out.flops = costs.countedFlops();
  if (out.executedFlops > 0 && !costs.notes.empty())
    out.flops = std::min(out.flops, out.executedFlops);
  if (!options.wholeLaunch) {
    out.ok = true;
    return out;
  }
  // The duration of every distinct trip count (simulated for up to
  // kSimulatedTrips of them, spread over the range, and interpolated
  // linearly between those: a CTA's time is close to linear in its trip
  // count), then the CTAs in launch order onto the SMs' slots (each slot
  // holds one of the `resident` CTAs of an SM).
  std::set<int64_t> trips;
  for (const CtaRun &r : costs.ctas)
    trips.insert(r.passes * r.trip);
  std::vector<int64_t> sorted(trips.begin(), trips.end());
  std::set<int64_t> simulated;
  constexpr size_t kSimulatedTrips = 8;
  if (sorted.size() <= kSimulatedTrips) {
    simulated = trips;
  } else {
    for (size_t k = 0; k < kSimulatedTrips; ++k)
      simulated.insert(sorted[k * (sorted.size() - 1) / (kSimulatedTrips - 1)]);
  }
  // `cycles(trip)` of the simulated trips, interpolated between them (false:
  // the model deadlocks at one).
  auto fillDurations = [&](auto cycles, std::map<int64_t, double> &durations) {
    for (int64_t trip : simulated) {
      double c = cycles(trip);
      if (c < 0) {
        out.error = "the model deadlocks at " + std::to_string(trip) + " iterations";
        return false;
      }
      durations[trip] = c;
    }
    for (int64_t trip : sorted) {
      if (durations.count(trip))
        continue;
      auto hi = durations.lower_bound(trip);
      auto lo = std::prev(hi);
      double f = static_cast<double>(trip - lo->first) / static_cast<double>(hi->first - lo->first);
      durations[trip] = lo->second + f * (hi->second - lo->second);
    }
    return true;
  };
  std::map<int64_t, double> durations;
  if (!fillDurations(
          [&](int64_t trip) {
            if (trip == shownTrip)
              return out.ctaNs / ns;
            int64_t sim =
                std::min<int64_t>(trip, std::max<int64_t>(8, options.maxSimulatedIterations));
            CtaTime t = simulate(trip, false);
            return t.cycles < 0 ? -1.0 : extrapolate(t, trip, sim);
          },
          durations))
    return out;
  // The later rounds' CTAs (after the first `slots`): out of the L2 when it
  // holds the operands, else as the first round's.
  std::map<int64_t, double> laterDurations = durations;
  if (warmRounds && !fillDurations([&](int64_t trip) { return simulateAlone(warm, trip); },
                                   laterDurations))
    return out;
  int64_t slots = model.sms * resident;
  // Clusters fill the GPCs' SMs in groups: fewer slots than SMs may hold
  // them (a persistent kernel's clusters beyond them run in a second wave).
  if (int64_t clusters = model.residentClusters(report.cluster); clusters > 0)
    slots = std::min(slots, clusters * report.cluster * resident);
  double total = 0;
  bool uniform = durations.size() == 1;
  // The launch's set-up (ctaOverheadCycles: the launch, barrier set-up, the
  // first waits) is paid once per slot: a CTA that takes a slot a finished
  // CTA left starts without the launch's latency.
  double relaunch = model.ctaOverheadCycles;
  if (uniform) {
    int64_t rounds = (out.ctas + slots - 1) / slots;
    double d = durations.begin()->second;
    double later = laterDurations.begin()->second;
    total = d + (rounds - 1) * (later - relaunch);
    // The last round's CTAs stream alone: fewer of them share the L2, each
    // SM up to its own limit (loadShare), so a small last round runs faster
    // (measured on the H100: 144 CTAs of one per SM, 1000x1048x528, ran two
    // rounds in 8.0 us against 2 x 3.3 us of loop in the first one).
    int64_t tail = out.ctas - (rounds - 1) * slots;
    double tailShare = model.loadShare(tail, resident);
    HopperModel alone = sm;
    alone.loadBytesPerCycle = tailShare * rateFactor;
    if (warmRounds)
      alone = model.fromL2(tailShare);
    else if (dramBoundRate > 0 && tail > 0) {
      // Still DRAM's: the tail's CTAs share it among fewer SMs (a full last
      // round, none; uncapped, a second round of a stream ran at 3.2 TB/s:
      // the thirteenth sweep's B3).
      double tailRate = dramBoundRate *
                        static_cast<double>(std::min<int64_t>(model.sms, out.ctas)) /
                        static_cast<double>(std::min<int64_t>(model.sms, tail));
      alone.loadBytesPerCycle = std::min(alone.loadBytesPerCycle, tailRate * linkPerByte);
    }
    if (rounds > 1 && alone.loadBytesPerCycle > (warmRounds ? warm : sm).loadBytesPerCycle) {
      double dTail = simulateAlone(alone, durations.begin()->first);
      if (dTail > 0 && dTail < later)
        total += dTail - later;
    }
  } else {
    // List scheduling: each CTA, in launch order, takes the slot that frees
    // first (a min-heap of the slots' free times). A grid of more than
    // kExactCtas CTAs (thousands of waves; a user may type millions) is
    // scheduled with every run's count divided by `scale`, and the work of
    // the CTAs left out is then spread evenly over the slots: the first
    // wave's start and the last one's imbalance stay exact, and the cost is
    // a heap operation per scheduled CTA, not per CTA of the launch.
    constexpr int64_t kExactCtas = 1 << 16;
    int64_t scale = (out.ctas + kExactCtas - 1) / kExactCtas;
    std::priority_queue<double, std::vector<double>, std::greater<double>> free;
    for (int64_t s = 0; s < std::min(slots, out.ctas); ++s)
      free.push(0);
    int64_t launched = 0;
    double leftOut = 0; // summed slot time of the CTAs not scheduled
    for (const CtaRun &r : costs.ctas) {
      double d = durations[r.passes * r.trip];
      double later = laterDurations[r.passes * r.trip];
      int64_t scheduled = std::max<int64_t>(1, r.count / scale);
      leftOut += static_cast<double>(r.count - scheduled) * (later - relaunch);
      for (int64_t c = 0; c < scheduled; ++c) {
        double t = free.top();
        free.pop();
        bool first = launched++ < slots;
        double e = t + (first ? d : later - relaunch);
        free.push(e);
        total = std::max(total, e);
      }
    }
    total += leftOut / static_cast<double>(std::min(slots, out.ctas));
  }
  out.waves = static_cast<double>(out.ctas) / static_cast<double>(slots);
  double launchNs = total * ns;
  double dramNs = costs.dramBytes / model.hbmBytesPerSecond * 1e9;
  if (dramNs > launchNs)
    out.notes.push_back(formatv("DRAM bandwidth bounds the launch: {0:F1} MB at {1:F2} TB/s",
                                costs.dramBytes / 1e6, model.hbmBytesPerSecond / 1e12)
                            .str());
  out.totalNs = std::max(launchNs, dramNs);
  out.tflops = out.totalNs > 0 ? out.flops / out.totalNs / 1e3 : 0;
  out.ok = true;
  return out;
}
} // namespace
