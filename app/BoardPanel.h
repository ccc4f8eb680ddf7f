//===- BoardPanel.h - the schedule board: stages x warp groups ----*- C++ -*-===//
//
// Rows are warp groups (BoardModel.h: with ping-pong or staggered consumers,
// one sub-row per consumer warp group, the same cards in each, a line
// across saying what differs), columns are pipeline stages, each cell holds the
// cards of its units in body order. Drag a card to another cell, or between
// two cards to set its order. While dragging, the target cell turns green or
// red, and an illegal target shows why (explainMove) beside the pointer; an
// illegal drop is refused and the reason stays at the drop point for a few
// seconds (and in the status line).
//
// Above the board: the consumer arrangement (each option's tooltip says why
// it is refused here, when it is) and, for a persistent kernel, the tile
// order (row-major, column-major, grouped with G tile rows: choosing one
// rewrites the IR's tile loop, an undo step) and the tile loop as the IR
// now walks it. A row label's tooltip explains its register budget
// (setmaxnreg) and the rules it breaks; a right-click on it chooses the
// budget (RegisterBudgetPopup.h).
//
// Extra drop targets: a column left of stage 0 ("new stage 0": the others
// shift one stage later, since only stage differences matter), a column right
// of the last stage (a new later stage) and a row below the last warp group.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_BOARDPANEL_H
#define STAGECRAFT_APP_BOARDPANEL_H

#include "app/AppState.h"
#include "app/BoardModel.h"
#include "app/RegisterBudgetPopup.h"

#include <imgui.h>

#include <map>
#include <string>
#include <vector>

namespace stagecraft::app {

struct BoardCell {
  MoveTarget target; // stage -1: the new column before stage 0
  ImVec2 min, max;
  bool isNew = false; // one of the extra columns or rows
  /// The consumer warp group's sub-row (BoardModel.h), -1 for a whole group.
  int consumer = -1;
};

struct BoardUi {
  // Interaction.
  std::string pressed;   // card under a pressed mouse button
  std::string dragging;  // card being dragged (moved past the threshold)
  ImVec2 grabOffset;     // pointer position within the card
  // While dragging: the target under the pointer and its verdict.
  bool hasHover = false;
  MoveTarget hover;
  std::string hoverExplanation;
  // The last refused drop: shown at `refusalAt` until `refusalUntil`.
  std::string refusal;
  ImVec2 refusalAt;
  double refusalUntil = 0;

  // Geometry of the last drawn frame, in screen coordinates (hit testing,
  // and tests that drive the board with a synthetic mouse).
  // A unit's card in its group's row (the first sub-row when the group is
  // split); `subCards` has every sub-row's, by (unit, consumer).
  std::map<std::string, std::pair<ImVec2, ImVec2>> cards;
  std::map<std::pair<std::string, int>, std::pair<ImVec2, ImVec2>> subCards;
  std::vector<BoardCell> cells;
  /// Each row's label (a right-click there opens its group's register
  /// budget), in row order.
  struct RowLabel {
    int64_t group = 0;
    int consumer = -1;
    ImVec2 min, max;
  };
  std::vector<RowLabel> rowLabels;
  /// The register budget popup (RegisterBudgetPopup.h).
  RegisterBudgetUi budget;
  /// The rows and lines of the last drawn frame.
  BoardModel model;
  /// The tile-order combo and, while its list is open, its entries by label
  /// ("row-major", "column-major", "grouped"), and the G field.
  std::pair<ImVec2, ImVec2> tileOrderCombo;
  /// The cluster combo (drawClusterControl) and, while it is open, its items.
  std::pair<ImVec2, ImVec2> clusterCombo;
  std::map<std::string, std::pair<ImVec2, ImVec2>> clusterItems;
  std::map<std::string, std::pair<ImVec2, ImVec2>> tileOrderItems;
  std::pair<ImVec2, ImVec2> tileOrderGroupField;
  /// G for "grouped" when the IR's order is another.
  int groupSize = 8;
  const BoardCell *cellAt(ImVec2 p) const;
  /// The cell of (stage, group); `consumer` picks a sub-row (-1: the first).
  const BoardCell *findCell(int64_t stage, int64_t group, int consumer = -1) const;
  ImVec2 cardCenter(const std::string &unit) const;
  ImVec2 cardCenter(const std::string &unit, int consumer) const;
};

/// Draws the board into the current window (it fills the remaining region).
void drawBoardPanel(AppState &app, BoardUi &ui);
/// The consumer arrangement above the board: cooperative or ping-pong.
void drawConsumersControl(AppState &app);
/// The cluster combo (1, 2, 4 CTAs) beside it, and what the cluster shares.
void drawClusterControl(AppState &app, BoardUi &ui);
/// A persistent kernel's tile order above the board (nothing otherwise).
void drawTileOrderControl(AppState &app, BoardUi &ui);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_BOARDPANEL_H
