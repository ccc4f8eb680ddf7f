//===- BoardDragTest.cpp - drag cards with a synthetic mouse, no window ---===//
//
// Frames are driven headless (HeadlessImGui.h): the board's hit testing and
// drag logic run for real, nothing is rasterized.
//
//===----------------------------------------------------------------------===//
#include "app/BoardPanel.h"
#include "app/MainWindow.h"

#include "HeadlessImGui.h"
#include "TestSupport.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

using test::HeadlessImGui;

struct BoardHarness {
  HeadlessImGui imgui;
  AppState app{test::testConfig()};
  BoardUi ui;

  void frame(ImVec2 mouse, bool down) {
    ImGuiIO &io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("board", nullptr, ImGuiWindowFlags_NoDecoration);
    drawBoardPanel(app, ui);
    ImGui::End();
    ImGui::Render();
    app.poll();
  }
  /// Press on `from`, move in steps to `to`, release there.
  void drag(ImVec2 from, ImVec2 to) {
    frame(from, false);
    frame(from, true);
    for (int i = 1; i <= 8; ++i)
      frame(ImVec2(from.x + (to.x - from.x) * i / 8, from.y + (to.y - from.y) * i / 8), true);
    frame(to, true);
    frame(to, false);
  }
  ImVec2 cellCenter(int64_t stage, int64_t group) {
    const BoardCell *c = ui.findCell(stage, group);
    EXPECT_NE(c, nullptr);
    return c ? ImVec2((c->min.x + c->max.x) / 2, (c->min.y + c->max.y) / 2) : ImVec2();
  }
};

OpSchedule of(const AppState &app, const std::string &unit) {
  return app.editor().unitSchedule(app.editor().graph().findUnit(unit));
}

TEST(BoardDrag, DragACardToAnotherStage) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  h.frame(ImVec2(0, 0), false); // lay out
  ImVec2 card = h.ui.cardCenter("loadK");
  ASSERT_GT(card.x, 0);
  // Drop loadK in the column before stage 0: a new first stage.
  h.drag(card, h.cellCenter(-1, 0));
  EXPECT_EQ(of(h.app, "loadK").stage, 0);
  EXPECT_EQ(of(h.app, "MMA0").stage, 2);
  EXPECT_EQ(h.app.editor().report().steadyState,
            "MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+2) loadV(i+1)");
  EXPECT_TRUE(h.app.editor().canUndo());
  EXPECT_TRUE(h.ui.refusal.empty());
  // The board now has three stages.
  h.frame(ImVec2(0, 0), false);
  EXPECT_NE(h.ui.findCell(2, 1), nullptr);
}

TEST(BoardDrag, PingPongConsumersHaveSubRowsAndADragInEitherMovesTheUnit) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("persistent_gemm_pingpong.mlir")));
  h.frame(ImVec2(0, 0), false);
  // The consumer group's row is two sub-rows with the same cards.
  ImVec2 mma0 = h.ui.cardCenter("MMA", 0), mma1 = h.ui.cardCenter("MMA", 1);
  ASSERT_GT(mma0.x, 0);
  ASSERT_GT(mma1.x, 0);
  EXPECT_EQ(mma0.x, mma1.x);
  EXPECT_GT(mma1.y, mma0.y);
  EXPECT_EQ(h.ui.cardCenter("MMA", -1).x, -1); // no whole-group row for it
  const BoardCell *target = h.ui.findCell(1, 1, 1);
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->consumer, 1);
  EXPECT_NE(h.ui.findCell(1, 1, 0), target);
  ASSERT_EQ(of(h.app, "MMA").stage, 2);
  // Drag MMA within consumer 1's sub-row, from stage 2 to stage 1.
  h.drag(mma1, ImVec2((target->min.x + target->max.x) / 2, (target->min.y + target->max.y) / 2));
  EXPECT_TRUE(h.ui.refusal.empty()) << h.ui.refusal;
  EXPECT_EQ(of(h.app, "MMA").stage, 1);
  EXPECT_EQ(of(h.app, "MMA").group, 1);
  EXPECT_EQ(h.app.editor().report().steadyState, "MMA(i) loadA(i+1) loadB(i+1)");
  // Both sub-rows show it in its new stage.
  h.frame(ImVec2(0, 0), false);
  const BoardCell *c0 = h.ui.findCell(1, 1, 0);
  ASSERT_NE(c0, nullptr);
  ImVec2 now0 = h.ui.cardCenter("MMA", 0);
  EXPECT_TRUE(now0.x > c0->min.x && now0.x < c0->max.x);
  EXPECT_TRUE(now0.y > c0->min.y && now0.y < c0->max.y);
}

