//===- RegisterBudgetPopupTest.cpp - a row's budget with a synthetic mouse --===//
//
// Frames driven headless (HeadlessImGui.h), as in BoardDragTest.cpp: a
// right-click on a board row's label opens its group's register budget, and
// clicks and a drag in the popup change it through the app's command.
//
//===----------------------------------------------------------------------===//
#include "app/BoardPanel.h"

#include "HeadlessImGui.h"
#include "TestSupport.h"

#include <imgui.h>

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

using test::HeadlessImGui;

struct Harness {
  HeadlessImGui imgui;
  AppState app{test::testConfig()};
  BoardUi ui;

  void frame(ImVec2 mouse, bool left, bool right = false) {
    ImGuiIO &io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = left;
    io.MouseDown[1] = right;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("board", nullptr, ImGuiWindowFlags_NoDecoration);
    drawBoardPanel(app, ui);
    ImGui::End();
    ImGui::Render();
    app.poll();
  }
  void click(ImVec2 at, bool right = false) {
    frame(at, false);
    frame(at, !right, right);
    frame(at, false);
    frame(at, false);
  }
  static ImVec2 center(ImVec2 mn, ImVec2 mx) { return ImVec2((mn.x + mx.x) / 2, (mn.y + mx.y) / 2); }
  ImVec2 label(int64_t group) {
    for (const BoardUi::RowLabel &l : ui.rowLabels)
      if (l.group == group)
        return center(l.min, l.max);
    ADD_FAILURE() << "no row label for group " << group;
    return ImVec2();
  }
};

TEST(RegisterBudgetPopup, RightClickOpensItAndTheButtonsAndSliderChangeTheBudget) {
  Harness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("gemm.mlir")));
  h.frame(ImVec2(0, 0), false);
  EXPECT_FALSE(h.ui.budget.shown);
  // A left click on the label opens nothing.
  h.click(h.label(1));
  EXPECT_FALSE(h.ui.budget.shown);
  h.click(h.label(1), /*right=*/true);
  ASSERT_TRUE(h.ui.budget.shown);
  EXPECT_EQ(h.ui.budget.group, 1);
  EXPECT_EQ(h.app.editor().report().registers[1].budget, 240);

  // -8: 232, chosen, legal, one undo step.
  h.click(Harness::center(h.ui.budget.minusMin, h.ui.budget.minusMax));
  EXPECT_EQ(h.app.editor().registerBudget(1), 232);
  EXPECT_TRUE(h.app.editor().report().legal());
  EXPECT_TRUE(h.app.editor().canUndo());
  ASSERT_TRUE(h.ui.budget.shown) << "the popup stays open";
  h.frame(ImVec2(0, 0), false);
  EXPECT_FALSE(h.ui.model.rows[1].bad);

  // Drag the slider to its right end: 256, over the block's registers. The
  // edit applies on release; the row turns red and says why.
  ImVec2 s0 = h.ui.budget.sliderMin, s1 = h.ui.budget.sliderMax;
  ImVec2 grab(s0.x + (s1.x - s0.x) * 0.5f, (s0.y + s1.y) / 2);
  h.frame(grab, false);
  h.frame(grab, true);
  for (int i = 1; i <= 6; ++i)
    h.frame(ImVec2(grab.x + (s1.x + 40 - grab.x) * i / 6, grab.y), true);
  EXPECT_EQ(h.app.editor().registerBudget(1), 232) << "nothing applies while dragging";
  h.frame(ImVec2(s1.x + 40, grab.y), false);
  EXPECT_EQ(h.app.editor().registerBudget(1), 256);
  EXPECT_FALSE(h.app.editor().report().legal());
  h.frame(ImVec2(0, 0), false);
  ASSERT_GE(h.ui.model.rows.size(), 2u);
  EXPECT_TRUE(h.ui.model.rows[1].bad);
  EXPECT_NE(h.ui.model.rows[1].tooltip.find("Illegal (registers): the register budgets need"),
            std::string::npos)
      << h.ui.model.rows[1].tooltip;

  // "default": back to the share, and the schedule no longer chooses.
  ASSERT_TRUE(h.ui.budget.shown);
  h.click(Harness::center(h.ui.budget.defaultMin, h.ui.budget.defaultMax));
  EXPECT_EQ(h.app.editor().registerBudget(1), 0);
  EXPECT_EQ(h.app.editor().report().registers[1].budget, 240);
  EXPECT_FALSE(h.app.editor().schedule().registers.has_value());
  EXPECT_TRUE(h.app.editor().report().legal());
  // Three edits, three undo steps.
  EXPECT_EQ(h.app.editor().undoDepth(), 3u);
}

TEST(RegisterBudgetPopup, EachRowOpensItsOwnGroup) {
  Harness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  h.frame(ImVec2(0, 0), false);
  h.click(h.label(0), /*right=*/true);
  ASSERT_TRUE(h.ui.budget.shown);
  EXPECT_EQ(h.ui.budget.group, 0);
  h.click(Harness::center(h.ui.budget.plusMin, h.ui.budget.plusMax));
  EXPECT_EQ(h.app.editor().registerBudget(0), 32);
  EXPECT_EQ(h.app.editor().registerBudget(1), 0);
  EXPECT_TRUE(h.app.editor().report().legal());
}

} // namespace
