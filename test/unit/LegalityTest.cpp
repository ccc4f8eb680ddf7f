//===- LegalityTest.cpp - each legality rule, passing and failing ---------===//
#include "core/Schedule/Legality.h"

#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

/// A hand-built loop graph: one op per unit, edges by unit name.
struct GraphBuilder {
  LoopGraph g;
  unsigned unit(const std::string &name, UnitKind kind, int64_t bufferBytes = 0) {
    unsigned idx = g.units.size();
    Unit u;
    u.name = name;
    u.kind = kind;
    u.bufferBytes = bufferBytes;
    u.ops = {static_cast<unsigned>(g.ops.size())};
    u.location = "test.mlir:" + std::to_string(idx + 1) + ":3";
    g.ops.push_back({idx, kind == UnitKind::Load ? "tile.load" : "tile.dot", u.location});
    g.units.push_back(u);
    return idx;
  }
  void edge(unsigned d, unsigned u, bool carried = false) {
    g.edges.push_back({d, u, g.units[d].ops[0], g.units[u].ops[0], carried,
                       g.units[d].kind == UnitKind::Load, "the 128x64xbf16 tile"});
  }
  void value(unsigned d, int64_t bytes, std::vector<std::pair<unsigned, bool>> uses) {
    LoopValue v;
    v.defOp = g.units[d].ops[0];
    v.bytes = bytes;
    for (auto [u, carried] : uses)
      v.uses.push_back({g.units[u].ops[0], carried});
    g.values.push_back(v);
  }
};

Schedule sched(std::vector<std::pair<std::string, OpSchedule>> entries) {
  Schedule s;
  for (auto &[n, o] : entries)
    s.set(n, o);
  return s;
}

bool hasRule(const ScheduleReport &r, Rule rule) {
  for (const Violation &v : r.violations)
    if (v.rule == rule)
      return true;
  return false;
}

std::string messages(const ScheduleReport &r) {
  std::string s;
  for (const Violation &v : r.violations)
    s += v.message + "\n";
  return s;
}

/// load -> dot, the GEMM body.
struct LoadDot : ::testing::Test {
  GraphBuilder b;
  unsigned load, dot;
  void SetUp() override {
    load = b.unit("loadA", UnitKind::Load, 16384);
    dot = b.unit("MMA", UnitKind::Dot);
    b.edge(load, dot);
    b.edge(dot, dot, /*carried=*/true);
  }
};

TEST_F(LoadDot, SameIterationStageLegalWhenUseIsLater) {
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 0}}}));
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.numStages, 3);
  EXPECT_EQ(r.steadyState, "MMA(i) loadA(i+2)");
  ASSERT_EQ(r.buffers.size(), 1u);
  EXPECT_EQ(r.buffers[0].copies, 3);
}

TEST_F(LoadDot, SameIterationStageIllegalWhenUseIsEarlier) {
  auto r = checkSchedule(b.g, sched({{"loadA", {2, 0, 0}}, {"MMA", {1, 1, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::SameIterationStage));
  const Violation &v = r.violations.front();
  EXPECT_EQ(v.def, "loadA");
  EXPECT_EQ(v.use, "MMA");
  EXPECT_NE(v.message.find("MMA (stage 1) uses the 128x64xbf16 tile from loadA (stage 2) in the same iteration"),
            std::string::npos)
      << v.message;
  EXPECT_EQ(v.location, "test.mlir:2:3");
}

TEST_F(LoadDot, SameIterationOrderLegalWhenDefComesFirst) {
  auto r = checkSchedule(b.g, sched({{"loadA", {1, 0, 0}}, {"MMA", {1, 1, 0}}}));
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.steadyState, "loadA(i) MMA(i)");
}

TEST_F(LoadDot, SameIterationOrderIllegalWhenUseComesFirst) {
  auto r = checkSchedule(b.g, sched({{"loadA", {1, 1, 0}}, {"MMA", {1, 0, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::SameIterationOrder));
  EXPECT_NE(r.violations[0].message.find("so loadA must come first"), std::string::npos)
      << r.violations[0].message;
}

TEST_F(LoadDot, WaitDepthOnDotIsLegalAndAddsABuffer) {
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {1, 0, 0, 1}}}));
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.buffers[0].copies, 3); // distance 1 + 1 + async reader
}

TEST_F(LoadDot, DeeperWaitKeepsMoreBuffers) {
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {1, 0, 0, 3}}}));
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.buffers[0].copies, 5); // distance 1 + 1 + 3 groups in flight
}

TEST_F(LoadDot, WaitDepthOnLoadIsIllegal) {
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0, 1}}, {"MMA", {1, 0, 0}}}));
  EXPECT_TRUE(hasRule(r, Rule::WaitOnNonDot));
}

