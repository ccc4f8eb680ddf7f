//===- ScheduleEditorTest.cpp - moves, refusals, undo on the attention loop ===//
#include "app/ScheduleEditor.h"
#include "app/SessionLoader.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

ScheduleEditor attentionEditor() {
  LoadedIr ir = loadLoopIr(test::readAsset("attention_fwd_d128.mlir"),
                           "attention_fwd_d128.mlir");
  EXPECT_TRUE(ir.ok);
  return ScheduleEditor(ir.graph, ir.graph.initialSchedule);
}

OpSchedule of(const ScheduleEditor &ed, const std::string &unit) {
  return ed.unitSchedule(ed.graph().findUnit(unit));
}

TEST(ScheduleEditor, StartsFromTheIrSchedule) {
  ScheduleEditor ed = attentionEditor();
  EXPECT_TRUE(ed.report().legal());
  EXPECT_EQ(ed.report().steadyState, "MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)");
  EXPECT_EQ(ed.numStages(), 2);
  EXPECT_EQ(ed.numGroups(), 2);
  EXPECT_FALSE(ed.canUndo());
}

TEST(ScheduleEditor, MoveBeforeStageZeroShiftsTheOthers) {
  ScheduleEditor ed = attentionEditor();
  MoveOutcome out = ed.move("loadK", {-1, 0, ""});
  ASSERT_TRUE(out.applied) << out.explanation;
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(of(ed, "loadK").stage, 0);
  EXPECT_EQ(of(ed, "loadV").stage, 1);
  EXPECT_EQ(of(ed, "MMA0").stage, 2);
  EXPECT_EQ(ed.report().steadyState,
            "MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+2) loadV(i+1)");
  EXPECT_TRUE(ed.report().legal());
}

TEST(ScheduleEditor, IllegalMoveIsRefusedWithTheExplanation) {
  ScheduleEditor ed = attentionEditor();
  Schedule before = ed.schedule();
  // MMA0 (stage 1) reads loadK's tile in the same iteration: loadK cannot
  // come later than it.
  MoveOutcome out = ed.move("loadK", {1, 0, ""});
  EXPECT_FALSE(out.applied);
  EXPECT_EQ(out.explanation.rfind("loadK cannot move to stage 1", 0), 0u) << out.explanation;
  EXPECT_NE(out.explanation.find("MMA0"), std::string::npos) << out.explanation;
  EXPECT_EQ(ed.schedule(), before);
  EXPECT_FALSE(ed.canUndo());
}

TEST(ScheduleEditor, RegisterValuesCannotCrossWarpGroups) {
  ScheduleEditor ed = attentionEditor();
  std::string why = ed.explain("Softmax", {1, 0, ""});
  EXPECT_NE(why.find("Softmax cannot move to"), std::string::npos) << why;
  EXPECT_NE(why.find("warp group 0"), std::string::npos) << why;
}

TEST(ScheduleEditor, DropBetweenCardsSetsTheOrder) {
  ScheduleEditor ed = attentionEditor();
  ASSERT_LT(of(ed, "loadK").order, of(ed, "loadV").order);
  MoveOutcome out = ed.move("loadV", {0, 0, "loadK"});
  ASSERT_TRUE(out.applied) << out.explanation;
  EXPECT_LT(of(ed, "loadV").order, of(ed, "loadK").order);
  std::vector<unsigned> cell = ed.cell(0, 0);
  ASSERT_EQ(cell.size(), 2u);
  EXPECT_EQ(ed.graph().units[cell[0]].name, "loadV");
  // Orders stay a permutation of 0..n-1.
  std::vector<int64_t> orders;
  for (unsigned u = 0; u < ed.graph().units.size(); ++u)
    orders.push_back(ed.unitSchedule(u).order);
  std::sort(orders.begin(), orders.end());
  for (size_t i = 0; i < orders.size(); ++i)
    EXPECT_EQ(orders[i], static_cast<int64_t>(i));
}