TEST(BoardDrag, DropBetweenTwoCardsSetsTheOrder) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  h.frame(ImVec2(0, 0), false);
  ASSERT_LT(of(h.app, "loadK").order, of(h.app, "loadV").order);
  // Drop loadV on the upper half of loadK's card: before it.
  auto k = h.ui.cards.at("loadK");
  ImVec2 target((k.first.x + k.second.x) / 2, k.first.y + 4);
  h.drag(h.ui.cardCenter("loadV"), target);
  EXPECT_LT(of(h.app, "loadV").order, of(h.app, "loadK").order);
  EXPECT_EQ(of(h.app, "loadV").stage, 0);
}

TEST(BoardDrag, AnIllegalDropIsRefusedAndExplainedWhereItWasDropped) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  h.frame(ImVec2(0, 0), false);
  Schedule before = h.app.editor().schedule();
  ImVec2 target = h.cellCenter(1, 0); // after MMA0, which reads loadK's tile
  ImVec2 card = h.ui.cardCenter("loadK");
  // While hovering, the verdict is known before the drop.
  h.frame(card, false);
  h.frame(card, true);
  for (int i = 1; i <= 8; ++i)
    h.frame(ImVec2(card.x + (target.x - card.x) * i / 8, card.y + (target.y - card.y) * i / 8),
            true);
  EXPECT_EQ(h.ui.dragging, "loadK");
  ASSERT_TRUE(h.ui.hasHover);
  EXPECT_EQ(h.ui.hover.stage, 1);
  EXPECT_NE(h.ui.hoverExplanation.find("loadK cannot move to stage 1"), std::string::npos)
      << h.ui.hoverExplanation;
  h.frame(target, false); // drop
  EXPECT_EQ(h.app.editor().schedule(), before);
  EXPECT_FALSE(h.app.editor().canUndo());
  EXPECT_NE(h.ui.refusal.find("loadK cannot move to stage 1"), std::string::npos) << h.ui.refusal;
  EXPECT_NE(h.ui.refusal.find("MMA0"), std::string::npos) << h.ui.refusal;
  EXPECT_NE(h.app.status().text.find("loadK cannot move to stage 1"), std::string::npos)
      << h.app.status().text;
  // The explanation is drawn next to the drop point in the next frame.
  h.frame(target, false);
  ImGuiWindow *popup = ImGui::FindWindowByName("##refusal");
  ASSERT_NE(popup, nullptr);
  EXPECT_TRUE(popup->Active);
  EXPECT_NEAR(popup->Pos.x, target.x + 14, 2);
  EXPECT_NEAR(popup->Pos.y, target.y + 14, 2);
}

TEST(BoardDrag, AClickSelectsWithoutMoving) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  h.frame(ImVec2(0, 0), false);
  ImVec2 card = h.ui.cardCenter("MMA1");
  Schedule before = h.app.editor().schedule();
  h.frame(card, false);
  h.frame(card, true);
  h.frame(card, false);
  EXPECT_EQ(h.app.selectedUnit(), "MMA1");
  EXPECT_EQ(h.app.editor().schedule(), before);
}

TEST(MainWindow, AllPanelsDrawWithoutAWindow) {
  HeadlessImGui imgui;
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  MainWindowUi ui;
  for (int i = 0; i < 5; ++i) {
    ImGui::GetIO().MousePos = ImVec2(800, 300);
    ImGui::NewFrame();
    drawMainWindow(app, ui);
    ImGui::Render();
    app.poll();
  }
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
  EXPECT_FALSE(ui.board.cells.empty());
}

TEST(MainWindow, ShortcutsUndoRedoAndQuit) {
  HeadlessImGui imgui;
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  Schedule original = app.editor().schedule();
  ASSERT_TRUE(app.moveUnit("loadK", {-1, 0, ""}).applied);
  Schedule moved = app.editor().schedule();
  MainWindowUi ui;
  auto frameWith = [&](KeyPress k) {
    ui.keys.push_back(k);
    ImGui::NewFrame();
    drawMainWindow(app, ui);
    ImGui::Render();
    app.poll();
  };
  const int kZ = 'Z', kY = 'Y', kQ = 'Q'; // GLFW key codes of letters are ASCII
  frameWith({kZ, true, false});
  EXPECT_EQ(app.editor().schedule(), original);
  frameWith({kY, true, false});
  EXPECT_EQ(app.editor().schedule(), moved);
  frameWith({kZ, true, false});
  frameWith({kZ, true, true}); // Ctrl+Shift+Z: redo
  EXPECT_EQ(app.editor().schedule(), moved);
  EXPECT_TRUE(ui.keys.empty());
  EXPECT_FALSE(ui.quitRequested);
  frameWith({kQ, true, false});
  EXPECT_TRUE(ui.quitRequested);
}

