//===- TimelineSimTest.cpp - the simulator on small cases checked by hand -===//
//
// Loops built as plain data (no IR): one load feeding one dot, in one warp
// group or a producer and a consumer, with round-number costs, so each
// expected time can be worked out on paper. The model's latencies that are
// not under test are zero.
//
//===----------------------------------------------------------------------===//
#include "core/Timeline/SharedPipe.h"
#include "core/Timeline/LoadSharing.h"
#include "core/Timeline/Simulator.h"
#include "core/Timeline/TimelineTrace.h"

#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <cmath>
#include <map>

using namespace stagecraft;
using namespace stagecraft::timeline;

namespace {

/// 1 ns per cycle; a 100-byte load streams in 100 cycles and lands 100
/// cycles later; a 64x64x16 dot takes 50 cycles on the tensor cores; no
/// other latency.
HopperModel roundModel() {
  HopperModel m;
  m.clockGHz = 1.0;
  m.clockMaxGHz = 0; // one clock: the power clock has its own tests
  m.sms = 1;
  m.loadBytesPerCycle = 1.0;
  m.loadBytesPerCycleMax = 1.0; // no larger share when SMs are idle
  m.loadLatencyCycles = 100;
  m.syncLatencyCycles = 0;
  m.issueCycles = 0;
  m.tmaIssueCycles = 0;
  m.ctaOverheadCycles = 0;
  m.wgmmaMinCycles = 0;
  m.wgmmaLatencyCycles = 0;
  m.wgmmaIssueQueue = 0; // issuing never waits for the tensor cores
  m.tensorEfficiency = 1.0;
  m.tensorFlopsPerCycle = 2.0 * 64 * 64 * 16 / 50.0;
  m.mathEfficiency = 1.0;
  m.tensorMathInterference = 0;
  m.fmaPerCycle = 1;
  m.tpcCoalescing = 0; // CTAs on one TPC get nothing from sharing a box
  m.l2HitLoadBytesPerCycle = 0; // one rate for hits and misses
  m.l2MissLoadBytesPerCycle = 0;
  return m;
}

/// loadA -> MMA (accumulating onto itself), like gemm.mlir with one load.
struct LoadDot {
  LoopGraph graph;
  KernelCosts costs;

  explicit LoadDot(int64_t trip, int64_t consumerWarpGroups = 1, int64_t dotRows = 64) {
    graph.kernel = "k";
    graph.units = {Unit{"loadA", UnitKind::Load, {0}, 100, 0, 0, -1, "", ""},
                   Unit{"MMA", UnitKind::Dot, {1}, 0, 2 * dotRows * 64 * 16, 0, -1, "", ""}};
    graph.ops = {LoopOp{0, "tile.load", ""}, LoopOp{1, "tile.dot", ""}};
    graph.edges = {Edge{0, 1, 0, 1, false, true, "its tile"}, Edge{1, 1, 1, 1, true, false, "acc"}};
    graph.warpGroups = {1, consumerWarpGroups};
    graph.initialSchedule.set("loadA", {0, 1, 0, 0});
    graph.initialSchedule.set("MMA", {0, 2, 0, 0});
    costs.kernel = "k";
    UnitWork load;
    load.name = "loadA";
    load.loadBytes = 100;
    load.loadBoxes = 1;
    UnitWork dot;
    dot.name = "MMA";
    dot.dots = {DotWork{dotRows, 64, 16, "bf16", false}};
    dot.accumulatesOnto = {"MMA"};
    costs.units = {load, dot};
    costs.ctas = {CtaRun{1, trip, 1}};
  }