TEST_F(LoadDot, CrossGroupLegalForLoadedTiles) {
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {1, 0, 1}}}));
  EXPECT_TRUE(r.legal());
  EXPECT_TRUE(r.warpSpecialized);
  ASSERT_EQ(r.registers.size(), 2u);
  EXPECT_TRUE(r.registers[0].producer);
  EXPECT_EQ(r.registers[0].budget, 24);
}

TEST_F(LoadDot, UnknownNameIsReported) {
  auto r = checkSchedule(b.g, sched({{"loadZ", {0, 0, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::UnknownUnit));
  EXPECT_NE(r.violations[0].message.find("it has: loadA, MMA"), std::string::npos);
}

// Found by fuzz_schedule: explainMove computed (stage + 1) * L with the stage
// of a move, which overflowed for INT64_MAX. Values outside the schedule
// format's ranges are now a violation of their own, before any arithmetic.
TEST_F(LoadDot, OutOfRangeValuesAreReportedBeforeAnyRule) {
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {65, 0, 0}}}));
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].rule, Rule::OutOfRange);
  EXPECT_EQ(r.violations[0].message, "MMA has stage 65, outside 0..64");
  EXPECT_EQ(std::string(ruleName(Rule::OutOfRange)), "out-of-range");
  for (OpSchedule bad : {OpSchedule{INT64_MAX, 0, 0}, OpSchedule{INT64_MIN, 0, 0},
                         OpSchedule{0, INT64_MAX, 0}, OpSchedule{0, 0, -1},
                         OpSchedule{0, 0, 8}, OpSchedule{0, 0, 0, 8}})
    EXPECT_TRUE(hasRule(checkSchedule(b.g, sched({{"MMA", bad}})), Rule::OutOfRange));
  // The limits themselves are in range (other rules may still object).
  EXPECT_FALSE(hasRule(checkSchedule(b.g, sched({{"loadA", {0, 1 << 20, 7}}, {"MMA", {64, 0, 7, 7}}})),
                       Rule::OutOfRange));
  std::string why = explainMove(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 0}}}), "MMA",
                                {INT64_MAX, 0, 0});
  EXPECT_NE(why.find("MMA cannot move to stage 9223372036854775807: MMA has stage "
                     "9223372036854775807, outside 0..64"),
            std::string::npos)
      << why;
}

TEST_F(LoadDot, SharedMemoryLegalUnderTheLimit) {
  b.g.units[load].bufferBytes = 64 * 1024;
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 0}}}));
  EXPECT_TRUE(r.legal()) << r.violations[0].message;
  EXPECT_EQ(r.smemBytes, 1024 + 3 * 64 * 1024); // the barrier area, three copies
}

TEST_F(LoadDot, SharedMemoryIllegalOverTheLimit) {
  b.g.units[load].bufferBytes = 64 * 1024;
  auto r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {3, 0, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::SharedMemory));
  EXPECT_NE(r.violations[0].message.find("loadA x 4 copies"), std::string::npos)
      << r.violations[0].message;
  // How close the loads must come: three copies fit (1 KiB of barriers + 192).
  EXPECT_NE(r.violations[0].message.find("At most 3 copies of each would need 193 KiB."),
            std::string::npos)
      << r.violations[0].message;
  // Where even two copies would not fit, no number is offered.
  b.g.units[load].bufferBytes = 128 * 1024;
  r = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {3, 0, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::SharedMemory));
  EXPECT_EQ(r.violations[0].message.find("At most"), std::string::npos) << r.violations[0].message;
}

/// Three compute units: a -> b -> c, with c's result carried back to a.
struct Chain : ::testing::Test {
  GraphBuilder b;
  unsigned a, m, c;
  void SetUp() override {
    a = b.unit("A", UnitKind::Compute);
    m = b.unit("B", UnitKind::Compute);
    c = b.unit("C", UnitKind::Compute);
    b.edge(a, m);
    b.edge(m, c);
    b.edge(c, a, /*carried=*/true);
  }
};

TEST_F(Chain, LoopCarriedSameStageIsLegal) {
  auto r = checkSchedule(b.g, sched({{"A", {1, 0, 0}}, {"B", {1, 1, 0}}, {"C", {1, 2, 0}}}));
  EXPECT_TRUE(r.legal());
}

TEST_F(Chain, LoopCarriedOneStageLaterBeforeUseIsLegal) {
  // C one stage after A, and C comes before A in the body: C(i) feeds A(i+1).
  auto r = checkSchedule(b.g, sched({{"A", {0, 2, 0}}, {"B", {1, 0, 0}}, {"C", {1, 1, 0}}}));
  EXPECT_TRUE(r.legal()) << r.violations[0].message;
  EXPECT_EQ(r.steadyState, "B(i) C(i) A(i+1)");
}