TEST(LessonDrag, CompletesTheFirstLessonByDraggingInTheMainWindow) {
  HeadlessImGui imgui;
  AppState app(test::testConfig()); // no runner: no GPU
  MainWindowUi ui;
  ui.lessonsRoot = test::assetPath("lessons");
  // What Help > Lessons > 1 does.
  ui.lesson.openRequest = test::assetPath("lessons/01-why-pipeline");
  auto frame = [&](ImVec2 mouse, bool down) {
    ImGuiIO &io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    drawMainWindow(app, ui);
    ImGui::Render();
    app.poll();
  };
  frame(ImVec2(0, 0), false);
  ASSERT_TRUE(app.hasLesson()) << app.status().text;
  frame(ImVec2(0, 0), false); // the lesson panel is drawn beside the board
  EXPECT_EQ(ui.lesson.lessons.size(), 6u);
  EXPECT_FALSE(ui.lesson.complete);
  EXPECT_EQ(ui.lesson.drawnTitle, "Why pipeline: move the loads ahead");

  // First an illegal drop: MMA before the loads (stage -1) is refused.
  ImVec2 mma = ui.board.cardCenter("MMA");
  ASSERT_GT(mma.x, 0);
  const BoardCell *before = ui.board.findCell(-1, 0);
  ASSERT_NE(before, nullptr);
  ImVec2 bad((before->min.x + before->max.x) / 2, (before->min.y + before->max.y) / 2);
  auto drag = [&](ImVec2 from, ImVec2 to) {
    frame(from, false);
    frame(from, true);
    for (int i = 1; i <= 8; ++i)
      frame(ImVec2(from.x + (to.x - from.x) * i / 8, from.y + (to.y - from.y) * i / 8), true);
    frame(to, true);
    frame(to, false);
  };
  drag(mma, bad);
  EXPECT_NE(ui.board.refusal.find("MMA cannot move"), std::string::npos) << ui.board.refusal;
  EXPECT_FALSE(app.lessonStatus().complete());
  EXPECT_TRUE(app.lessonLog().empty());
  // The explanation stays at the drop point; a click on it puts it away.
  frame(bad, false);
  ImGuiWindow *popup = ImGui::FindWindowByName("##refusal");
  ASSERT_NE(popup, nullptr);
  ASSERT_TRUE(popup->Active);
  ImVec2 inside(popup->Pos.x + popup->Size.x / 2, popup->Pos.y + popup->Size.y / 2);
  frame(inside, false);
  frame(inside, true);
  frame(inside, false);
  frame(inside, false);
  EXPECT_FALSE(ImGui::FindWindowByName("##refusal")->Active);

  // Then the lesson's move: MMA into a new stage after the loads.
  const BoardCell *after = ui.board.findCell(1, 0);
  ASSERT_NE(after, nullptr);
  EXPECT_TRUE(after->isNew);
  drag(ui.board.cardCenter("MMA"), ImVec2((after->min.x + after->max.x) / 2,
                                          (after->min.y + after->max.y) / 2));
  frame(ImVec2(0, 0), false);
  EXPECT_TRUE(app.lessonStatus().complete()) << app.status().text << " | " << ui.board.refusal;
  EXPECT_TRUE(ui.lesson.complete); // as the panel drew it
  ASSERT_EQ(app.lessonLog().size(), 1u);
  EXPECT_TRUE(app.lessonLog()[0].reachedGoal);
  EXPECT_EQ(app.editor().report().steadyState, "loadA(i+1) loadB(i+1) MMA(i)");
  // "Next lesson" opens lesson 2.
  ui.lesson.openRequest = ui.lesson.lessons[1];
  frame(ImVec2(0, 0), false);
  EXPECT_EQ(app.lesson().id, "02-rings-and-shared-memory");
}

} // namespace