TEST(ScheduleEditor, DropOnItsOwnPlaceChangesNothing) {
  ScheduleEditor ed = attentionEditor();
  MoveOutcome out = ed.move("loadV", {0, 0, ""});
  EXPECT_TRUE(out.applied);
  EXPECT_FALSE(out.changed);
  EXPECT_FALSE(ed.canUndo());
}

TEST(ScheduleEditor, UndoAndRedo) {
  ScheduleEditor ed = attentionEditor();
  Schedule s0 = ed.schedule();
  ASSERT_TRUE(ed.move("loadK", {-1, 0, ""}).applied);
  Schedule s1 = ed.schedule();
  ASSERT_TRUE(ed.move("loadV", {0, 0, ""}).applied); // next to loadK, stage 0
  Schedule s2 = ed.schedule();
  EXPECT_NE(s1, s2);
  EXPECT_TRUE(ed.undo());
  EXPECT_EQ(ed.schedule(), s1);
  EXPECT_TRUE(ed.undo());
  EXPECT_EQ(ed.schedule(), s0);
  EXPECT_FALSE(ed.undo());
  EXPECT_TRUE(ed.redo());
  EXPECT_EQ(ed.schedule(), s1);
  // A new edit drops the redo history.
  ASSERT_TRUE(ed.move("loadV", {0, 0, "loadK"}).applied);
  EXPECT_FALSE(ed.canRedo());
  EXPECT_NE(ed.schedule(), s2);
  // Too many buffers: loadV three stages ahead and loadK two does not fit
  // in shared memory, and the editor says so.
  MoveOutcome full = ed.move("loadV", {-1, 0, ""});
  EXPECT_FALSE(full.applied);
  EXPECT_NE(full.explanation.find("shared memory"), std::string::npos) << full.explanation;
}

TEST(ScheduleEditor, ReplaceRejectsUnknownUnits) {
  ScheduleEditor ed = attentionEditor();
  Schedule s;
  s.set("nonsense", {});
  EXPECT_NE(ed.replace(s).find("nonsense"), std::string::npos);
  EXPECT_FALSE(ed.canUndo());
}

TEST(ScheduleEditor, RepairingAnIllegalScheduleOneCardAtATime) {
  ScheduleEditor ed = attentionEditor();
  // Put MMA0 (and its consumers) too early: illegal.
  Schedule bad = ed.schedule();
  OpSchedule k = *bad.find("loadK");
  k.stage = 1; // loadK after MMA0 in the same stage order -> illegal
  bad.set("loadK", k);
  ASSERT_EQ(ed.replace(bad), "");
  ASSERT_FALSE(ed.report().legal());
  // Moving it back is allowed (it removes the violation) ...
  EXPECT_EQ(ed.explain("loadK", {0, 0, ""}), "");
  // ... and so is a move elsewhere that adds no new violation.
  EXPECT_EQ(ed.explain("loadV", {0, 0, ""}), "");
}

} // namespace