  Prediction run(const Schedule &s, const HopperModel &m = roundModel()) {
    ScheduleReport r = checkSchedule(graph, s);
    EXPECT_TRUE(r.legal()) << (r.violations.empty() ? "" : r.violations.front().message);
    return predict(graph, s, r, costs, m);
  }
};

Schedule schedule(int64_t loadStage, int64_t loadGroup, int64_t mmaStage, int64_t wait = 0) {
  Schedule s;
  // In one stage the load comes first; across stages the MMA leads the body.
  s.set("loadA", {loadStage, loadStage == mmaStage ? 0 : 1, loadGroup, 0});
  s.set("MMA", {mmaStage, loadStage == mmaStage ? 1 : 0, 1, wait});
  return s;
}

TEST(TimelineSim, UnpipelinedLoopIsTheSumOfItsParts) {
  LoadDot k(10);
  // One warp group: load (100 streaming + 100 latency), then the dot (50),
  // whose wait 0 frees the buffer for the next load: 250 cycles each.
  Prediction p = k.run(schedule(0, 1, 0));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NEAR(p.iterationNs, 250, 1e-6);
  EXPECT_NEAR(p.ctaNs, 10 * 250, 1e-6);
  EXPECT_EQ(p.bound, "latency");
  EXPECT_NE(p.boundDetail.find("loadA data"), std::string::npos) << p.boundDetail;
  EXPECT_EQ(p.threadsPerCta, 128);
}

/// The unpipelined LoadDot loop over `ctas` CTAs of ten iterations, one per
/// SM, its load's box per CTA `boxes` (empty: not evaluated).
Prediction runBoxes(const HopperModel &m, int64_t ctas, std::vector<uint64_t> boxes) {
  LoadDot k(10);
  k.costs.ctas = {CtaRun{1, 10, ctas}};
  k.costs.units[0].footprints = {LoadFootprint{100, std::move(boxes)}};
  return k.run(schedule(0, 1, 0), m);
}

TEST(TimelineSim, PowerClockFallsWithTheTensorPipesBusyFraction) {
  HopperModel m;
  m.clockGHz = 1.75;
  m.clockMaxGHz = 0;
  EXPECT_EQ(m.powerClockGHz(0.9), 1.75); // off: the one clock
  m.clockMaxGHz = 1.8;
  m.clockFullTensorGHz = 1.5;
  m.tensorBusyAtClockMax = 0.5;
  // Power f (a + b u) = 1 through (0.5, 1.8) and (1, 1.5): b = (1/1.5 -
  // 1/1.8) / 0.5 = 2/9, a = 1/1.8 - 1/9 = 4/9.
  EXPECT_NEAR(m.powerClockGHz(0.2), 1.8, 1e-12); // under the knee: the cap
  EXPECT_NEAR(m.powerClockGHz(0.5), 1.8, 1e-12);
  EXPECT_NEAR(m.powerClockGHz(0.75), 1 / (4.0 / 9 + 0.75 * 2.0 / 9), 1e-12);
  EXPECT_NEAR(m.powerClockGHz(1.0), 1.5, 1e-12);
  EXPECT_NEAR(m.powerClockGHz(1.7), 1.5, 1e-12); // clamped to a busy pipe
  // The DRAM's traffic takes its share of the budget first: 2 TB/s at 0.1 of
  // it a TB/s leaves the SMs 0.8.
  m.clockDramPowerPerTBps = 0.1;
  EXPECT_NEAR(m.powerClockGHz(0.75, 2.0), 0.8 / (4.0 / 9 + 0.75 * 2.0 / 9), 1e-12);
  EXPECT_NEAR(m.powerClockGHz(0.2, 0.5), 1.8, 1e-12); // still at the cap
}

TEST(TimelineSim, PowerClockKeepsTheMemorySideInNanoseconds) {
  HopperModel m = roundModel(); // 1 GHz: loads 1 byte a ns, 100 ns latency
  HopperModel at2 = m.atSmClock(2.0);
  EXPECT_EQ(at2.clockGHz, 2.0);
  EXPECT_EQ(at2.clockMaxGHz, 0);
  EXPECT_NEAR(at2.loadBytesPerCycle, 0.5, 1e-12);
  EXPECT_NEAR(at2.loadLatencyCycles, 200, 1e-12);
  EXPECT_NEAR(at2.tensorFlopsPerCycle, m.tensorFlopsPerCycle, 1e-12); // the SM's side: per cycle

  // The unpipelined LoadDot loop at f GHz: 200 ns of load (100 streaming, 100
  // latency) and a 50-cycle dot, 200 + 50 / f ns an iteration, the tensor
  // pipe busy (50 / f) / (200 + 50 / f) of it. With the clock 1 / (0.5 +
  // 0.5 u) (2 GHz idle, 1 GHz busy) its fixed point solves 2f^2 - 3f - 1 = 0:
  // f = (3 + sqrt 17) / 4 = 1.781 GHz.
  m.clockMaxGHz = 2.0;
  m.clockFullTensorGHz = 1.0;
  m.tensorBusyAtClockMax = 0;
  LoadDot k(10);
  Prediction p = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(p.ok) << p.error;
  double f = (3 + std::sqrt(17.0)) / 4;
  // Settled within 1 MHz (a coarser stop left schedules 0.1-0.3% apart that
  // differ in nothing but where the iteration stopped).
  EXPECT_NEAR(p.clockGHz, f, 0.001);
  EXPECT_NEAR(p.iterationNs, 200 + 50 / f, 0.02);
  bool noted = false;
  for (const std::string &n : p.notes)
    noted |= n.find("SM clock 1.78 GHz") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(TimelineSim, BoxesNoOtherCtaLoadsStreamFromDramAtItsShare) {
  // Two SMs, a CTA each, unpipelined, and DRAM at 1 byte per cycle for the
  // GPU. When both CTAs load the same box, one of them misses: 100 bytes
  // from DRAM per iteration for the two, and each SM's TMA keeps its 1 byte
  // per cycle (100 streaming + 100 latency + 50 dot). When each loads its
  // own, both miss: 200 bytes from DRAM, half a byte per cycle for each SM
  // (200 streaming).
  HopperModel m = roundModel();
  m.sms = 2;
  m.hbmBytesPerSecond = 1e9;
  m.dramEfficiency = 1.0;
  auto run = [&](std::vector<uint64_t> boxes) { return runBoxes(m, 2, std::move(boxes)); };
  Prediction shared = run({7, 7}), own = run({7, 8}), unknown = run({});
  ASSERT_TRUE(shared.ok && own.ok && unknown.ok) << shared.error << own.error << unknown.error;
  EXPECT_NEAR(shared.iterationNs, 250, 1e-6);
  EXPECT_NEAR(own.iterationNs, 350, 1e-6);
  EXPECT_NEAR(unknown.iterationNs, 250, 1e-6); // boxes not evaluated: no DRAM bound
  ASSERT_EQ(shared.loadSources.size(), 1u);
  EXPECT_EQ(shared.loadSources[0].unit, "loadA");
  EXPECT_NEAR(shared.loadSources[0].dramFraction, 0.5, 1e-9);
  EXPECT_NEAR(own.loadSources[0].dramFraction, 1.0, 1e-9);
  EXPECT_NE(shared.loadSourcesText().find("loadA 50%"), std::string::npos)
      << shared.loadSourcesText();
  ASSERT_EQ(unknown.loadSources.size(), 1u);
  EXPECT_LT(unknown.loadSources[0].dramFraction, 0);
  EXPECT_NE(unknown.loadSourcesText().find("loadA unknown"), std::string::npos)
      << unknown.loadSourcesText();
  // The misses get half the HBM: the shared box's 100 bytes per iteration
  // for the two SMs bound each to half a byte per cycle too.
  m.dramEfficiency = 0.5;
  Prediction half = run({7, 7});
  EXPECT_NEAR(half.iterationNs, 350, 1e-6);
  // Loads bound by DRAM rather than the L2 say so (with a third buffer the
  // loop streams without pause).
  LoadDot k(40);
  k.costs.ctas = {CtaRun{1, 40, 2}};
  k.costs.units[0].footprints = {LoadFootprint{100, {7, 8}}};
  Prediction streaming = k.run(schedule(0, 0, 2), m);
  ASSERT_TRUE(streaming.ok) << streaming.error;
  EXPECT_NEAR(streaming.iterationNs, 400, 1e-6); // 100 bytes at a quarter byte per cycle
  EXPECT_EQ(streaming.bound, "DRAM");
  EXPECT_NE(streaming.boundDetail.find("loadA 100%"), std::string::npos) << streaming.boundDetail;
}

TEST(TimelineSim, BoxesTheTpcPartnerLoadsTooCrossItsLinkOnce) {
  // Four SMs, a CTA each, unpipelined, DRAM not a bound. CTAs 2k and 2k+1
  // run on one TPC: when they load the same box, the TPC serves the second
  // copy at (1 - coalescing) of its cost, so each SM's transfer is 100 x
  // (1 - 0.5 / 2) = 75 cycles (75 + 100 latency + 50 dot). The same two
  // boxes loaded by CTAs of different TPCs cost in full (250), with as much
  // from DRAM (half of the bytes) either way.
  HopperModel m = roundModel();
  m.sms = 4;
  m.tpcCoalescing = 0.5;
  auto run = [&](std::vector<uint64_t> boxes) { return runBoxes(m, 4, std::move(boxes)); };
  Prediction pairs = run({7, 7, 8, 8}), apart = run({7, 8, 7, 8}), one = run({7, 7, 8, 9});
  ASSERT_TRUE(pairs.ok && apart.ok && one.ok) << pairs.error << apart.error << one.error;
  EXPECT_NEAR(pairs.iterationNs, 225, 1e-6);
  EXPECT_NEAR(apart.iterationNs, 250, 1e-6);
  // One pair of two shares: half of the CTAs, 100 x (1 - 0.5 x 0.5 / 2).
  EXPECT_NEAR(one.iterationNs, 87.5 + 150, 1e-6);
  ASSERT_EQ(pairs.loadSources.size(), 1u);
  EXPECT_NEAR(pairs.loadSources[0].tpcShared, 1.0, 1e-9);
  EXPECT_NEAR(apart.loadSources[0].tpcShared, 0.0, 1e-9);
  EXPECT_NEAR(one.loadSources[0].tpcShared, 0.5, 1e-9);
  EXPECT_NEAR(pairs.loadSources[0].dramFraction, apart.loadSources[0].dramFraction, 1e-9);
  EXPECT_NE(pairs.loadSourcesText().find("on its TPC: loadA 100%"), std::string::npos)
      << pairs.loadSourcesText();
  // Boxes not evaluated: every byte crosses the link; the share is unknown.
  Prediction unknown = run({});
  ASSERT_TRUE(unknown.ok) << unknown.error;
  EXPECT_NEAR(unknown.iterationNs, 250, 1e-6);
  EXPECT_LT(unknown.loadSources[0].tpcShared, 0);
  // An odd CTA at the end has its TPC to itself: it shares nothing, and a
  // launch of one CTA shares nothing (known, not unknown).
  LoadFootprint three{100, {7, 7, 7}};
  EXPECT_NEAR(tpcSharedFraction(three, 3).value_or(-1), 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(tpcSharedFraction(three, 1).value_or(-1), 0.0, 1e-9);
  EXPECT_FALSE(tpcSharedFraction(LoadFootprint{100, {}}, 4).has_value());
}

TEST(TimelineSim, HitsAndMissesStreamAtTheirRates) {
  // Four SMs, a CTA each, unpipelined: 100 bytes, 100 cycles of latency, a
  // 50-cycle dot. L2 hits stream at 2 bytes a cycle, misses at 0.5. Boxes
  // {7, 8, 7, 8}: of the four CTAs' loads two miss (m = 1/2), so the SM's
  // share is 1 / (0.5 / 2 + 0.5 / 0.5) = 0.8 bytes a cycle: 125 + 100 + 50.
  // {7, 7, 7, 7}: one miss in four, 1 / (0.75 / 2 + 0.25 / 0.5) = 8/7.
  // Boxes the model cannot evaluate stream at load_bytes_per_cycle (1).
  HopperModel m = roundModel();
  m.sms = 4;
  m.l2HitLoadBytesPerCycle = 2.0;
  m.l2MissLoadBytesPerCycle = 0.5;
  EXPECT_NEAR(m.l2RateFactor(0.5), 0.8, 1e-12);
  EXPECT_NEAR(m.l2RateFactor(0), 2.0, 1e-12);
  EXPECT_NEAR(m.l2RateFactor(1), 0.5, 1e-12);
  Prediction half = runBoxes(m, 4, {7, 8, 7, 8}), quarter = runBoxes(m, 4, {7, 7, 7, 7}),
             unknown = runBoxes(m, 4, {});
  ASSERT_TRUE(half.ok && quarter.ok && unknown.ok) << half.error << quarter.error << unknown.error;
  EXPECT_NEAR(half.iterationNs, 125 + 150, 1e-6);
  EXPECT_NEAR(quarter.iterationNs, 100 * 7.0 / 8.0 + 150, 1e-6);
  EXPECT_NEAR(unknown.iterationNs, 100 + 150, 1e-6);
  // The miss rate off: every load at load_bytes_per_cycle.
  HopperModel one = m;
  one.l2MissLoadBytesPerCycle = 0;
  Prediction flat = runBoxes(one, 4, {7, 8, 7, 8});
  ASSERT_TRUE(flat.ok) << flat.error;
  EXPECT_NEAR(flat.iterationNs, 250, 1e-6);
}

TEST(TimelineSim, ARingOfTwoOverlapsTheLoadWithTheDot) {
  LoadDot k(40);
  // Producer + consumer, loads one stage ahead: 2 buffers. A buffer goes
  // round in load (200) + dot (50) = 250 cycles and two are in flight:
  // 125 per iteration, still short of the TMA limit (100).
  Prediction p = k.run(schedule(0, 0, 1));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NEAR(p.iterationNs, 125, 1e-6);
  EXPECT_EQ(p.threadsPerCta, 256);
  EXPECT_EQ(p.bound, "latency");
}

TEST(TimelineSim, AThirdBufferMakesTheLoopBandwidthBound) {
  LoadDot k(40);
  // Three buffers: 250 / 3 < 100, so the TMA stream (100 bytes at 1 byte
  // per cycle) bounds the loop.
  Prediction p = k.run(schedule(0, 0, 2));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NEAR(p.iterationNs, 100, 1e-6);
  EXPECT_EQ(p.bound, "TMA loads");
  ASSERT_EQ(p.utilization.size(), 3u);
  EXPECT_NEAR(p.utilization[1].busy, 1.0, 1e-6);
  EXPECT_NEAR(p.utilization[0].busy, 0.5, 1e-6); // tensor cores: 50 of every 100
}

TEST(TimelineSim, ATmaIssueTakesItsCyclesPerBoxAndNeverWaits) {
  // Issuing a box costs the issuing thread tmaIssueCycles (measured on the
  // H100: 60-82 cycles, bench/results/tma-issue-h100-2026-11-27), before
  // the transfer can start. Unpipelined (UnpipelinedLoopIsTheSumOfItsParts):
  // 10 + 100 streaming + 100 latency + 50 dot; a load of three boxes: 30.
  LoadDot k(10);
  HopperModel m = roundModel();
  m.tmaIssueCycles = 10;
  Prediction one = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(one.ok) << one.error;
  EXPECT_NEAR(one.iterationNs, 260, 1e-6);
  k.costs.units[0].loadBoxes = 3;
  Prediction three = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(three.ok) << three.error;
  EXPECT_NEAR(three.iterationNs, 280, 1e-6);
  // The issue never waits for the transfers queued before it: with three
  // buffers the stream still bounds the loop at 100 an iteration
  // (AThirdBufferMakesTheLoopBandwidthBound), the issues hidden under it.
  Prediction bound = k.run(schedule(0, 0, 2), m);
  ASSERT_TRUE(bound.ok) << bound.error;
  EXPECT_NEAR(bound.iterationNs, 100, 1e-6);
  EXPECT_EQ(bound.bound, "TMA loads");
}

TEST(TimelineSim, CtasSharingBoxesDriftApartWhenTheirCopiesBoundAndRunFarAhead) {
  // Four SMs, CTAs 2k and 2k+1 on a TPC loading the same boxes
  // (BoxesTheTpcPartnerLoadsTooCrossItsLinkOnce): each transfer crosses the
  // link at 75 of its 100 bytes, and with the loads well ahead the loop is
  // bound by them at 75 cycles an iteration (the dot's 50 hidden). Ten
  // rounds of CTAs whose loads run four iterations ahead of the dot, in a
  // loop whose copies are the limit (75 link bytes per 50 tensor cycles,
  // over the 1.0 set here): after the first two rounds the sharers drift
  // apart and every box crosses in full (100 an iteration), so the launch
  // takes 2/10 of its time in step and 8/10 as if nothing were shared; the
  // timeline (CTA 0, first round) stays in step. Three ahead, a loop whose
  // consumers are the limit, two rounds, or CTAs of fewer iterations than
  // driftMinIterations (drift takes a CTA's time) keep the sharing.
  HopperModel m = roundModel();
  m.sms = 4;
  m.tpcCoalescing = 0.5;
  m.driftLeadIterations = 4;
  m.driftLinkBytesPerTensorCycle = 1.0;
  m.driftMinIterations = 40; // the CTAs' 40 iterations: long enough
  auto run = [&](int64_t ahead, const HopperModel &model, int64_t ctas = 40) {
    LoadDot k(40);
    k.costs.ctas = {CtaRun{1, 40, ctas}};
    k.costs.units[0].footprints = {LoadFootprint{100, {7, 7, 8, 8}}};
    return k.run(schedule(0, 0, ahead), model);
  };
  HopperModel off = m, shareless = m;
  off.driftLeadIterations = 0;
  shareless.tpcCoalescing = 0;
  Prediction three = run(3, m), four = run(4, m), inStep = run(4, off), apart = run(4, shareless);
  ASSERT_TRUE(three.ok && four.ok && inStep.ok && apart.ok)
      << three.error << four.error << inStep.error << apart.error;
  EXPECT_NEAR(inStep.iterationNs, 75, 1e-6);
  EXPECT_NEAR(apart.iterationNs, 100, 1e-6);
  EXPECT_EQ(four.bound, "TMA loads");
  EXPECT_EQ(four.loadLead, 4);
  EXPECT_NEAR(four.linkBytesPerTensorCycle, 1.5, 1e-9);
  EXPECT_NEAR(four.iterationNs, 75, 1e-6);
  EXPECT_NEAR(four.totalNs, 0.2 * inStep.totalNs + 0.8 * apart.totalNs, 1e-6);
  EXPECT_GT(four.totalNs, inStep.totalNs * 1.2);
  bool said = false;
  for (const std::string &n : four.notes)
    said |= n.find("drift apart") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_EQ(three.loadLead, 3);
  EXPECT_NEAR(three.totalNs, run(3, off).totalNs, 1e-6);
  HopperModel consumers = m;
  consumers.driftLinkBytesPerTensorCycle = 2.0; // 1.5 is under it: the consumers bound
  EXPECT_NEAR(run(4, consumers).totalNs, inStep.totalNs, 1e-6);
  EXPECT_NEAR(run(4, m, 8).totalNs, run(4, off, 8).totalNs, 1e-6); // two rounds
  HopperModel longer = m;
  longer.driftMinIterations = 41; // CTAs shorter than it stay in step
  EXPECT_NEAR(run(4, longer).totalNs, inStep.totalNs, 1e-6);
}

TEST(TimelineSim, SharedMemoryIsSharedByTheWgmmaReadsAndTheLoads) {
  // Three buffers, TMA-bound at 100 cycles an iteration (AThirdBuffer...).
  // The dot (64x64x16 bf16) reads 2048 bytes of A and 2048 of B from shared
  // memory, the load writes 100: 40.96 + 1 bytes a cycle at that rate. With
  // shared memory at half of that (20.98 bytes a cycle) each gets half of
  // its demand: the dot 4096 / 20.48 = 200 cycles, the load 100 / 0.5 =
  // 200; the loop 200 cycles an iteration, bound by shared memory.
  LoadDot k(40);
  HopperModel m = roundModel();
  EXPECT_NEAR(m.dotSmemBytes(DotWork{64, 64, 16, "bf16", false}, 1.0), 4096, 1e-9);
  EXPECT_NEAR(m.dotSmemBytes(DotWork{64, 64, 16, "bf16", true}, 1.0), 2048, 1e-9); // A in registers
  // Two m64 instructions each read all of B; fp8 one byte an element.
  EXPECT_NEAR(m.dotSmemBytes(DotWork{128, 256, 32, "e4m3", false}, 1.0), 128 * 32 + 2 * 256 * 32, 1e-9);
  m.smemBytesPerCycle = 100; // more than the loop wants: no change
  Prediction fast = k.run(schedule(0, 0, 2), m);
  ASSERT_TRUE(fast.ok) << fast.error;
  EXPECT_NEAR(fast.iterationNs, 100, 1e-6);
  EXPECT_EQ(fast.bound, "TMA loads");
  m.smemBytesPerCycle = 20.98;
  Prediction p = k.run(schedule(0, 0, 2), m);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NEAR(p.iterationNs, 200, 0.5);
  EXPECT_EQ(p.bound, "shared memory");
  EXPECT_NE(p.boundDetail.find("shared memory"), std::string::npos) << p.boundDetail;
}

TEST(TimelineSim, TheWgmmaReadTheirOperandsAtTheirRate) {
  // Fast loads, the dot tensor-bound at 50 cycles an iteration
  // (MmaPipeliningKeepsAGroupInFlight); its 4096 operand bytes at 40.96
  // bytes a cycle take 100: the loop's iteration.
  LoadDot k(40);
  HopperModel m = roundModel();
  m.loadLatencyCycles = 0;
  m.loadBytesPerCycle = 100.0 / 20;
  Prediction full = k.run(schedule(0, 0, 2, 1), m);
  ASSERT_TRUE(full.ok) << full.error;
  EXPECT_NEAR(full.iterationNs, 50, 1e-6);
  m.wgmmaSmemBytesPerCycle = 40.96;
  Prediction p = k.run(schedule(0, 0, 2, 1), m);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NEAR(p.iterationNs, 100, 1e-6);
  EXPECT_EQ(p.bound, "tensor cores");
}

TEST(TimelineSim, MmaPipeliningKeepsAGroupInFlight) {
  LoadDot k(40);
  HopperModel m = roundModel();
  m.loadLatencyCycles = 0;
  m.loadBytesPerCycle = 100.0 / 20; // 20 cycles per load
  // Fast loads: tensor-bound at 50 per iteration whatever the wait.
  Prediction w0 = k.run(schedule(0, 0, 2, 0), m);
  Prediction w1 = k.run(schedule(0, 0, 2, 1), m);
  ASSERT_TRUE(w0.ok && w1.ok);
  EXPECT_NEAR(w0.iterationNs, 50, 1e-6);
  EXPECT_NEAR(w1.iterationNs, 50, 1e-6);
  EXPECT_EQ(w0.bound, "tensor cores");
  EXPECT_EQ(w1.bound, "tensor cores");
  EXPECT_NEAR(w1.utilization[0].busy, 1.0, 1e-6);
}

TEST(TimelineSim, MmaPipeliningHidesTheWaitForTheNextLoad) {
  LoadDot k(40);
  // Loads one stage ahead, wait 0 vs wait 1 (3 buffers): with wait 0 the
  // buffer goes back when its dot ends, so a buffer round trip is load (200)
  // + dot (50) over 2 buffers = 125; with wait 1 there are 3 buffers and the
  // TMA stream (100) bounds it.
  Prediction w0 = k.run(schedule(0, 0, 1, 0));
  Prediction w1 = k.run(schedule(0, 0, 1, 1));
  ASSERT_TRUE(w0.ok && w1.ok);
  EXPECT_NEAR(w0.iterationNs, 125, 1e-6);
  EXPECT_NEAR(w1.iterationNs, 100, 1e-6);
}

TEST(TimelineSim, TwoConsumersTakeTheTensorCoresInIssueOrder) {
  // A 128-row dot split over two consumer warp groups: 50 cycles of tensor
  // work each, issued together. The tensor cores run the group issued first,
  // then the other (50 cycles each, the second ending 50 after the first),
  // as the H100's measured attention timelines show the consumers drifting
  // one MMA apart; shared in equal parts both would end together after 100.
  LoadDot k(8, /*consumerWarpGroups=*/2, /*dotRows=*/128);
  HopperModel m = roundModel();
  m.tensorFlopsPerCycle = 2.0 * 64 * 64 * 16 / 50.0;
  Prediction p = k.run(schedule(0, 0, 1), m);
  ASSERT_TRUE(p.ok) << p.error;
  std::vector<std::pair<double, double>> spans;
  for (const Zone &z : p.timeline.zones)
    if (p.timeline.rows[z.row].kind == RowKind::TensorCores && z.iteration == 0)
      spans.push_back({z.start, z.end});
  ASSERT_EQ(spans.size(), 2u);
  std::sort(spans.begin(), spans.end());
  EXPECT_NEAR(spans[0].second - spans[0].first, 50, 1e-6);
  EXPECT_NEAR(spans[1].second - spans[1].first, 50, 1e-6);
  EXPECT_NEAR(spans[1].first, spans[0].second, 1e-6);
  EXPECT_EQ(p.timeline.rows.size(), 1u + 2u + 1u + 2u); // producer, 2 consumers, TMA, 2 wgmma rows
  EXPECT_EQ(p.threadsPerCta, 384);
}

TEST(TimelineSim, StaggeredConsumersTakeTurnsAtTheirDots) {
  // Two consumer warp groups, each 64 rows of a 128-row dot (50 cycles of
  // tensor work each), loads far ahead (3 stages, a group in flight) and
  // landing at once: cooperative consumers keep the tensor cores busy, 100
  // cycles per iteration. Staggered, warp group 1 issues its dot only when
  // warp group 0 hands over its turn, 80 cycles (the handoff's latency)
  // after warp group 0 issued, and warp group 0 its next one 80 after warp
  // group 1: a turn cycle of 160 cycles bounds the loop.
  LoadDot k(40, /*consumerWarpGroups=*/2, /*dotRows=*/128);
  HopperModel m = roundModel();
  m.loadLatencyCycles = 0;
  m.loadBytesPerCycle = 100.0; // 1 cycle per load
  m.syncLatencyCycles = 80;
  Schedule coop = schedule(0, 0, 2, 1);
  Prediction c = k.run(coop, m);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_NEAR(c.iterationNs, 100, 1e-6);
  Schedule turns = coop;
  turns.consumers = Consumers::Staggered;
  Prediction s = k.run(turns, m);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_NEAR(s.iterationNs, 160, 1e-6);
  EXPECT_EQ(s.bound, "latency");
  EXPECT_NE(s.boundDetail.find("its turn at the tensor cores"), std::string::npos) << s.boundDetail;
  // Every iteration: warp group 1's dot after warp group 0's, and warp
  // group 0's next after warp group 1's (zones of consumer 0 and 1).
  std::map<std::pair<int, int>, double> issued; // (consumer, iteration) -> start
  for (const Zone &z : s.timeline.zones)
    if (s.timeline.rows[z.row].kind == RowKind::Consumer)
      issued[{s.timeline.rows[z.row].name == "consumer 0" ? 0 : 1, z.iteration}] = z.start;
  auto at = [&](int consumer, int iteration) { return issued[std::make_pair(consumer, iteration)]; };
  for (int i = 1; i + 1 < 40; ++i) {
    EXPECT_NEAR(at(1, i) - at(0, i), 80, 1e-6) << i;
    EXPECT_NEAR(at(0, i + 1) - at(1, i), 80, 1e-6) << i;
  }
}

TEST(TimelineSim, WavesAndOccupancyScaleTheLaunch) {
  LoadDot k(10);
  k.costs.ctas = {CtaRun{1, 10, 5}};
  HopperModel m = roundModel();
  m.sms = 2;
  Schedule s = schedule(0, 1, 0);
  // 5 CTAs of 2500 cycles on 2 SMs: one CTA per SM at a time when the
  // shared memory allows only one (150000 bytes of 228 KiB).
  ScheduleReport r = checkSchedule(k.graph, s);
  SimOptions o;
  o.dynamicSmemBytes = 150000;
  Prediction one = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(one.ok);
  EXPECT_EQ(one.ctasPerSM, 1);
  EXPECT_EQ(one.occupancyLimit, "shared memory");
  // 255 registers x 128 threads: two fit in the register file (8192 per warp).
  SimOptions regs;
  regs.registersPerThread = 255;
  Prediction two = predict(k.graph, s, r, k.costs, m, regs);
  ASSERT_TRUE(two.ok);
  EXPECT_EQ(two.ctasPerSM, 2);
  EXPECT_EQ(two.occupancyLimit, "registers");
  EXPECT_NEAR(one.totalNs, 3 * 2500, 1e-6);
  EXPECT_NEAR(one.waves, 2.5, 1e-9);
  EXPECT_NEAR(one.flops, 5 * 10 * 2.0 * 64 * 64 * 16, 1e-3);
  // Different trip counts are placed in launch order on the free SM.
  k.costs.ctas = {CtaRun{1, 20, 1}, CtaRun{1, 10, 2}};
  Prediction mixed = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(mixed.ok);
  EXPECT_EQ(mixed.shownTrip, 20);
  EXPECT_NEAR(mixed.totalNs, 5000, 1e-6); // SM 0: 20 iterations; SM 1: 10 + 10

  // The launch's set-up is paid once per slot: with 500 cycles of it, a CTA
  // takes 3000 in the first wave and 2500 in the slot another one left.
  m.ctaOverheadCycles = 500;
  k.costs.ctas = {CtaRun{1, 10, 5}};
  Prediction setup = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(setup.ok);
  EXPECT_NEAR(setup.totalNs, 3000 + 2 * 2500, 1e-6);
  k.costs.ctas = {CtaRun{1, 20, 1}, CtaRun{1, 10, 2}};
  Prediction mixedSetup = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(mixedSetup.ok);
  EXPECT_NEAR(mixedSetup.totalNs, 5500, 1e-6); // SM 0: 500 + 5000; SM 1: 500 + 2500 + 2500

  // Millions of CTAs (as causal attention at a size a user may type): a
  // part of each run is scheduled and the rest's work spreads over the
  // slots. 3M CTAs of 10 iterations and 3M of 20, alternating in runs of 30
  // or in two runs, on 2 slots whose first CTAs pay the set-up: (3M x 2500
  // + 3M x 5000) / 2 + 500, within one CTA (the last round's imbalance).
  double work = 3e6 * 7500 / 2 + 500;
  k.costs.ctas.clear();
  for (int i = 0; i < 100000; ++i) {
    k.costs.ctas.push_back(CtaRun{1, 10, 30});
    k.costs.ctas.push_back(CtaRun{1, 20, 30});
  }
  Prediction alternating = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(alternating.ok);
  EXPECT_NEAR(alternating.totalNs, work, 5000);
  k.costs.ctas = {CtaRun{1, 10, 3000000}, CtaRun{1, 20, 3000000}};
  Prediction merged = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(merged.ok);
  EXPECT_NEAR(merged.totalNs, work, 5000);
}

TEST(TimelineSim, SmsWithoutCtasLeaveTheirL2ShareToTheOthers) {
  // Two SMs, one byte per cycle each when both stream, up to two for one
  // alone. An unpipelined loop: load 100 bytes, 100 cycles of latency, a
  // 50-cycle dot. One CTA has the L2 to itself: 50 + 100 + 50 = 200 per
  // iteration, not 250.
  LoadDot k(10);
  k.costs.ctas = {CtaRun{1, 10, 1}};
  HopperModel m = roundModel();
  m.sms = 2;
  m.loadBytesPerCycleMax = 2.0;
  Prediction alone = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(alone.ok) << alone.error;
  EXPECT_NEAR(alone.iterationNs, 200, 1e-6);
  EXPECT_NEAR(alone.totalNs, 10 * 200, 1e-6);
  // Three CTAs of one per SM: the first round shares the L2 between both
  // SMs (250 an iteration), the last CTA streams alone (200): 2500 + 2000.
  k.costs.ctas = {CtaRun{1, 10, 3}};
  SimOptions o;
  o.dynamicSmemBytes = 150000; // one CTA per SM
  ScheduleReport r = checkSchedule(k.graph, schedule(0, 1, 0));
  Prediction three = predict(k.graph, schedule(0, 1, 0), r, k.costs, m, o);
  ASSERT_TRUE(three.ok) << three.error;
  EXPECT_NEAR(three.totalNs, 10 * 250 + 10 * 200, 1e-6);
  // Four CTAs fill both rounds: no faster last round.
  k.costs.ctas = {CtaRun{1, 10, 4}};
  Prediction four = predict(k.graph, schedule(0, 1, 0), r, k.costs, m, o);
  ASSERT_TRUE(four.ok) << four.error;
  EXPECT_NEAR(four.totalNs, 2 * 10 * 250, 1e-6);
}

TEST(TimelineSim, LaterRoundsOfALaunchTheL2HoldsLoadHits) {
  // The loop above (load 100 bytes, 100 cycles of latency, a 50-cycle dot)
  // on two SMs of one CTA each, one byte per cycle each when both stream,
  // two for one alone. The launch loads 1000 distinct bytes; the L2 holds
  // 2000. Its later rounds stream at twice the rate (L2 hits at 2 bytes a
  // cycle against 1), and a last round streaming alone also lands its
  // boxes after the hit latency (40 cycles).
  LoadDot k(10);
  k.costs.dramBytes = 1000;
  HopperModel m = roundModel();
  m.sms = 2;
  m.loadBytesPerCycleMax = 2.0;
  m.l2Bytes = 2000;
  m.l2HitLoadBytesPerCycle = 2.0;
  m.l2HitLatencyCycles = 40;
  SimOptions o;
  o.dynamicSmemBytes = 150000; // one CTA per SM
  ScheduleReport r = checkSchedule(k.graph, schedule(0, 1, 0));
  auto launch = [&](int64_t ctas, const HopperModel &model) {
    k.costs.ctas = {CtaRun{1, 10, ctas}};
    Prediction p = predict(k.graph, schedule(0, 1, 0), r, k.costs, model, o);
    EXPECT_TRUE(p.ok) << p.error;
    return p;
  };
  // Two full rounds: 10 x 250 from DRAM, then 10 x (50 + 100 + 50) hits.
  Prediction four = launch(4, m);
  EXPECT_NEAR(four.totalNs, 10 * 250 + 10 * 200, 1e-6);
  bool said = false;
  for (const std::string &n : four.notes)
    said |= n.find("the L2 holds the loaded tensors") != std::string::npos;
  EXPECT_TRUE(said);
  // A last CTA alone: 4 bytes a cycle (its 2 alone, at the hits' ratio)
  // and the hit latency: 10 x (25 + 40 + 50).
  EXPECT_NEAR(launch(3, m).totalNs, 10 * 250 + 10 * 115, 1e-6);
  // Operands larger than the L2: every round loads as the first (the last
  // CTA alone at 2 bytes a cycle, the latency as before).
  HopperModel small = m;
  small.l2Bytes = 500;
  EXPECT_NEAR(launch(4, small).totalNs, 2 * 10 * 250, 1e-6);
  EXPECT_NEAR(launch(3, small).totalNs, 10 * 250 + 10 * 200, 1e-6);
  // One round: nothing to hit yet.
  EXPECT_NEAR(launch(2, m).totalNs, 10 * 250, 1e-6);
}

TEST(TimelineSim, TheDramTrafficCountsAPersistentCtasFirstTileAndNeverExceedsTheHbm) {
  // Two SMs, one persistent CTA each, four tiles of ten iterations a CTA;
  // every 100-byte box misses in the first round (each CTA loads its own),
  // the L2 holds the launch's 1000 distinct bytes. Only
  // each CTA's first tile reads DRAM: 2 of 8 tiles' 8000 bytes (2000), not
  // all of them as when the CTAs alone counted as rounds.
  LoadDot k(10);
  k.costs.dramBytes = 1000;
  k.costs.ctas = {CtaRun{4, 10, 2}};
  k.costs.units[0].footprints = {LoadFootprint{100, {7, 8}}}; // each CTA its own box
  HopperModel m = roundModel();
  m.sms = 2;
  m.l2Bytes = 1 << 20;
  m.l2HitLoadBytesPerCycle = 1.0; // hits as fast as misses: only the count changes
  SimOptions o;
  o.dynamicSmemBytes = 150000; // one CTA per SM
  ScheduleReport r = checkSchedule(k.graph, schedule(0, 1, 0));
  Prediction p = predict(k.graph, schedule(0, 1, 0), r, k.costs, m, o);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NEAR(p.dramTBps, 2000 / p.totalNs / 1e3, 1e-12);
  // At most the HBM's rate, and the launch at least its distinct bytes at it.
  m.hbmBytesPerSecond = 1e6; // 1 byte a microsecond
  Prediction slow = predict(k.graph, schedule(0, 1, 0), r, k.costs, m, o);
  ASSERT_TRUE(slow.ok) << slow.error;
  EXPECT_LE(slow.dramTBps, 1e-6 * (1 + 1e-12));
  EXPECT_GE(slow.totalNs, 1000 / 1e6 * 1e9);
}

TEST(TimelineSim, PartFullSmsTakeTheL2ShareOfTheirCtas) {
  // Two SMs of two CTA slots, one byte per cycle per SM when all four slots
  // stream, at most two per SM. Three CTAs: the SM with two has 2 * 2/3 of
  // the GPU's two bytes per cycle, the other 2/3 (worked out by hand).
  HopperModel m = roundModel();
  m.sms = 2;
  m.loadBytesPerCycleMax = 2.0;
  EXPECT_NEAR(m.loadShare(3, 2), 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(m.loadShare(4, 2), 1.0, 1e-12); // every slot streams
  EXPECT_NEAR(m.loadShare(1, 1), 2.0, 1e-12); // one SM alone: its limit
  EXPECT_NEAR(m.loadShare(2, 1), 1.0, 1e-12);
  // The launch: three CTAs of two per SM finish sooner than if the SM
  // holding two had only its full-GPU share.
  LoadDot k(10);
  k.costs.ctas = {CtaRun{1, 10, 3}};
  SimOptions o;
  o.registersPerThread = 255; // two CTAs per SM (128 threads)
  ScheduleReport r = checkSchedule(k.graph, schedule(0, 1, 0));
  Prediction shared = predict(k.graph, schedule(0, 1, 0), r, k.costs, m, o);
  ASSERT_TRUE(shared.ok) << shared.error;
  EXPECT_EQ(shared.ctasPerSM, 2);
  HopperModel flat = m;
  flat.loadBytesPerCycleMax = 1.0;
  Prediction full = predict(k.graph, schedule(0, 1, 0), r, k.costs, flat, o);
  ASSERT_TRUE(full.ok) << full.error;
  EXPECT_LT(shared.totalNs, full.totalNs);
}

TEST(TimelineSim, IssuingAGroupWaitsForTheTensorCoresToTakeIt) {
  // One warp group, unpipelined, a dot of four wgmma (K = 64: 4 x 50
  // cycles). The load is ready at 200 (100 streaming + 100 latency); the
  // dot runs 200-400 and its wait 0 frees the buffer: 400 per iteration
  // either way. With a queue of one instruction the issue returns when the
  // last instruction starts (350), so the dot's zone (from the unit's start,
  // its data wait included) ends there, not at 200.
  LoadDot k(6);
  k.graph.units[1].flops = 2 * 64 * 64 * 64;
  k.costs.units[1].dots[0].k = 64;
  HopperModel m = roundModel();
  auto dotZone = [&](const Prediction &p) {
    for (const Zone &z : p.timeline.zones)
      if (z.unit == 1 && z.iteration == 3 && p.timeline.rows[z.row].kind == RowKind::Consumer)
        return z;
    return Zone{};
  };
  Prediction free = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(free.ok) << free.error;
  EXPECT_NEAR(free.iterationNs, 400, 1e-6);
  m.wgmmaIssueQueue = 1;
  Prediction queued = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(queued.ok) << queued.error;
  EXPECT_NEAR(queued.iterationNs, 400, 1e-6);
  Zone a = dotZone(free), b = dotZone(queued);
  EXPECT_NEAR(a.end - a.start, 200, 1e-6);
  EXPECT_NEAR(b.end - b.start, 350, 1e-6);
  // Sixteen instructions (K = 256, 800 cycles): the issue waits 750 of the
  // 1000 per iteration, longer than the data (200), and the bound says so.
  k.graph.units[1].flops = 2 * 64 * 64 * 256;
  k.costs.units[1].dots[0].k = 256;
  Prediction longer = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(longer.ok) << longer.error;
  EXPECT_NEAR(longer.iterationNs, 1000, 1e-6);
  EXPECT_EQ(longer.bound, "latency");
  EXPECT_NE(longer.boundDetail.find("the tensor cores to take MMA"), std::string::npos)
      << longer.boundDetail;
}

TEST(TimelineSim, ZonesFollowTheBodyAndTheTraceHasThem) {
  LoadDot k(6);
  Prediction p = k.run(schedule(0, 0, 1));
  ASSERT_TRUE(p.ok);
  // Every unit of every iteration has a zone on its warp group's row.
  int n = 0;
  for (const Zone &z : p.timeline.zones)
    if (p.timeline.rows[z.row].kind == RowKind::Consumer ||
        p.timeline.rows[z.row].kind == RowKind::Producer)
      ++n;
  EXPECT_EQ(n, 6 * 2 + 1); // and the consumer's epilogue
  trace::Document doc = predictedTrace(p, "k", roundModel());
  EXPECT_EQ(doc.events.size(), p.timeline.zones.size());
  EXPECT_EQ(doc.processes.size(), 1u);
  EXPECT_EQ(doc.threads.size(), p.timeline.rows.size());
  EXPECT_EQ(doc.threads[0].name, "producer");
  EXPECT_EQ(doc.threads[1].name, "consumer 0");
  // No sizes known: the trace says none.
  for (const trace::Arg &a : doc.otherData)
    EXPECT_NE(a.key, "problem");
  // The sizes it was predicted at, as the measured trace's "problem".
  k.costs.sizes = {{"M", 128}, {"K", 4096}};
  Prediction sized = k.run(schedule(0, 0, 1));
  ASSERT_TRUE(sized.ok);
  trace::Document withSizes = predictedTrace(sized, "k", roundModel());
  auto problem = std::find_if(withSizes.otherData.begin(), withSizes.otherData.end(),
                              [](const trace::Arg &a) { return a.key == "problem"; });
  ASSERT_NE(problem, withSizes.otherData.end());
  EXPECT_TRUE(problem->isJson);
  EXPECT_EQ(problem->text, R"({"M": 128, "K": 4096})");
}

/// roundModel with round epilogue rates: 100 cycles a panel besides its
/// staging at 100 bytes a cycle, its store reading it at 1 byte a cycle.
HopperModel epilogueModel() {
  HopperModel m = roundModel();
  m.epiloguePanelCycles = 100;
  m.stagingBytesPerCycle = 100;
  m.storeBytesPerCycle = 1;
  return m;
}

TEST(TimelineSim, TheEpilogueIsAZoneAfterTheLoop) {
  // Unpipelined, 250 cycles an iteration (UnpipelinedLoopIsTheSumOfItsParts):
  // the last dot retires at 2500. Three stored panels of 300 bytes, each
  // 100 cycles of barriers and fence plus 3 of staging (100 bytes a cycle),
  // its store reading it at 1 byte a cycle, two staging slots:
  //   panel 0 issued at 2603, read 2603-2903;
  //   panel 1 issued at 2706, read 2903-3203 (after panel 0's);
  //   panel 2 waits for panel 0's slot (2903), issued at 3006, read 3203-3503.
  // The consumer's epilogue zone: 2500-3006 ns (1 GHz), the unit after the
  // loop's at iteration trip; the stores on the TMA row; the CTA ends when
  // the last store has read its panel (3503).
  LoadDot k(10);
  k.costs.epilogueStoreBytes = 900;
  k.costs.epiloguePanelBytes = {300, 300, 300};
  HopperModel m = epilogueModel();
  Prediction p = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(p.ok) << p.error;
  ASSERT_EQ(p.timeline.units.size(), 3u);
  EXPECT_EQ(p.timeline.units[2].name, "epilogue");
  EXPECT_EQ(p.timeline.units[2].kind, ZoneKind::Epilogue);
  std::vector<Zone> consumer, stores;
  for (const Zone &z : p.timeline.zones)
    if (z.unit == 2)
      (p.timeline.rows[z.row].kind == RowKind::Consumer ? consumer : stores).push_back(z);
  ASSERT_EQ(consumer.size(), 1u);
  EXPECT_EQ(consumer[0].iteration, 10);
  EXPECT_NEAR(consumer[0].start, 2500, 1e-6);
  EXPECT_NEAR(consumer[0].end, 3006, 1e-6);
  ASSERT_EQ(stores.size(), 3u);
  EXPECT_EQ(p.timeline.rows[stores[0].row].kind, RowKind::LoadPipe);
  EXPECT_NEAR(stores[0].start, 2603, 1e-6);
  EXPECT_NEAR(stores[1].start, 2903, 1e-6);
  EXPECT_NEAR(stores[2].start, 3203, 1e-6);
  EXPECT_NEAR(stores[2].end, 3503, 1e-6);
  EXPECT_NEAR(p.ctaNs, 3503, 1e-6);
  trace::Document doc = predictedTrace(p, "k", m);
  auto e = std::find_if(doc.events.begin(), doc.events.end(),
                        [](const trace::Event &x) { return x.name == "epilogue"; });
  ASSERT_NE(e, doc.events.end());
  EXPECT_EQ(e->category, "epilogue");

  // Two consumers stage every panel together: both zones end at the last
  // panel's issue, each from its own last wgmma.
  LoadDot two(10, 2);
  two.costs.epilogueStoreBytes = 900;
  two.costs.epiloguePanelBytes = {300, 300, 300};
  Prediction q = two.run(schedule(0, 0, 1), m);
  ASSERT_TRUE(q.ok) << q.error;
  std::vector<Zone> ends;
  for (const Zone &z : q.timeline.zones)
    if (z.unit == 2 && q.timeline.rows[z.row].kind == RowKind::Consumer)
      ends.push_back(z);
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_NEAR(ends[0].end, ends[1].end, 1e-6);

  // A loop simulated in part (8 of 10 iterations) is drawn as its first 4
  // and last 4 iterations: the epilogue after the last (iteration 10), where
  // the CTA ends, not after the 8th.
  SimOptions part;
  part.maxSimulatedIterations = 8;
  ScheduleReport r = checkSchedule(k.graph, schedule(0, 1, 0));
  Prediction cut = predict(k.graph, schedule(0, 1, 0), r, k.costs, m, part);
  ASSERT_TRUE(cut.ok) << cut.error;
  int epilogues = 0;
  std::set<int32_t> drawn;
  for (const Zone &z : cut.timeline.zones) {
    if (z.unit == 2) {
      ++epilogues;
      EXPECT_EQ(z.iteration, 10);
      EXPECT_LE(z.end, cut.ctaNs + 1e-6);
    } else {
      drawn.insert(z.iteration);
    }
  }
  EXPECT_GT(epilogues, 0);
  EXPECT_EQ(drawn, (std::set<int32_t>{0, 1, 2, 3, 6, 7, 8, 9}));

  // A loop unit named "epilogue" keeps its name; the code after the loop
  // gets another.
  k.graph.units[0].name = "epilogue";
  k.costs.units[0].name = "epilogue";
  Schedule renamed;
  renamed.set("epilogue", {0, 0, 1, 0});
  renamed.set("MMA", {0, 1, 1, 0});
  Prediction named = k.run(renamed);
  ASSERT_TRUE(named.ok) << named.error;
  EXPECT_EQ(named.timeline.units[2].name, "epilogue (after the loop)");
}

TEST(TimelineSim, ATileOnlyTheEpilogueReadsIsLoadedAfterTheLoop) {
  // TheEpilogueIsAZoneAfterTheLoop with a 200-byte residual the lowering
  // loads after the loop (where kept through it, it would not fit): at 1
  // byte a cycle from the last dot's retirement (2500) to 2700, landed 100
  // cycles later; the panels then start at 2800 instead of 2500, and
  // everything after them moves by 300: the epilogue zone ends at 3306, the
  // last store at 3803.
  LoadDot k(10);
  k.costs.epilogueStoreBytes = 900;
  k.costs.epiloguePanelBytes = {300, 300, 300};
  k.costs.epilogueLoadBytes = 200;
  HopperModel m = epilogueModel();
  ScheduleReport r = checkSchedule(k.graph, schedule(0, 1, 0));
  r.epilogueLoadsAfterLoop = true;
  Prediction p = predict(k.graph, schedule(0, 1, 0), r, k.costs, m);
  ASSERT_TRUE(p.ok) << p.error;
  std::vector<Zone> consumer;
  for (const Zone &z : p.timeline.zones)
    if (z.unit == 2 && p.timeline.rows[z.row].kind == RowKind::Consumer)
      consumer.push_back(z);
  ASSERT_EQ(consumer.size(), 1u);
  EXPECT_NEAR(consumer[0].start, 2500, 1e-6);
  EXPECT_NEAR(consumer[0].end, 3306, 1e-6);
  EXPECT_NEAR(p.ctaNs, 3803, 1e-6);
}

/// The epilogue of TheEpilogueIsAZoneAfterTheLoop with three 300-byte
/// panels and 600 FMA lane-operations of math (1 a cycle).
static LoadDot panelledEpilogue(HopperModel &m) {
  LoadDot k(10);
  k.costs.epilogueStoreBytes = 900;
  k.costs.epiloguePanelBytes = {300, 300, 300};
  k.costs.epilogueMath.fma = 600;
  m = epilogueModel();
  m.pipeEfficiency = 1.0;
  return k;
}

TEST(TimelineSim, TheEpiloguesMathIsConvertedPanelByPanelWhileStaged) {
  // The epilogue of TheEpilogueIsAZoneAfterTheLoop with 600 cycles of math
  // (600 FMA at 1 a cycle): each panel's third of it (200 cycles) overlaps
  // the panel's staging (3 cycles), not the whole math before the first
  // panel (which would issue the panels at 3203, 3306, 3409):
  //   panel 0 issued at 2500 + 100 + 200 = 2800, read 2800-3100;
  //   panel 1 issued at 3100, read 3100-3400;
  //   panel 2 waits for panel 0's slot (3100), issued at 3400, read 3400-3700.
  HopperModel m;
  LoadDot k = panelledEpilogue(m);
  Prediction p = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(p.ok) << p.error;
  std::vector<Zone> consumer, stores;
  for (const Zone &z : p.timeline.zones)
    if (z.unit == 2)
      (p.timeline.rows[z.row].kind == RowKind::Consumer ? consumer : stores).push_back(z);
  ASSERT_EQ(consumer.size(), 1u);
  EXPECT_NEAR(consumer[0].start, 2500, 1e-6);
  EXPECT_NEAR(consumer[0].end, 3400, 1e-6);
  ASSERT_EQ(stores.size(), 3u);
  EXPECT_NEAR(stores[0].start, 2800, 1e-6);
  EXPECT_NEAR(stores[1].start, 3100, 1e-6);
  EXPECT_NEAR(stores[2].start, 3400, 1e-6);
  EXPECT_NEAR(p.ctaNs, 3700, 1e-6);

  // A panel whose staging takes longer than its math: the staging bounds it
  // (300 bytes at 1 byte a cycle against 200 cycles of math).
  m.stagingBytesPerCycle = 1;
  Prediction s = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(s.ok) << s.error;
  for (const Zone &z : s.timeline.zones)
    if (z.unit == 2 && s.timeline.rows[z.row].kind == RowKind::Consumer)
      EXPECT_NEAR(z.end, 2500 + 400 + 400 + 400, 1e-6); // each panel 100 + 300
}

TEST(TimelineSim, AnEpilogueLongerThanTheInstructionCacheIsFetchBound) {
  // TheEpiloguesMathIsConvertedPanelByPanelWhileStaged's epilogue (600 FMA
  // lane-operations: 4.6875 instructions a thread) with an instruction cache
  // of 2 and 300 cycles an uncached instruction: 1406.25 cycles, not 600,
  // a third a panel (468.75) after its 100.
  HopperModel m;
  LoadDot k = panelledEpilogue(m);
  m.icacheInstructions = 2;
  m.uncachedCyclesPerInstruction = 300;
  Prediction p = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(p.ok) << p.error;
  for (const Zone &z : p.timeline.zones)
    if (z.unit == 2 && p.timeline.rows[z.row].kind == RowKind::Consumer)
      EXPECT_NEAR(z.end, 2500 + 3 * (100 + 468.75), 1e-6);
  // Within the cache (or with the floor off), the math's 600.
  m.icacheInstructions = 0;
  Prediction q = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(q.ok) << q.error;
  for (const Zone &z : q.timeline.zones)
    if (z.unit == 2 && q.timeline.rows[z.row].kind == RowKind::Consumer)
      EXPECT_NEAR(z.end, 3400, 1e-6);
}

TEST(TimelineSim, APersistentKernelsConsumersStoreEachTile) {
  // Three tiles of 4 iterations (a persistent CTA), one warp group issuing
  // its loads (250 cycles an iteration), one 300-byte panel per tile at the
  // rates of TheEpilogueIsAZoneAfterTheLoop: tile 0's loop ends at 1000,
  // its epilogue 1000-1103 (its store reads 1103-1403); tile 1 runs
  // 1103-2103, its epilogue 2103-2206 (its store after tile 0's: 2206-2506);
  // tile 2 2206-3206, its epilogue 3206-3309, its store 3309-3609: the CTA's end.
  LoadDot k(4);
  k.costs.ctas = {CtaRun{3, 4, 1}};
  k.costs.epilogueStoreBytes = 300;
  k.costs.epiloguePanelBytes = {300};
  HopperModel m = epilogueModel();
  Prediction p = k.run(schedule(0, 1, 0), m);
  ASSERT_TRUE(p.ok) << p.error;
  std::vector<Zone> epilogues;
  const Zone *firstOfTile1 = nullptr;
  for (const Zone &z : p.timeline.zones) {
    if (p.timeline.rows[z.row].kind != RowKind::Consumer)
      continue;
    if (z.unit == 2)
      epilogues.push_back(z);
    if (z.unit == 0 && z.iteration == 4)
      firstOfTile1 = &z;
  }
  ASSERT_EQ(epilogues.size(), 3u);
  const double start[] = {1000, 2103, 3206};
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(epilogues[t].iteration, 4 * (t + 1));
    EXPECT_NEAR(epilogues[t].start, start[t], 1e-6) << "tile " << t;
    EXPECT_NEAR(epilogues[t].end, start[t] + 103, 1e-6) << "tile " << t;
  }
  // The next tile's first load waits for the epilogue (the same warp group).
  ASSERT_NE(firstOfTile1, nullptr);
  EXPECT_NEAR(firstOfTile1->start, 1103, 1e-6);
  EXPECT_NEAR(p.ctaNs, 3609, 1e-6);
}

TEST(TimelineSim, PingPongTeamsTakeWholeTilesInTurns) {
  // A persistent CTA of three tiles of 4 iterations, a producer whose loads
  // land at once (1 cycle each), two ping-pong consumer teams: each team
  // computes a tile whole (the 64-row dot, 50 cycles, not half of it),
  // waits for each dot (wait 0), and hands its turn at the tensor cores to
  // the other team once its tile's last dot has retired:
  //   team 0, tile 0: dots 1-201; its epilogue 201-304 (one 300-byte panel,
  //     100 + 3 cycles), its store reading 304-604;
  //   team 1, tile 1: dots 201-401 (its turn at 201), epilogue 401-504,
  //     its store after tile 0's: 604-904;
  //   team 0, tile 2: dots 401-601, its epilogue waits for its own last
  //     store to have read its staging (604): 604-707, store 904-1204.
  // The CTA ends when team 0's last store has read its panel (1204).
  LoadDot k(4, /*consumerWarpGroups=*/2, /*dotRows=*/64);
  k.graph.persistent = true;
  k.costs.ctas = {CtaRun{3, 4, 1}};
  k.costs.epilogueStoreBytes = 300;
  k.costs.epiloguePanelBytes = {300};
  HopperModel m = epilogueModel();
  m.loadLatencyCycles = 0;
  m.loadBytesPerCycle = m.loadBytesPerCycleMax = 100.0;
  Schedule s = schedule(0, 0, 1, 0);
  s.consumers = Consumers::PingPong;
  Prediction p = k.run(s, m);
  ASSERT_TRUE(p.ok) << p.error;
  std::map<std::string, std::vector<Zone>> epilogues, dots;
  for (const Zone &z : p.timeline.zones) {
    const TimelineRow &row = p.timeline.rows[z.row];
    if (row.kind != RowKind::Consumer)
      continue;
    (z.unit == 2 ? epilogues : dots)[row.name].push_back(z);
  }
  ASSERT_EQ(epilogues["consumer 0"].size(), 2u);
  ASSERT_EQ(epilogues["consumer 1"].size(), 1u);
  // Each team's dots: its own tiles' iterations, the whole dot each.
  ASSERT_EQ(dots["consumer 0"].size(), 8u);
  ASSERT_EQ(dots["consumer 1"].size(), 4u);
  for (const Zone &z : dots["consumer 1"])
    EXPECT_TRUE(z.iteration >= 4 && z.iteration < 8) << z.iteration;
  EXPECT_NEAR(dots["consumer 0"][0].start, 0, 1e-6); // a unit's zone starts before its waits
  EXPECT_NEAR(dots["consumer 0"][0].end, 1, 1e-6);   // issued when its load landed
  EXPECT_NEAR(dots["consumer 1"][0].start, 201, 1e-6); // its turn
  EXPECT_NEAR(dots["consumer 0"][4].start, 401, 1e-6); // tile 2, its turn again
  EXPECT_EQ(dots["consumer 0"][4].iteration, 8);
  const Zone &e0 = epilogues["consumer 0"][0], &e1 = epilogues["consumer 1"][0],
             &e2 = epilogues["consumer 0"][1];
  EXPECT_EQ(e0.iteration, 4);
  EXPECT_EQ(e1.iteration, 8);
  EXPECT_EQ(e2.iteration, 12);
  EXPECT_NEAR(e0.start, 201, 1e-6);
  EXPECT_NEAR(e0.end, 304, 1e-6);
  EXPECT_NEAR(e1.start, 401, 1e-6);
  EXPECT_NEAR(e1.end, 504, 1e-6);
  EXPECT_NEAR(e2.start, 601, 1e-6);
  EXPECT_NEAR(e2.end, 707, 1e-6);
  EXPECT_NEAR(p.ctaNs, 1204, 1e-6);

  // A CTA with one tile: team 1 has none and stays idle.
  k.costs.ctas = {CtaRun{1, 4, 1}};
  Prediction one = k.run(s, m);
  ASSERT_TRUE(one.ok) << one.error;
  for (const Zone &z : one.timeline.zones)
    EXPECT_NE(one.timeline.rows[z.row].name, "consumer 1") << z.unit << " at " << z.start;
  EXPECT_NEAR(one.ctaNs, 604, 1e-6);
}

/// LoadDot with two register-math units in the consumer: Make defines a
/// value of `bytes` that Read reads (no other work in either).
LoadDot withCarriedValue(int64_t bytes) {
  LoadDot k(40);
  k.graph.units.push_back(Unit{"Make", UnitKind::Compute, {2}, 0, 0, 0, -1, "", ""});
  k.graph.units.push_back(Unit{"Read", UnitKind::Compute, {3}, 0, 0, 0, -1, "", ""});
  k.graph.ops.push_back(LoopOp{2, "arith.addf", ""});
  k.graph.ops.push_back(LoopOp{3, "arith.mulf", ""});
  k.graph.edges.push_back(Edge{2, 3, 2, 3, false, false, "its value"});
  k.graph.values.push_back(LoopValue{2, bytes, 0, {ValueUse{3, false}}});
  k.graph.initialSchedule.set("Make", {1, 3, 1, 0});
  k.graph.initialSchedule.set("Read", {1, 4, 1, 0});
  UnitWork make, read;
  make.name = "Make";
  read.name = "Read";
  k.costs.units.push_back(make);
  k.costs.units.push_back(read);
  return k;
}

TEST(TimelineSim, ValuesLivingLongerThanABodyAreMovedEachIteration) {
  // 800 bytes: 200 32-bit lanes, 200 cycles on the FMA pipe at one a cycle.
  HopperModel m = roundModel();
  m.pipeEfficiency = 1.0;
  LoadDot k = withCarriedValue(800);
  // The TMA-bound loop (100 cycles an iteration) with Make and Read placed.
  auto run = [&](OpSchedule make, OpSchedule read) {
    Schedule s = schedule(0, 0, 2);
    s.set("Make", make);
    s.set("Read", read);
    Prediction p = k.run(s, m);
    EXPECT_TRUE(p.ok) << p.error;
    return p;
  };
  // In one stage: nothing carried.
  EXPECT_NEAR(run({2, 2, 1, 0}, {2, 3, 1, 0}).iterationNs, 100, 1e-6);
  // Read one stage later, before Make in the body (as Triton's MMA1(i-1)
  // reads P before Softmax(i) makes the next one): one set of registers.
  EXPECT_NEAR(run({2, 2, 1, 0}, {3, 1, 1, 0}).iterationNs, 100, 1e-6);
  // Read one stage later, after Make in the body (as Softmax(i) reads S
  // after MMA0(i+1) made the next): two sets, one moved each iteration.
  Prediction moved = run({2, 1, 1, 0}, {3, 2, 1, 0});
  EXPECT_NEAR(moved.iterationNs, 250, 1e-6); // the dot (50) and the moves (200)
  ASSERT_EQ(moved.utilization.size(), 3u);
  EXPECT_NEAR(moved.utilization[2].busy, 0.8, 1e-6) << moved.utilization[2].name; // 200 of 250
}

TEST(TimelineSim, TheLoopsOwnInstructionsAreChargedOnceAnIterationPerWarpGroup) {
  // Two units of 200 FMA-pipe lanes each (200 cycles at one a cycle), in
  // the dot's stage, the dot's wgmma under them: 400 an iteration, over the
  // loads' 100.
  HopperModel m = roundModel();
  m.pipeEfficiency = 1.0;
  m.loneMathRate = 1.0;
  LoadDot k = withCarriedValue(4);
  k.costs.units[2].math.fma = 200;
  k.costs.units[3].math.fma = 200;
  Schedule s = schedule(0, 0, 2);
  s.set("Make", {2, 2, 1, 0});
  s.set("Read", {2, 3, 1, 0});
  Prediction plain = k.run(s, m);
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_NEAR(plain.iterationNs, 400, 1e-6);
  // 500 more instructions a thread an iteration take 500 issue cycles of
  // the first unit with math. The two units follow each other with nothing
  // to wait for between them: one instruction stream, whose issue slots
  // (500 + 400 / 128) now bound it over its pipe's 400. The second unit is
  // not charged again (that would be 1000 + 400 / 128).
  m.mathIterationInstructions = 500;
  Prediction charged = k.run(s, m);
  ASSERT_TRUE(charged.ok) << charged.error;
  EXPECT_NEAR(charged.iterationNs, 500 + 400.0 / 128, 1e-6);
  // A warp group with no register math issues nothing the model charges.
  k.costs.units[2].math.fma = 0;
  k.costs.units[3].math.fma = 0;
  Prediction none = k.run(s, m);
  ASSERT_TRUE(none.ok) << none.error;
  EXPECT_NEAR(none.iterationNs, 100, 1e-6);
}

TEST(TimelineSim, MismatchedCostsAreRefusedNotCrashed) {
  LoadDot k(4);
  k.costs.units.pop_back();
  Prediction p = k.run(schedule(0, 1, 0));
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.error.find("the unit costs list 1 units, the loop has 2"), std::string::npos) << p.error;
  LoadDot z(4);
  z.costs.ctas.clear();
  EXPECT_FALSE(z.run(schedule(0, 1, 0)).ok);
}

TEST(TimelineCostModel, ParametersFromJson) {
  HopperModel m;
  EXPECT_FALSE(static_cast<bool>(m.applyJson(R"({"clock_ghz": 1.5, "math_efficiency": 0.5})", "p.json")));
  EXPECT_EQ(m.clockGHz, 1.5);
  EXPECT_EQ(m.mathEfficiency, 0.5);
  llvm::Error e = m.applyJson(R"({"clock": 1.5})", "p.json");
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("p.json: unknown model parameter \"clock\""),
            std::string::npos);
  e = m.applyJson(R"({"clock_ghz": -1})", "p.json");
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("must be a non-negative number"), std::string::npos);
  // The calibrated values in the code are the ones bench/timeline/calibrate.py wrote.
  HopperModel fresh, fromFile;
  std::string text;
  {
    FILE *f = std::fopen(STAGECRAFT_SOURCE_DIR "/bench/timeline/params.json", "r");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      text.append(buf, n);
    std::fclose(f);
  }
  ASSERT_FALSE(static_cast<bool>(fromFile.applyJson(text, "params.json")));
  EXPECT_EQ(fresh.toJson(), fromFile.toJson());
  // toJson reads back exactly (calibrate.py starts its fit from it): every
  // digit, not two decimals (0.4529 once printed as 0.45).
  HopperModel odd, back;
  odd.tensorMathInterference = 0.4529;
  odd.loadBytesPerCycle = 41.26973629996411;
  ASSERT_FALSE(static_cast<bool>(back.applyJson(odd.toJson(), "printed")));
  EXPECT_EQ(back.tensorMathInterference, 0.4529);
  EXPECT_EQ(back.loadBytesPerCycle, 41.26973629996411);
  EXPECT_EQ(back.toJson(), odd.toJson());
}