TEST_F(Chain, LoopCarriedOneStageLaterAfterUseIsIllegal) {
  auto r = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {1, 1, 0}}, {"C", {1, 2, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::LoopCarriedOrder));
}

TEST_F(Chain, LoopCarriedTwoStagesLaterIsIllegal) {
  auto r = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {1, 1, 0}}, {"C", {2, 2, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::LoopCarriedDistance));
  EXPECT_NE(r.violations[0].message.find("at most one stage later"), std::string::npos);
}

TEST_F(Chain, LoopCarriedUseInLaterStageIsIllegal) {
  GraphBuilder g2;
  unsigned x = g2.unit("X", UnitKind::Compute), y = g2.unit("Y", UnitKind::Compute);
  g2.edge(x, y, /*carried=*/true);
  auto ok = checkSchedule(g2.g, sched({{"X", {1, 0, 0}}, {"Y", {1, 1, 0}}}));
  EXPECT_TRUE(ok.legal());
  auto bad = checkSchedule(g2.g, sched({{"X", {0, 0, 0}}, {"Y", {1, 1, 0}}}));
  ASSERT_TRUE(hasRule(bad, Rule::LoopCarriedLate));
  // Never suggests a negative stage.
  EXPECT_NE(bad.violations[0].message.find("Put Y in stage 0."), std::string::npos)
      << bad.violations[0].message;
}

TEST_F(Chain, RegisterValueAcrossGroupsIsIllegal) {
  auto r = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {0, 1, 1}}, {"C", {0, 2, 1}}}));
  ASSERT_TRUE(hasRule(r, Rule::CrossGroupRegister));
  // A -> B (same iteration) and C -> A (carried) cross groups: one error each;
  // and the math in two groups, which the lowering does not build.
  std::vector<const Violation *> crossing;
  for (const Violation &v : r.violations)
    if (v.rule == Rule::CrossGroupRegister)
      crossing.push_back(&v);
  ASSERT_EQ(crossing.size(), 2u) << messages(r);
  EXPECT_NE(crossing[0]->message.find("only tiles loaded to shared memory"), std::string::npos);
  EXPECT_TRUE(hasRule(r, Rule::Groups));
  EXPECT_EQ(r.violations.size(), 3u) << messages(r);
}

TEST_F(Chain, TheLoopsMathRunsInOneGroupAndItsLoadsInOneProducerWarpGroup) {
  // The arrangement the lowering builds (Placement.cpp), checked with the
  // schedule so that the board, the timeline and the compiler agree.
  GraphBuilder g2;
  unsigned la = g2.unit("loadA", UnitKind::Load, 1024), lb = g2.unit("loadB", UnitKind::Load, 1024);
  unsigned mma = g2.unit("MMA", UnitKind::Dot);
  g2.edge(la, mma);
  g2.edge(lb, mma);
  g2.g.warpGroups = {1, 2, 1};
  auto r = checkSchedule(g2.g, sched({{"loadA", {0, 1, 0}}, {"loadB", {0, 2, 0}}, {"MMA", {1, 0, 1}}}));
  EXPECT_TRUE(r.legal()) << messages(r);
  // Loads in two producer groups.
  r = checkSchedule(g2.g, sched({{"loadA", {0, 1, 0}}, {"loadB", {0, 2, 2}}, {"MMA", {1, 0, 1}}}));
  ASSERT_TRUE(hasRule(r, Rule::Groups)) << messages(r);
  EXPECT_EQ(r.violations[0].message,
            "loadB is in group 2 but loadA in group 0: the loads outside the math's group share "
            "one producer group");
  // A producer group of two warp groups.
  r = checkSchedule(g2.g, sched({{"loadA", {0, 1, 1}}, {"loadB", {0, 2, 1}}, {"MMA", {1, 0, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::Groups)) << messages(r);
  EXPECT_NE(r.violations[0].message.find("the producer group (1) has 2 warp groups"),
            std::string::npos)
      << messages(r);
}

TEST_F(Chain, RegistersWithinBudget) {
  b.value(a, 32 * 1024, {{m, false}});
  auto r = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {0, 1, 0}}, {"C", {0, 2, 0}}}));
  EXPECT_TRUE(r.legal());
  ASSERT_EQ(r.registers.size(), 1u);
  EXPECT_EQ(r.registers[0].regsPerThread, 32 + 32 * 1024 / (4 * 128));
}

