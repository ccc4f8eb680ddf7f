//===- LessonTest.cpp - lessons: files, goals, what changed, solvable ----===//
#include "app/AppState.h"
#include "app/Lesson.h"
#include "app/ScheduleEditor.h"
#include "app/SessionLoader.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <set>

using namespace stagecraft;
using namespace stagecraft::app;
namespace fs = std::filesystem;

namespace {

std::string lessonsRoot() { return test::assetPath("lessons"); }

std::string lessonDir(const std::string &id) { return lessonsRoot() + "/" + id; }

LoopGraph graphOf(const Lesson &l) {
  std::ifstream in(l.irPath);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LoadedIr ir = loadLoopIr(text, l.irPath);
  EXPECT_TRUE(ir.ok) << (ir.diagnostics.empty() ? "" : ir.diagnostics.front());
  return ir.graph;
}

/// Every schedule one board action away: a drag of any card to any cell
/// (before any card there, or at its end; a new stage on either side, a new
/// warp group below), a wait depth of a dot, or the consumer arrangement. Only
/// legal actions apply.
std::vector<std::pair<std::string, ScheduleEditor>> neighbours(const ScheduleEditor &ed) {
  std::vector<std::pair<std::string, ScheduleEditor>> out;
  const LoopGraph &g = ed.graph();
  // The consumers control above the board.
  for (Consumers c : {Consumers::Cooperative, Consumers::PingPong, Consumers::Staggered}) {
    ScheduleEditor next = ed;
    MoveOutcome m = next.setConsumers(c);
    if (m.applied && m.changed)
      out.push_back({std::string("consumers = ") + consumersName(c), std::move(next)});
  }
  for (const Unit &u : g.units) {
    for (int64_t stage = -1; stage <= ed.numStages(); ++stage)
      for (int64_t group = 0; group <= ed.numGroups(); ++group) {
        std::vector<std::string> befores = {""};
        if (stage >= 0)
          for (unsigned v : ed.cell(stage, group))
            befores.push_back(g.units[v].name);
        for (const std::string &before : befores) {
          ScheduleEditor next = ed;
          MoveOutcome m = next.move(u.name, {stage, group, before});
          if (m.applied && m.changed)
            out.push_back({"drag " + u.name + " to stage " + std::to_string(stage) + " group " +
                               std::to_string(group) +
                               (before.empty() ? "" : " before " + before),
                           std::move(next)});
        }
      }
    if (u.kind == UnitKind::Dot)
      for (int64_t w = 0; w <= 2; ++w) {
        ScheduleEditor next = ed;
        MoveOutcome m = next.setWait(u.name, w);
        if (m.applied && m.changed)
          out.push_back({"wait of " + u.name + " = " + std::to_string(w), std::move(next)});
      }
  }
  return out;
}

/// Breadth-first over board actions: the fewest actions that complete the
/// goal, or an empty list (and `found` false).
std::vector<std::string> solve(const Lesson &l, const LoopGraph &g, bool &found,
                               size_t maxDepth = 6) {
  ScheduleEditor start(g, g.initialSchedule);
  struct Node {
    ScheduleEditor ed;
    std::vector<std::string> path;
  };
  std::deque<Node> queue{{start, {}}};
  std::set<std::string> seen{start.schedule().toJson()};
  found = false;
  while (!queue.empty()) {
    Node n = std::move(queue.front());
    queue.pop_front();
    if (evaluateGoal(l, g, n.ed.schedule(), n.ed.report()).complete()) {
      found = true;
      return n.path;
    }
    if (n.path.size() >= maxDepth)
      continue;
    for (auto &[what, next] : neighbours(n.ed)) {
      if (!seen.insert(next.schedule().toJson()).second)
        continue;
      std::vector<std::string> path = n.path;
      path.push_back(what);
      queue.push_back({std::move(next), std::move(path)});
    }
  }
  return {};
}

TEST(Lessons, SixLessonsLoadAndEachIsSolvableByBoardMovesFromAnUnsolvedStart) {
  std::vector<std::string> dirs = listLessons(lessonsRoot());
  ASSERT_GE(dirs.size(), 6u);
  for (const std::string &dir : dirs) {
    SCOPED_TRACE(dir);
    llvm::Expected<Lesson> l = loadLesson(dir);
    ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
    EXPECT_FALSE(l->title.empty());
    EXPECT_GT(l->text.size(), 400u);
    LoopGraph g = graphOf(*l);
    EXPECT_EQ(checkLessonAgainst(*l, g), "");
    ScheduleEditor start(g, g.initialSchedule);
    EXPECT_TRUE(start.report().legal());
    EXPECT_FALSE(evaluateGoal(*l, g, start.schedule(), start.report()).complete())
        << "the lesson starts solved";
    bool found = false;
    std::vector<std::string> path = solve(*l, g, found);
    EXPECT_TRUE(found) << "no sequence of up to 6 board actions reaches the goal";
    std::string steps;
    for (const std::string &s : path)
      steps += "\n  " + s;
    std::printf("%s: %zu actions:%s\n", l->id.c_str(), path.size(), steps.c_str());
  }
}

TEST(Lessons, GoalCriteriaSayWhatTheyCheck) {
  llvm::Expected<Lesson> l = loadLesson(lessonDir("01-why-pipeline"));
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  LoopGraph g = graphOf(*l);
  ScheduleEditor ed(g, g.initialSchedule);
  GoalStatus before = evaluateGoal(*l, g, ed.schedule(), ed.report());
  EXPECT_EQ(before.requiredCount(), 4);
  EXPECT_EQ(before.requiredMet(), 1); // legal
  EXPECT_EQ(before.results[1].text, "loadA runs in the same iteration as MMA (goal: at least 1 ahead)");
  EXPECT_FALSE(before.results[4].judged);
  EXPECT_TRUE(before.results[4].optional);
  EXPECT_NE(before.results[4].text.find("needs a GPU runner"), std::string::npos);

  ASSERT_TRUE(ed.move("MMA", {1, 0, ""}).applied);
  GoalStatus after = evaluateGoal(*l, g, ed.schedule(), ed.report(), {500.0, 650.0});
  EXPECT_TRUE(after.complete());
  EXPECT_EQ(after.results[1].text, "loadA runs 1 iteration ahead of MMA (goal: at least 1 ahead)");
  EXPECT_EQ(after.results[3].text, "the loop has 2 stages (goal: at least 2)");
  EXPECT_TRUE(after.results[4].met);
  EXPECT_EQ(after.results[4].text,
            "measured speed-up 1.30x (650.0 vs 500.0 TFLOP/s at the start) (goal: at least 1.20 x)");
}

TEST(Lessons, SteadyStateGoalsCompareEachWarpGroupsOrder) {
  // Triton's schedule B with the loads written first: the producer's loads
  // sit elsewhere in the steady state's text, the consumers' order is the
  // same, and so is the PTX (the fourteenth sweep's B1: refused).
  llvm::Expected<Lesson> l = loadLesson(lessonDir("05-attention-computation-pipelining"));
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  LoopGraph g = graphOf(*l);
  auto steadyGoal = [&](const char *json) {
    llvm::Expected<Schedule> s = Schedule::fromJson(json, "s.json");
    EXPECT_TRUE(bool(s)) << llvm::toString(s.takeError());
    ScheduleEditor ed(g, *s);
    GoalStatus st = evaluateGoal(*l, g, ed.schedule(), ed.report());
    for (size_t i = 0; i < st.results.size() && i < l->criteria.size(); ++i)
      if (l->criteria[i].kind == Criterion::Kind::SteadyState)
        return st.results[i].met;
    ADD_FAILURE() << "no steady-state criterion";
    return false;
  };
  EXPECT_TRUE(steadyGoal(R"({"ops": [
      {"name": "loadK", "stage": 0, "order": 0, "group": 0},
      {"name": "loadV", "stage": 1, "order": 1, "group": 0},
      {"name": "MMA0", "stage": 2, "order": 2, "group": 1},
      {"name": "MMA1", "stage": 3, "order": 3, "group": 1},
      {"name": "Softmax", "stage": 2, "order": 4, "group": 1},
      {"name": "MUL", "stage": 2, "order": 5, "group": 1}]})"));
  // The consumers' own order differs (Softmax before MMA1 in the loop body):
  // another schedule.
  EXPECT_FALSE(steadyGoal(R"({"ops": [
      {"name": "loadK", "stage": 0, "order": 0, "group": 0},
      {"name": "loadV", "stage": 1, "order": 1, "group": 0},
      {"name": "MMA0", "stage": 2, "order": 2, "group": 1},
      {"name": "Softmax", "stage": 2, "order": 3, "group": 1},
      {"name": "MUL", "stage": 2, "order": 4, "group": 1},
      {"name": "MMA1", "stage": 3, "order": 5, "group": 1}]})"));
}