TEST(TimelineCostModel, DotAndMathCosts) {
  HopperModel m;
  m.tensorEfficiency = 1.0;
  m.wgmmaMinCycles = 16;
  // 128x256x64 bf16 on two warp groups: 64 rows each, 4 wgmma m64n256k16.
  DotWork d{128, 256, 64, "bf16", false};
  EXPECT_EQ(m.wgmmaInstructions(d, 0.5), 4);
  EXPECT_NEAR(m.dotCycles(d, 0.5), 2.0 * 64 * 256 * 64 / 4096, 1e-9);
  DotWork f8 = d;
  f8.inputType = "f8";
  EXPECT_NEAR(m.dotCycles(f8, 0.5), m.dotCycles(d, 0.5) / 2, 1e-9);
  // A tiny dot is held up by the per-instruction floor.
  DotWork tiny{64, 8, 16, "bf16", false};
  EXPECT_NEAR(m.dotCycles(tiny, 1.0), 16, 1e-9);
  // Register math: the busiest pipe, or the issue slots.
  m.mathEfficiency = 1.0;
  m.pipeEfficiency = 1.0;
  MathWork exp;
  exp.mufu = 1600;
  exp.fma = 1600;
  EXPECT_NEAR(m.mathCycles(exp), 100, 1e-9); // MUFU: 16 per cycle
  MathWork adds;
  adds.fma = 12800;
  EXPECT_NEAR(m.mathCycles(adds), 100, 1e-9); // FMA: 128 per cycle
}