TEST_F(Chain, RegistersCountOneCopyPerStageCrossed) {
  b.value(a, 32 * 1024, {{m, false}});
  auto same = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {0, 1, 0}}, {"C", {0, 2, 0}}}));
  // B two stages after A: two more instances of A's value are alive.
  auto far = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {2, 1, 0}}, {"C", {2, 2, 0}}}));
  EXPECT_EQ(far.registers[0].regsPerThread - 32,
            3 * (same.registers[0].regsPerThread - 32));
}

TEST_F(Chain, RegistersOverBudgetIsIllegal) {
  b.value(a, 128 * 1024, {{m, false}});
  auto r = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {0, 1, 0}}, {"C", {0, 2, 0}}}));
  ASSERT_TRUE(hasRule(r, Rule::Registers));
  EXPECT_NE(r.violations[0].message.find("over its budget of 255"), std::string::npos)
      << r.violations[0].message;
  // Two warp groups share the tile: half the registers each.
  b.g.warpGroups = {2};
  auto two = checkSchedule(b.g, sched({{"A", {0, 0, 0}}, {"B", {0, 1, 0}}, {"C", {0, 2, 0}}}));
  EXPECT_TRUE(two.legal());
}

TEST(ExplainMove, NamesTheMoveTheUserAndTheRule) {
  GraphBuilder b;
  unsigned k = b.unit("loadK", UnitKind::Load, 32768), d = b.unit("MMA0", UnitKind::Dot);
  b.edge(k, d);
  Schedule s = sched({{"loadK", {0, 1, 0}}, {"MMA0", {2, 0, 1}}});
  EXPECT_EQ(explainMove(b.g, s, "loadK", {1, 1, 0}), "");
  std::string why = explainMove(b.g, s, "loadK", {3, 1, 0});
  EXPECT_EQ(why.rfind("loadK cannot move to stage 3: MMA0 (stage 2) uses", 0), 0u) << why;
  std::string grp = explainMove(b.g, s, "MMA0", {2, 0, 0, 1});
  EXPECT_EQ(grp, "");
  EXPECT_NE(explainMove(b.g, s, "nothing", {0, 0, 0}).find("no op named"), std::string::npos);
}

} // namespace

namespace {

/// The persistent GEMM body: a producer group (0) and two consumer warp
/// groups (group 1) whose accumulator is a 128x128 f32 tile (64 KiB).
struct PersistentLoadDot : ::testing::Test {
  GraphBuilder b;
  void SetUp() override {
    unsigned load = b.unit("loadA", UnitKind::Load, 16384);
    unsigned dot = b.unit("MMA", UnitKind::Dot);
    b.edge(load, dot);
    b.edge(dot, dot, /*carried=*/true);
    b.value(dot, 128 * 128 * 4, {{dot, true}});
    b.g.warpGroups = {1, 2};
    b.g.persistent = true;
    b.g.epilogueSmemBytes = 2 * 16384;
  }
  Schedule pingpong(int64_t loadGroup = 0) {
    Schedule s = sched({{"loadA", {0, 1, loadGroup}}, {"MMA", {2, 0, 1, 1}}});
    s.consumers = Consumers::PingPong;
    return s;
  }
};

TEST_F(PersistentLoadDot, PingPongIsLegalWithAProducerAndTwoConsumers) {
  ScheduleReport coop = checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 1, 1}}}));
  ScheduleReport pp = checkSchedule(b.g, pingpong());
  ASSERT_TRUE(pp.legal()) << pp.violations[0].message;
  EXPECT_EQ(pp.consumers, Consumers::PingPong);
  EXPECT_EQ(coop.consumers, Consumers::Cooperative);
  // Each consumer warp group holds a whole tile: twice the registers a
  // thread needs when the two split it.
  ASSERT_EQ(pp.registers.size(), 2u);
  EXPECT_GT(pp.registers[1].regsPerThread, coop.registers[1].regsPerThread);
  // And each stores through staging of its own.
  EXPECT_EQ(pp.smemBytes - coop.smemBytes, 2 * 16384);
}

TEST_F(PersistentLoadDot, PingPongNeedsATileLoopAProducerAndTwoConsumers) {
  b.g.persistent = false;
  ScheduleReport r = checkSchedule(b.g, pingpong());
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_NE(r.violations[0].message.find("this kernel has none"), std::string::npos);

  b.g.persistent = true;
  r = checkSchedule(b.g, pingpong(/*loadGroup=*/1));
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_NE(r.violations[0].message.find("loadA is in the consumers' group 1"),
            std::string::npos)
      << r.violations[0].message;

  b.g.warpGroups = {1, 1};
  r = checkSchedule(b.g, pingpong());
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_NE(r.violations[0].message.find("needs two consumer warp groups"), std::string::npos);
}