TEST(Lessons, ExplainChangeSaysWhatAMoveDid) {
  llvm::Expected<Lesson> l = loadLesson(lessonDir("01-why-pipeline"));
  ASSERT_TRUE(bool(l));
  LoopGraph g = graphOf(*l);
  ScheduleEditor ed(g, g.initialSchedule);
  Schedule s0 = ed.schedule();
  ScheduleReport r0 = ed.report();
  ASSERT_TRUE(ed.move("MMA", {1, 0, ""}).applied);
  std::vector<std::string> lines = explainChange(g, s0, r0, ed.schedule(), ed.report());
  auto has = [&](const std::string &text) {
    for (const std::string &l : lines)
      if (l.find(text) != std::string::npos)
        return true;
    return false;
  };
  EXPECT_TRUE(has("MMA: stage 0 -> 1."));
  EXPECT_TRUE(has("The loop now has 2 stages (was 1)."));
  EXPECT_TRUE(has("loadA now runs 1 iteration ahead of MMA (was 0): the tile for the next "
                  "iteration is on its way while MMA works on this one."));
  EXPECT_TRUE(has("loadB's ring: 1 buffer -> 2 buffers (+16 KiB of shared memory)"));
  EXPECT_TRUE(has("Shared memory: 33 KiB -> 65 KiB of 227 KiB."));
  EXPECT_TRUE(has("Steady state: loadA(i) loadB(i) MMA(i)  ->  loadA(i+1) loadB(i+1) MMA(i)"));

  // Lesson 4: the loads into a warp group of their own.
  llvm::Expected<Lesson> l4 = loadLesson(lessonDir("04-warp-specialization"));
  ASSERT_TRUE(bool(l4));
  LoopGraph g4 = graphOf(*l4);
  ScheduleEditor e4(g4, g4.initialSchedule);
  Schedule a = e4.schedule();
  ScheduleReport ra = e4.report();
  ASSERT_TRUE(e4.move("loadA", {0, 1, ""}).applied);
  ASSERT_TRUE(e4.move("loadB", {0, 1, ""}).applied);
  lines = explainChange(g4, a, ra, e4.schedule(), e4.report());
  EXPECT_TRUE(has("The loop is now warp specialized"));
  EXPECT_TRUE(has("Warp group 1 (128 threads) now has work: ~0 registers per thread, budget 24 "
                  "(a producer)."));
  EXPECT_TRUE(has("Warp group 0: ~160 -> ~160 registers per thread, budget 255 -> 240."));
  EXPECT_TRUE(evaluateGoal(*l4, g4, e4.schedule(), e4.report()).complete());
}