TEST(TimelineCostModel, ALoneWarpGroupIssuesItsMathSlower) {
  HopperModel m;
  m.mathEfficiency = 0.5;
  m.pipeEfficiency = 0.8;
  m.loneMathRate = 0.8;
  // The softmax-like stream of the test below: 400 cycles shared, its pipe
  // and issue at 0.5 x 0.8 = 0.4 alone: 500.
  MathWork softmax;
  softmax.mufu = 3200;
  softmax.fma = 3200;
  softmax.shuffle = 320;
  EXPECT_NEAR(m.mathCycles(softmax), 400, 1e-9);
  HopperModel lone = m;
  lone.loneWarpGroup = true;
  EXPECT_NEAR(lone.mathCycles(softmax), 500, 1e-9);
  // Element-wise MUFU work its pipe bounds keeps the pipe's rate (250);
  // its issue slots, 50 cycles at 0.4, are still not the limit.
  MathWork sigmoid;
  sigmoid.mufu = 3200;
  sigmoid.fma = 3200;
  EXPECT_NEAR(lone.mathCycles(sigmoid), 250, 1e-9);
  // An issue-bound stream: 100 issue cycles at 0.4.
  MathWork adds;
  adds.fma = 12800;
  EXPECT_NEAR(lone.mathCycles(adds), 250, 1e-9);
  lone.loneMathRate = 1; // no difference
  EXPECT_NEAR(lone.mathCycles(softmax), 400, 1e-9);
}