TEST_F(PersistentLoadDot, PingPongRefusesWhatItsLoweringDoesNotBuildWhereTheOpIs) {
  // A reduction over rows anywhere in the kernel: refused at it (the
  // lowering's refusal named no schedule file).
  b.g.rowReductionLocation = "k.mlir:35:16";
  ScheduleReport r = checkSchedule(b.g, pingpong());
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_EQ(r.violations.back().location, "k.mlir:35:16");
  EXPECT_NE(r.violations.back().message.find("reduction over rows (dim = 0)"), std::string::npos);
  b.g.rowReductionLocation.clear();
  EXPECT_TRUE(checkSchedule(b.g, pingpong()).legal());
  // A store in the loop: at the store, naming its unit.
  b.g.ops.push_back({1, "tile.store", "k.mlir:30:9"});
  r = checkSchedule(b.g, pingpong());
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_EQ(r.violations.back().location, "k.mlir:30:9");
  EXPECT_EQ(r.violations.back().def, "MMA");
  b.g.ops.pop_back();
  // A tile upcast into shared memory for the dot; a dot_scaled's own is built.
  b.g.units[0].localSmemBytes = b.g.units[0].scaledDotSmemBytes = 16384;
  EXPECT_TRUE(checkSchedule(b.g, pingpong()).legal());
  b.g.units[0].scaledDotSmemBytes = 0;
  r = checkSchedule(b.g, pingpong());
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_NE(r.violations.back().message.find("upcast into shared memory"), std::string::npos);
  // Cooperative consumers build all three.
  b.g.rowReductionLocation = "k.mlir:35:16";
  EXPECT_FALSE(hasRule(checkSchedule(b.g, sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 1, 1}}})),
                       Rule::PingPong));
}

TEST_F(PersistentLoadDot, PingPongWithATileTooBigForOneWarpGroupIsOverItsRegisters) {
  b.g.values.clear();
  b.value(1, 128 * 256 * 4, {{1, true}}); // a 128x256 accumulator per warp group
  ScheduleReport r = checkSchedule(b.g, pingpong());
  EXPECT_TRUE(hasRule(r, Rule::Registers));
}

} // namespace

namespace {

TEST_F(PersistentLoadDot, StaggeredNeedsTwoConsumerWarpGroupsAndADot) {
  b.g.persistent = false; // no tile loop needed
  Schedule s = sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 1, 1}}});
  s.consumers = Consumers::Staggered;
  ScheduleReport r = checkSchedule(b.g, s);
  ASSERT_TRUE(r.legal()) << r.violations[0].message;
  EXPECT_EQ(r.consumers, Consumers::Staggered);
  // The tile is split as cooperative consumers split it.
  Schedule coop = s;
  coop.consumers = Consumers::Cooperative;
  EXPECT_EQ(checkSchedule(b.g, coop).registers[1].regsPerThread, r.registers[1].regsPerThread);
  b.g.warpGroups = {1, 1};
  r = checkSchedule(b.g, s);
  ASSERT_TRUE(hasRule(r, Rule::PingPong));
  EXPECT_NE(r.violations[0].message.find("two warp groups taking turns"), std::string::npos);
}

} // namespace

namespace {

/// The GEMM of assets/gemm.mlir: a producer warp group (group 0) and two
/// consumer warp groups (group 1) holding a 128x256 f32 accumulator
/// (~160 registers a thread): 384 threads, 168 registers each at launch.
struct Budgets : ::testing::Test {
  GraphBuilder b;
  unsigned load, dot;
  void SetUp() override {
    load = b.unit("loadA", UnitKind::Load, 16384);
    dot = b.unit("MMA", UnitKind::Dot);
    b.edge(load, dot);
    b.edge(dot, dot, /*carried=*/true);
    b.value(dot, 128 * 256 * 4, {{dot, true}});
    b.g.warpGroups = {1, 2};
  }
  ScheduleReport check(std::vector<int64_t> registers) {
    Schedule s = sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 1, 1}}});
    s.registers = std::move(registers);
    return checkSchedule(b.g, s);
  }
};

TEST_F(Budgets, DefaultsAreTheProducersFloorAndAnEqualShareOfTheRest) {
  ScheduleReport r = check({});
  ASSERT_TRUE(r.legal()) << messages(r);
  ASSERT_EQ(r.registers.size(), 2u);
  EXPECT_EQ(r.registers[0].budget, 24);
  EXPECT_FALSE(r.registers[0].chosen);
  // (384 x 168 - 128 x 24) / 256 = 240.
  EXPECT_EQ(r.registers[1].budget, 240);
  EXPECT_EQ(r.registers[1].regsPerThread, 160);
  EXPECT_EQ(r.launchRegisters, 168);
  EXPECT_EQ(launchRegisterLimit(384), 168);
  EXPECT_EQ(launchRegisterLimit(256), 255);
  EXPECT_EQ(launchRegisterLimit(640), 96);
}