namespace {

ImVec2 centerOf(const std::pair<ImVec2, ImVec2> &r) {
  return ImVec2((r.first.x + r.second.x) / 2, (r.first.y + r.second.y) / 2);
}

TEST(BoardDrag, PickingGroupedInTheTileOrderComboRewritesTheIr) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("persistent_gemm.mlir")));
  std::string original = h.app.irText();
  h.frame(ImVec2(0, 0), false);
  ASSERT_GT(h.ui.tileOrderCombo.second.x, h.ui.tileOrderCombo.first.x);
  EXPECT_TRUE(h.ui.tileOrderItems.empty()); // closed
  // Click the combo: its list opens.
  ImVec2 combo = centerOf(h.ui.tileOrderCombo);
  h.frame(combo, false);
  h.frame(combo, true);
  h.frame(combo, false);
  h.frame(combo, false);
  ASSERT_EQ(h.ui.tileOrderItems.size(), 3u);
  ImVec2 grouped = centerOf(h.ui.tileOrderItems.at("grouped"));
  EXPECT_GT(grouped.y, combo.y); // below the combo
  // Click "grouped": the IR's tile loop is rewritten, groups of 8.
  h.frame(grouped, false);
  h.frame(grouped, true);
  h.frame(grouped, false);
  EXPECT_EQ(h.app.tileLoop().order, TileOrder::Grouped);
  EXPECT_EQ(h.app.tileLoop().groupSize, 8);
  EXPECT_NE(h.app.irText(), original);
  EXPECT_NE(h.app.irText().find("%group = arith.divui %t, %in_group : index"), std::string::npos);
  // The list closed; the line above the board says the new order, and the
  // G field shows.
  h.frame(ImVec2(0, 0), false);
  EXPECT_TRUE(h.ui.tileOrderItems.empty());
  EXPECT_NE(h.ui.model.tileLoopLine.find("tile order grouped (8 tile rows)"), std::string::npos)
      << h.ui.model.tileLoopLine;
  EXPECT_GT(h.ui.tileOrderGroupField.second.x, h.ui.tileOrderGroupField.first.x);
  // Column-major the same way, then undo twice: the file as it was.
  h.frame(combo, true);
  h.frame(combo, false);
  h.frame(combo, false);
  ImVec2 col = centerOf(h.ui.tileOrderItems.at("column-major"));
  h.frame(col, true);
  h.frame(col, false);
  EXPECT_EQ(h.app.tileLoop().order, TileOrder::ColumnMajor);
  ASSERT_TRUE(h.app.undo());
  ASSERT_TRUE(h.app.undo());
  EXPECT_EQ(h.app.irText(), original);
}

TEST(BoardDrag, ANonPersistentKernelHasNoTileOrderControl) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("gemm.mlir")));
  h.frame(ImVec2(0, 0), false);
  EXPECT_EQ(h.ui.tileOrderCombo.second.x, h.ui.tileOrderCombo.first.x);
}

} // namespace

namespace {

TEST(BoardDrag, PickingAClusterOfFourInTheClusterComboSharesLoadB) {
  BoardHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("persistent_gemm_cluster.mlir")));
  h.frame(ImVec2(0, 0), false);
  EXPECT_EQ(h.app.editor().cluster(), 2); // the kernel's tile.cluster
  ASSERT_GT(h.ui.clusterCombo.second.x, h.ui.clusterCombo.first.x);
  EXPECT_TRUE(h.ui.clusterItems.empty()); // closed
  // The frame of the combo (its left part; the label to its right does not open it).
  ImVec2 combo(h.ui.clusterCombo.first.x + 8, centerOf(h.ui.clusterCombo).y);
  h.frame(combo, false);
  h.frame(combo, true);
  h.frame(combo, false);
  h.frame(combo, false);
  ASSERT_EQ(h.ui.clusterItems.size(), 3u);
  ImVec2 four = centerOf(h.ui.clusterItems.at("4"));
  EXPECT_GT(four.y, combo.y);
  h.frame(four, false);
  h.frame(four, true);
  h.frame(four, false);
  EXPECT_EQ(h.app.editor().cluster(), 4);
  EXPECT_EQ(h.app.editor().report().sharedLoads, std::vector<std::string>{"loadB"});
  EXPECT_EQ(h.app.editor().schedule().cluster, std::optional<int64_t>(4));
  ASSERT_TRUE(h.app.undo());
  EXPECT_EQ(h.app.editor().cluster(), 2);
}

} // namespace