TEST(TimelineSim, OneComputingWarpGroupAnSmRunsItsMathAlone) {
  // The same loop with one consumer warp group and with two; before each
  // dot, a reduction of 12800 FMA-pipe operations a warp group (with a
  // shuffle: its pipe at the issue's rate), 12800 cycles at one FMA lane a
  // cycle. A lone consumer, one CTA an SM, runs it at loneMathRate (0.5):
  // 12800 cycles longer an iteration.
  LoadDot one(10, 1), two(10, 2);
  for (LoadDot *k : {&one, &two}) {
    double share = k == &two ? 2 : 1;
    k->costs.units[1].math.fma = 12800.0 * share;
    k->costs.units[1].math.shuffle = share;
  }
  HopperModel m = roundModel();
  m.loneMathRate = 0.5;
  Prediction alone = one.run(schedule(0, 1, 0), m);
  HopperModel same = m;
  same.loneMathRate = 1;
  Prediction plain = one.run(schedule(0, 1, 0), same);
  ASSERT_TRUE(alone.ok && plain.ok) << alone.error << plain.error;
  EXPECT_NEAR(alone.iterationNs - plain.iterationNs, 12800, 1);
  // Two consumers: neither is alone, the rate does not apply.
  Prediction pair = two.run(schedule(0, 1, 0), m), pairPlain = two.run(schedule(0, 1, 0), same);
  ASSERT_TRUE(pair.ok && pairPlain.ok) << pair.error << pairPlain.error;
  EXPECT_NEAR(pair.iterationNs, pairPlain.iterationNs, 1e-6);
}