namespace {

ScheduleEditor editorOf(const std::string &asset) {
  LoadedIr ir = loadLoopIr(test::readAsset(asset), asset);
  EXPECT_TRUE(ir.ok);
  return ScheduleEditor(ir.graph, ir.graph.initialSchedule);
}

TEST(ScheduleEditor, ConsumersArrangementFromTheIrAndSwitchable) {
  ScheduleEditor ed = editorOf("persistent_gemm_pingpong.mlir");
  EXPECT_EQ(ed.consumers(), Consumers::PingPong);
  ASSERT_TRUE(ed.report().legal());
  MoveOutcome out = ed.setConsumers(Consumers::Cooperative);
  ASSERT_TRUE(out.applied) << out.explanation;
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(ed.consumers(), Consumers::Cooperative);
  ASSERT_TRUE(ed.schedule().consumers.has_value());
  EXPECT_TRUE(ed.undo());
  EXPECT_EQ(ed.consumers(), Consumers::PingPong);
  out = ed.setConsumers(Consumers::PingPong);
  EXPECT_TRUE(out.applied);
  EXPECT_FALSE(out.changed);
}

TEST(ScheduleEditor, PingPongIsRefusedWithTheReason) {
  // No tile loop.
  ScheduleEditor ed = editorOf("gemm.mlir");
  MoveOutcome out = ed.setConsumers(Consumers::PingPong);
  EXPECT_FALSE(out.applied);
  EXPECT_NE(out.explanation.find("make it persistent"), std::string::npos) << out.explanation;
  EXPECT_EQ(ed.consumers(), Consumers::Cooperative);
  EXPECT_FALSE(ed.canUndo());
  // 128x256 tiles: one warp group cannot hold a whole accumulator, and two
  // teams' staging does not fit beside the rings.
  ScheduleEditor big = editorOf("persistent_gemm_grouped.mlir");
  out = big.setConsumers(Consumers::PingPong);
  EXPECT_FALSE(out.applied);
  EXPECT_FALSE(out.explanation.empty());
  Schedule pp = big.schedule();
  pp.consumers = Consumers::PingPong;
  ScheduleReport r = checkSchedule(big.graph(), pp);
  auto has = [&](Rule rule) {
    return std::any_of(r.violations.begin(), r.violations.end(),
                       [&](const Violation &v) { return v.rule == rule; });
  };
  EXPECT_TRUE(has(Rule::Registers));
  EXPECT_TRUE(has(Rule::SharedMemory));
}

} // namespace

namespace {

TEST(ScheduleEditor, RegisterBudgetIsAnUndoStepAndIsChecked) {
  ScheduleEditor ed = editorOf("gemm.mlir");
  std::string original = ed.schedule().toJson();
  EXPECT_EQ(ed.registerBudget(1), 0);
  ASSERT_EQ(ed.report().registers.size(), 2u);
  EXPECT_EQ(ed.report().registers[1].budget, 240); // the default share
  MoveOutcome out = ed.setRegisters(1, 232);
  ASSERT_TRUE(out.applied);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.explanation, "");
  EXPECT_EQ(ed.registerBudget(1), 232);
  EXPECT_EQ(ed.report().registers[1].budget, 232);
  EXPECT_TRUE(ed.report().registers[1].chosen);
  EXPECT_TRUE(ed.report().legal());
  EXPECT_NE(ed.schedule().toJson().find("\"registers\": [0, 232],"), std::string::npos)
      << ed.schedule().toJson();
  ASSERT_TRUE(ed.setRegisters(0, 40).applied);
  EXPECT_TRUE(ed.report().legal());
  // Over the block's registers: applied (the board shows why), illegal.
  out = ed.setRegisters(1, 248);
  ASSERT_TRUE(out.applied);
  EXPECT_NE(out.explanation.find("the register budgets need 68608 registers"), std::string::npos)
      << out.explanation;
  EXPECT_FALSE(ed.report().legal());
  EXPECT_EQ(ed.explainRegisters(1, 232), "");
  EXPECT_NE(ed.explainRegisters(1, 24).find("warp group 1 needs about 160 registers"),
            std::string::npos);
  // Refused: no register count.
  out = ed.setRegisters(1, 300);
  EXPECT_FALSE(out.applied);
  EXPECT_EQ(out.explanation, "a register budget is 0 (the default share) to 256");
  EXPECT_FALSE(ed.setRegisters(9, 40).applied);
  // Undo, step by step, to the file's schedule byte for byte.
  ASSERT_TRUE(ed.undo());
  EXPECT_EQ(ed.registerBudget(1), 232);
  EXPECT_TRUE(ed.report().legal());
  ASSERT_TRUE(ed.undo());
  EXPECT_EQ(ed.registerBudget(0), 0);
  ASSERT_TRUE(ed.undo());
  EXPECT_FALSE(ed.schedule().registers.has_value());
  EXPECT_EQ(ed.schedule().toJson(), original);
  EXPECT_FALSE(ed.canUndo());
  // Choosing the default explicitly is no change.
  out = ed.setRegisters(1, 0);
  EXPECT_TRUE(out.applied);
  EXPECT_FALSE(out.changed);
  // Back to the default after a choice: the file's bytes again.
  ASSERT_TRUE(ed.setRegisters(1, 232).changed);
  ASSERT_TRUE(ed.setRegisters(1, 0).changed);
  EXPECT_EQ(ed.schedule().toJson(), original);
}