TEST(Lessons, BadLessonFilesAreExplained) {
  std::string root = test::tempDir("badlessons");
  auto make = [&](const std::string &name, const std::string &md, const std::string &goal) {
    std::string d = root + "/" + name;
    fs::create_directories(d);
    std::ofstream(d + "/kernel.mlir") << test::readAsset("gemm.mlir");
    std::ofstream(d + "/lesson.md") << md;
    std::ofstream(d + "/goal.json") << goal;
    return d;
  };
  auto error = [](const std::string &dir) {
    llvm::Expected<Lesson> l = loadLesson(dir);
    return l ? std::string() : llvm::toString(l.takeError());
  };
  const std::string ok = "# T\n\ntext\n";
  const std::string head = R"({"format": "stagecraft-lesson-goal", "version": 1, "criteria": )";
  EXPECT_NE(error(make("a", "no title\n", head + R"([{"kind": "legal"}]})"))
                .find("lesson.md:1: the first line must be the title"),
            std::string::npos);
  EXPECT_NE(error(make("b", ok, head + R"([{"kind": "fast"}]})"))
                .find("goal.json: criteria[0].kind: unknown \"fast\" (known: ahead, consumers, copies,"),
            std::string::npos);
  EXPECT_NE(error(make("c", ok, head + R"([{"kind": "ahead", "unit": "loadA", "min": 1}]})"))
                .find("criteria[0]: needs the other op (\"of\")"),
            std::string::npos);
  EXPECT_NE(error(make("d", ok, head + R"([{"kind": "legal", "optional": true}]})"))
                .find("every criterion is optional"),
            std::string::npos);
  EXPECT_NE(error(make("e", ok, head + R"([{"kind": "stages", "min": 2, "unit": "x"}]})"))
                .find("criteria[0].unit: not a field of a \"stages\" criterion"),
            std::string::npos);
  EXPECT_NE(error(make("g", ok, head + R"([{"kind": "stages", "min": 3, "max": 2}]})"))
                .find("criteria[0]: min 3 is above max 2: no schedule meets it"),
            std::string::npos);
  EXPECT_NE(error(make("f", ok, "{\"format\": \"x\"}")).find("expected {\"format\": "
                                                               "\"stagecraft-lesson-goal\""),
            std::string::npos);
  EXPECT_NE(error(root + "/missing").find("is not a directory"), std::string::npos);
  // A unit the loop does not have: caught when the lesson opens.
  llvm::Expected<Lesson> l =
      loadLesson(make("g", ok, head + R"([{"kind": "ahead", "unit": "loadC", "of": "MMA", "min": 1}]})"));
  ASSERT_TRUE(bool(l));
  AppState app(test::testConfig());
  EXPECT_FALSE(app.openLesson(l->dir));
  EXPECT_NE(app.status().text.find("criteria[0]: \"loadC\" is not an op of the lesson's loop "
                                   "(its ops: loadA, loadB, MMA)"),
            std::string::npos)
      << app.status().text;
  EXPECT_FALSE(app.hasLesson());
}