TEST_F(Budgets, ChosenBudgetsOverrideTheDefaultsAndTheRestShare) {
  ScheduleReport r = check({40, 232});
  ASSERT_TRUE(r.legal()) << messages(r);
  EXPECT_EQ(r.registers[0].budget, 40);
  EXPECT_EQ(r.registers[1].budget, 232);
  EXPECT_TRUE(r.registers[0].chosen);
  EXPECT_TRUE(r.registers[1].chosen);
  EXPECT_EQ(r.launchRegisters, 168);
  EXPECT_NE(r.summary().find("warp group 0 (producer): 128 threads, ~0 registers/thread "
                             "(budget 40, chosen)"),
            std::string::npos)
      << r.summary();
  // The producer chosen, the consumers share what it leaves: (64512 - 5120) / 256.
  r = check({40});
  ASSERT_TRUE(r.legal()) << messages(r);
  EXPECT_EQ(r.registers[1].budget, 232);
  EXPECT_FALSE(r.registers[1].chosen);
  // The consumers chosen below the launch cap: every warp starts there.
  r = check({0, 200});
  ASSERT_TRUE(r.legal()) << messages(r);
  EXPECT_EQ(r.registers[0].budget, 24);
  EXPECT_EQ(r.launchRegisters, 168);
}

TEST_F(Budgets, ABudgetMustBeASetmaxnregCount) {
  for (int64_t n : {41, 16, 0 + 8}) {
    ScheduleReport r = check({n, 232});
    ASSERT_TRUE(hasRule(r, Rule::Registers)) << n;
    EXPECT_EQ(r.violations[0].message,
              "warp group 0 has a register budget of " + std::to_string(n) +
                  ", which setmaxnreg cannot ask for: a count is a multiple of 8 from 24 to 256.");
    EXPECT_EQ(r.violations[0].groups, (std::vector<int64_t>{0}));
  }
}

TEST_F(Budgets, MoreThanTheBlockHoldsIsRefused) {
  // 128 x 32 + 256 x 240 = 65536: the whole register file, but the block
  // launched with 384 x 168 = 64512 of it; setmaxnreg.inc would hang.
  ScheduleReport r = check({32, 240});
  ASSERT_EQ(r.violations.size(), 1u) << messages(r);
  EXPECT_EQ(r.violations[0].rule, Rule::Registers);
  EXPECT_EQ(r.violations[0].message,
            "the register budgets need 65536 registers (warp group 0: 128 threads x 32, warp "
            "group 1: 256 threads x 240), 1024 more than the 64512 the block holds (384 threads "
            "x 168 at launch, of an SM's 65536): setmaxnreg.inc would wait forever for "
            "registers no warp group gives back, and the kernel would hang. Lower a budget.");
  EXPECT_EQ(r.violations[0].groups, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(check({24, 240}).legal());
  EXPECT_FALSE(check({24, 248}).legal());
}

TEST_F(Budgets, SetmaxnregDecMustNotRaiseNorIncLowerTheLaunchCount) {
  ScheduleReport r = check({200, 232});
  ASSERT_TRUE(hasRule(r, Rule::Registers));
  EXPECT_EQ(r.violations[0].message,
            "warp group 0 (producer) has a register budget of 200, more than the 168 registers "
            "per thread the block launches with (65536 / 384 threads, rounded down to a "
            "multiple of 8): setmaxnreg.dec can only lower a warp group's count. Give it 168 "
            "or fewer.");
  // One consumer warp group: the block launches with up to 255 registers,
  // or with the consumers' count when that is lower (ptxas starts every warp
  // at the largest setmaxnreg count), so the producer must stay under it.
  b.g.warpGroups = {1, 1};
  b.g.values.clear();
  b.value(dot, 128 * 128 * 4, {{dot, true}}); // 160 registers on 128 threads
  r = check({24, 160});
  ASSERT_TRUE(r.legal()) << messages(r);
  EXPECT_EQ(r.launchRegisters, 160);
  r = check({200, 160});
  ASSERT_TRUE(hasRule(r, Rule::Registers));
  EXPECT_NE(r.violations[0].message.find("more than the 160 registers per thread the block "
                                         "launches with (the largest setmaxnreg.inc count, "
                                         "below the 255 the launch bounds allow)"),
            std::string::npos)
      << messages(r);
}

TEST_F(Budgets, PressureIsCheckedAgainstTheChosenBudget) {
  ScheduleReport r = check({24, 152});
  // The pressure, and (the launch count being 152) the 64x256 wgmma's 154.
  ASSERT_EQ(r.violations.size(), 2u) << messages(r);
  EXPECT_NE(r.violations[1].message.find("MMA's wgmma holds 128 accumulator registers a "
                                         "thread, about 154 with its operands, but ptxas "
                                         "compiles it within the 152 registers"),
            std::string::npos)
      << messages(r);
  EXPECT_NE(r.violations[0].message.find("warp group 1 needs about 160 registers per thread"),
            std::string::npos);
  EXPECT_NE(r.violations[0].message.find("over its budget of 152 (chosen)"), std::string::npos)
      << messages(r);
  EXPECT_EQ(r.violations[0].groups, (std::vector<int64_t>{1}));
  EXPECT_EQ(r.launchRegisters, 152);
}

TEST_F(Budgets, BudgetsOnGroupsWithoutUnitsOrWithoutWarpSpecializationAreRefused) {
  ScheduleReport r = check({0, 0, 40});
  ASSERT_EQ(r.violations.size(), 1u) << messages(r);
  EXPECT_EQ(r.violations[0].message,
            "warp group 2 has a register budget of 40, but no unit runs in it: budgets apply "
            "to the loop's warp groups. Set it to 0 (the default) or move units into warp "
            "group 2.");
  Schedule one = sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 0, 1}}});
  b.g.warpGroups = {2};
  one.registers = std::vector<int64_t>{232};
  r = checkSchedule(b.g, one);
  ASSERT_EQ(r.violations.size(), 1u) << messages(r);
  EXPECT_EQ(r.violations[0].message,
            "warp group 0 has a register budget of 232, but the loop is not warp-specialized "
            "(all its units run in warp group 0): its kernel has no setmaxnreg, every thread "
            "gets min(255, 65536 / 256 threads) registers. Set the budget to 0 (the default), "
            "or move the loads to a producer warp group.");
  EXPECT_EQ(r.launchRegisters, 0);
}