TEST(ScheduleEditor, KernelWideChoicesSurviveMoves) {
  ScheduleEditor ed = editorOf("attention_fwd_d128.mlir");
  ASSERT_TRUE(ed.setRegisters(0, 32).changed);
  ASSERT_TRUE(ed.setConsumers(Consumers::Staggered).changed);
  ASSERT_TRUE(ed.report().legal()) << ed.report().violations.front().message;
  MoveOutcome out = ed.move("loadK", {-1, 0, ""});
  ASSERT_TRUE(out.applied) << out.explanation;
  ASSERT_TRUE(out.changed);
  EXPECT_EQ(ed.registerBudget(0), 32);
  EXPECT_EQ(ed.report().registers[0].budget, 32);
  EXPECT_EQ(ed.consumers(), Consumers::Staggered);
  // Replacing the schedule with one that does not choose keeps the IR's.
  Schedule plain = ed.graph().initialSchedule;
  ASSERT_EQ(ed.replace(plain), "");
  EXPECT_EQ(ed.registerBudget(0), 0);
  EXPECT_EQ(ed.consumers(), Consumers::Cooperative);
}

TEST(ScheduleEditor, IrRevisionsShareTheUndoHistoryWithSchedules) {
  ScheduleEditor ed = attentionEditor();
  Schedule start = ed.schedule();
  EXPECT_EQ(ed.irRevision(), 0u);
  ed.commitIrRevision(1); // e.g. a tile order: the schedule stays
  EXPECT_EQ(ed.irRevision(), 1u);
  EXPECT_EQ(ed.schedule(), start);
  ASSERT_TRUE(ed.move("loadK", {-1, 0, ""}).applied);
  Schedule moved = ed.schedule();
  ASSERT_TRUE(ed.undo());
  EXPECT_EQ(ed.schedule(), start);
  EXPECT_EQ(ed.irRevision(), 1u);
  ASSERT_TRUE(ed.undo());
  EXPECT_EQ(ed.irRevision(), 0u);
  EXPECT_FALSE(ed.canUndo());
  ASSERT_TRUE(ed.redo());
  ASSERT_TRUE(ed.redo());
  EXPECT_EQ(ed.irRevision(), 1u);
  EXPECT_EQ(ed.schedule(), moved);
  // A new revision clears what could be redone.
  ASSERT_TRUE(ed.undo());
  ed.commitIrRevision(2);
  EXPECT_FALSE(ed.canRedo());
}

TEST(ScheduleEditor, ANewGraphMustHaveTheSameUnits) {
  ScheduleEditor ed = attentionEditor();
  LoadedIr gemm = loadLoopIr(test::readAsset("gemm.mlir"), "gemm.mlir");
  ASSERT_TRUE(gemm.ok);
  EXPECT_FALSE(ed.setGraph(gemm.graph));
  EXPECT_EQ(ed.graph().units.size(), 6u);
  LoadedIr again = loadLoopIr("// one more line\n" + test::readAsset("attention_fwd_d128.mlir"),
                              "moved.mlir");
  ASSERT_TRUE(ed.setGraph(again.graph));
  EXPECT_EQ(ed.graph().ops[0].location.rfind("moved.mlir:", 0), 0u) << ed.graph().ops[0].location;
}

} // namespace