TEST(TimelineCostModel, ASaturatedPipeRunsAtThePipeEfficiencyUnlessTheStreamReduces) {
  HopperModel m;
  m.mathEfficiency = 0.5;
  m.pipeEfficiency = 0; // off
  // Element-wise MUFU work (a sigmoid: exp2 and rcp an element): 3200 MUFU
  // operations are 200 cycles at 16 a cycle; its issue slots, (3200 + 3200)
  // / 128 = 50 cycles, are not the limit.
  MathWork sigmoid;
  sigmoid.mufu = 3200;
  sigmoid.fma = 3200;
  EXPECT_NEAR(m.mathCycles(sigmoid), 400, 1e-9); // off: every bound at mathEfficiency
  m.pipeEfficiency = 0.8;
  EXPECT_NEAR(m.mathCycles(sigmoid), 250, 1e-9); // the pipe at 80% of its rate
  // The same work with a row reduction's shuffles: its element-wise steps
  // wait on the reduction, the pipe at mathEfficiency again.
  MathWork softmax = sigmoid;
  softmax.shuffle = 320;
  EXPECT_NEAR(m.mathCycles(softmax), 400, 1e-9);
  // An issue-bound stream stays at mathEfficiency: 12800 FMA operations are
  // 100 cycles of the FMA pipe and of the issue slots alike.
  MathWork adds;
  adds.fma = 12800;
  EXPECT_NEAR(m.mathCycles(adds), 200, 1e-9);
}

} // namespace