TEST(Lessons, TheAppLogsEachMoveAndNoticesTheGoal) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openLesson(lessonDir("01-why-pipeline")));
  EXPECT_TRUE(app.hasLesson());
  EXPECT_EQ(app.lesson().title, "Why pipeline: move the loads ahead");
  EXPECT_FALSE(app.lessonStatus().complete());
  ASSERT_TRUE(app.moveUnit("MMA", {1, 0, ""}).applied);
  ASSERT_EQ(app.lessonLog().size(), 1u);
  EXPECT_EQ(app.lessonLog()[0].what, "moved MMA to stage 1, warp group 0");
  EXPECT_TRUE(app.lessonLog()[0].reachedGoal);
  EXPECT_TRUE(app.lessonStatus().complete());
  EXPECT_NE(app.status().text.find("goal reached"), std::string::npos);
  ASSERT_TRUE(app.undo());
  EXPECT_FALSE(app.lessonStatus().complete());
  EXPECT_EQ(app.lessonLog().back().what, "undone");
  EXPECT_FALSE(app.lessonLog().back().lines.empty());
  ASSERT_TRUE(app.redo());
  ASSERT_TRUE(app.resetLesson());
  EXPECT_FALSE(app.lessonStatus().complete());
  // Opening another file ends the lesson.
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  EXPECT_FALSE(app.hasLesson());
}

} // namespace