TEST_F(Budgets, TheKernelsBudgetsApplyUnlessTheScheduleSetsItsOwn) {
  b.g.initialSchedule.registers = std::vector<int64_t>{40, 232};
  Schedule s = sched({{"loadA", {0, 1, 0}}, {"MMA", {2, 0, 1, 1}}});
  EXPECT_EQ(effectiveRegisters(b.g, s), (std::vector<int64_t>{40, 232}));
  EXPECT_EQ(checkSchedule(b.g, s).registers[0].budget, 40);
  s.registers = std::vector<int64_t>{};
  EXPECT_TRUE(effectiveRegisters(b.g, s).empty());
  EXPECT_EQ(checkSchedule(b.g, s).registers[0].budget, 24);
}

/// Three schedule groups: a producer and two consumer groups reading its
/// tiles (not lowered today; the rules hold for any number of groups).
struct ThreeGroups : ::testing::Test {
  GraphBuilder b;
  void SetUp() override {
    unsigned load = b.unit("loadA", UnitKind::Load, 16384);
    unsigned d1 = b.unit("MMA", UnitKind::Dot), d2 = b.unit("MMB", UnitKind::Dot);
    b.edge(load, d1);
    b.edge(load, d2);
  }
  ScheduleReport check(std::vector<int64_t> registers) {
    Schedule s = sched({{"loadA", {0, 2, 0}}, {"MMA", {1, 0, 1}}, {"MMB", {1, 1, 2}}});
    s.registers = std::move(registers);
    return checkSchedule(b.g, s);
  }
};

TEST_F(ThreeGroups, AConsumerBelowTheLaunchCountOrADefaultShareBelow24IsRefused) {
  b.g.warpGroups = {1, 1, 1}; // 384 threads, 168 each at launch
  ScheduleReport r = check({24, 256});
  // Only the arrangement (two math groups, which the lowering does not
  // build) is refused; the budgets are.
  ASSERT_EQ(r.violations.size(), 1u) << r.violations[0].message;
  ASSERT_TRUE(hasRule(r, Rule::Groups));
  // (64512 - 3072 - 32768) / 128.
  EXPECT_EQ(r.registers[2].budget, 224);
  r = check({24, 256, 160});
  ASSERT_TRUE(hasRule(r, Rule::Registers));
  EXPECT_EQ(r.violations[1].message,
            "warp group 2 has a register budget of 160, fewer than the 168 registers per thread "
            "the block launches with (65536 / 384 threads, rounded down to a multiple of 8): "
            "setmaxnreg.inc can only raise a warp group's count. Give it 168 or more.");
  b.g.warpGroups = {1, 2, 1}; // 512 threads, 128 each
  r = check({0, 256});
  ASSERT_TRUE(hasRule(r, Rule::Registers));
  EXPECT_EQ(r.violations[1].message,
            "warp group 2 takes the default share of the registers the chosen budgets leave: "
            "(65536 - 68608) / 128 threads = -24 per thread, below setmaxnreg's minimum of 24. "
            "Lower the chosen budgets, or choose one for warp group 2.");
}

} // namespace