namespace {

TEST(TimelineSim, ChosenRegisterBudgetsSetTheLaunchCountAndOccupancy) {
  // A producer and one consumer warp group: 256 threads, up to 255
  // registers each at launch, so one CTA an SM by registers by default.
  LoadDot k(10);
  k.costs.ctas = {CtaRun{1, 10, 4}};
  HopperModel m = roundModel();
  Schedule s = schedule(0, 0, 1);
  SimOptions o;
  o.dynamicSmemBytes = 1024; // shared memory is not the limit here
  ScheduleReport r = checkSchedule(k.graph, s);
  ASSERT_TRUE(r.legal()) << r.violations.front().message;
  Prediction dflt = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(dflt.ok) << dflt.error;
  EXPECT_EQ(dflt.registersPerThread, 248); // the consumer's default share
  EXPECT_EQ(dflt.ctasPerSM, 1);
  EXPECT_EQ(dflt.occupancyLimit, "registers");
  // Budgets of 24 and 120: every warp starts at 120, two CTAs fit.
  s.registers = std::vector<int64_t>{24, 120};
  r = checkSchedule(k.graph, s);
  ASSERT_TRUE(r.legal()) << r.violations.front().message;
  EXPECT_EQ(r.launchRegisters, 120);
  Prediction small = predict(k.graph, s, r, k.costs, m, o);
  ASSERT_TRUE(small.ok) << small.error;
  EXPECT_EQ(small.registersPerThread, 120);
  EXPECT_EQ(small.ctasPerSM, 2);
}

} // namespace

TEST(TimelineSharedPipe, TensorCoresRunGroupsInIssueOrderCudaCoresShare) {
  // Tensor cores: owner 0's group (50 cycles) issued first runs 0-50, owner
  // 1's 50-100, owner 0's next (20, issued at 10) 100-120 whatever its queue.
  SharedPipe tensor(SharedPipe::Order::FirstIssued);
  uint64_t a = tensor.submit(0, 0, 50);
  uint64_t b = tensor.submit(0, 1, 50);
  uint64_t c = tensor.submit(10, 0, 20);
  std::map<uint64_t, std::pair<double, double>> spans;
  for (int step = 0; step < 3; ++step) {
    double t = tensor.nextCompletion();
    for (const SharedPipe::Done &d : tensor.complete(t))
      spans[d.id] = {d.start, d.end};
  }
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_NEAR(spans[a].first, 0, 1e-9);
  EXPECT_NEAR(spans[a].second, 50, 1e-9);
  EXPECT_NEAR(spans[b].first, 50, 1e-9);
  EXPECT_NEAR(spans[b].second, 100, 1e-9);
  EXPECT_NEAR(spans[c].first, 100, 1e-9);
  EXPECT_NEAR(spans[c].second, 120, 1e-9);
  // A group of no work starts and ends when it completes.
  uint64_t z = tensor.submit(130, 2, 0);
  std::vector<SharedPipe::Done> done = tensor.complete(130);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].id, z);
  EXPECT_NEAR(done[0].start, 130, 1e-9);
  // CUDA cores: two jobs of 50 issued together share the pipe, both end at 100.
  SharedPipe math;
  math.submit(0, 0, 50);
  math.submit(0, 1, 50);
  EXPECT_NEAR(math.nextCompletion(), 100, 1e-9);
  EXPECT_EQ(math.complete(100).size(), 2u);
}

TEST(TimelineSharedPipe, WorkAheadOfAGroupIsWhatWasIssuedBeforeIt) {
  // In issue order: owner 0's 50 (running since 0), owner 1's 30, owner 0's
  // 20. At 10, ahead of the last: 40 + 30; of owner 1's: 40; of the first: 0.
  SharedPipe tensor(SharedPipe::Order::FirstIssued);
  uint64_t a = tensor.submit(0, 0, 50);
  uint64_t b = tensor.submit(0, 1, 30);
  uint64_t c = tensor.submit(10, 0, 20);
  EXPECT_NEAR(tensor.workAhead(a), 0, 1e-9);
  EXPECT_NEAR(tensor.workAhead(b), 40, 1e-9);
  EXPECT_NEAR(tensor.workAhead(c), 70, 1e-9);
  // Shared in equal parts, only a warp group's own queue is ahead of it.
  SharedPipe math;
  math.submit(0, 0, 50);
  uint64_t other = math.submit(0, 1, 30);
  uint64_t mine = math.submit(0, 0, 20);
  EXPECT_NEAR(math.workAhead(other), 0, 1e-9);
  EXPECT_NEAR(math.workAhead(mine), 50, 1e-9);
}