namespace {

/// The GEMM of a cluster: loadA differs between the cluster's CTAs, loadB is the same in each.
struct Cluster : ::testing::Test {
  GraphBuilder b;
  unsigned a, bLoad, dot;
  Schedule s;
  void SetUp() override {
    a = b.unit("loadA", UnitKind::Load, 16384);
    bLoad = b.unit("loadB", UnitKind::Load, 32768);
    dot = b.unit("MMA", UnitKind::Dot);
    b.g.units[a].boxRows = 128;
    b.g.units[bLoad].boxRows = 256;
    b.g.units[bLoad].sameInCluster = true;
    b.edge(a, dot);
    b.edge(bLoad, dot);
    b.edge(dot, dot, /*carried=*/true);
    s = sched({{"loadA", {0, 1, 0}}, {"loadB", {0, 2, 0}}, {"MMA", {1, 0, 1}}});
  }
  ScheduleReport check(int64_t cluster) {
    s.cluster = cluster;
    return checkSchedule(b.g, s);
  }
};

TEST_F(Cluster, TheLoadsTheSameInEveryCtaAreShared) {
  ScheduleReport r = check(2);
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.cluster, 2);
  EXPECT_EQ(r.sharedLoads, std::vector<std::string>{"loadB"});
  EXPECT_NE(r.summary().find("cluster: 2 CTAs, sharing loadB (multicast)"), std::string::npos)
      << r.summary();
  // Without a cluster nothing is shared, and the kernel's own cluster applies when the
  // schedule sets none.
  EXPECT_TRUE(check(1).sharedLoads.empty());
  s.cluster.reset();
  b.g.initialSchedule.cluster = 4;
  EXPECT_EQ(checkSchedule(b.g, s).cluster, 4);
}

TEST_F(Cluster, NothingToShareIsLegal) {
  b.g.units[bLoad].sameInCluster = false;
  ScheduleReport r = check(2);
  EXPECT_TRUE(r.legal());
  EXPECT_TRUE(r.sharedLoads.empty());
  EXPECT_NE(r.summary().find("cluster: 2 CTAs, no load shared"), std::string::npos);
}

TEST_F(Cluster, OnlyOneTwoOrFourCtas) {
  ScheduleReport r = check(3);
  ASSERT_TRUE(hasRule(r, Rule::Cluster));
  EXPECT_NE(r.violations[0].message.find("a cluster has 1, 2 or 4 CTAs here (got 3)"),
            std::string::npos);
}

TEST_F(Cluster, ASharedLoadNeedsTheSameIterationsInEveryCta) {
  b.g.clusterVaryingBound = "the pipelined loop's upper bound";
  b.g.clusterVaryingBoundLocation = "test.mlir:9:5";
  ScheduleReport r = check(2);
  ASSERT_TRUE(hasRule(r, Rule::Cluster));
  const Violation &v = r.violations[0];
  EXPECT_EQ(v.location, "test.mlir:9:5");
  EXPECT_NE(v.message.find("loadB is the same in every CTA and is loaded once for all of them, "
                           "so they must run the same iterations; but the pipelined loop's "
                           "upper bound differs between them"),
            std::string::npos)
      << v.message;
  // Nothing shared: the bounds may differ.
  b.g.units[bLoad].sameInCluster = false;
  EXPECT_TRUE(check(2).legal());
}

TEST_F(Cluster, ASharedBoxSplitsIntoWholeSwizzleAtoms) {
  EXPECT_TRUE(check(4).legal()); // 256 rows: 4 parts of 64
  b.g.units[bLoad].boxRows = 48;
  ScheduleReport r = check(4);
  ASSERT_TRUE(hasRule(r, Rule::Cluster));
  EXPECT_EQ(r.violations[0].def, "loadB");
  EXPECT_NE(r.violations[0].message.find(
                "loadB is shared by the cluster's 4 CTAs, each loading 1/4 of its rows; its 48 "
                "rows do not split into parts of a multiple of 8 rows"),
            std::string::npos)
      << r.violations[0].message;
  EXPECT_TRUE(check(2).legal()); // 2 parts of 24
}

TEST_F(Cluster, ASharedLoadNeedsADescriptorOfItsOwn) {
  b.g.units[bLoad].descriptorAlsoUsedAt = "test.mlir:20:7";
  ScheduleReport r = check(2);
  ASSERT_TRUE(hasRule(r, Rule::Cluster));
  EXPECT_EQ(r.violations[0].location, "test.mlir:20:7");
  EXPECT_NE(r.violations[0].message.find("give loadB a descriptor of its own"), std::string::npos);
}

} // namespace
