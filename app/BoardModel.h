//===- BoardModel.h - what the board's rows and lines say ---------*- C++ -*-===//
//
// The words of the board, apart from its drawing: the rows (a schedule
// group, or, when the consumers ping-pong or are staggered, one sub-row per
// consumer warp group of it: they run the same units, and differ in which
// tiles they own or when they take their turn at the tensor cores), the
// steady state of each group, the line describing a persistent kernel's tile
// loop, and why each consumer arrangement is or is not available.
//
// Plain data: no ImGui. Tests build it from an AppState's editor.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_BOARDMODEL_H
#define STAGECRAFT_APP_BOARDMODEL_H

#include "app/ScheduleEditor.h"

#include "core/Schedule/TileLoop.h"

#include <string>
#include <vector>

namespace stagecraft::app {

struct BoardRow {
  int64_t group = 0;
  /// -1: the whole group; else which consumer warp group of it (0, 1, ...).
  int consumer = -1;
  int consumers = 0; // sub-rows of the group (0 when it is one row)
  std::string title; // "WG 1" or "consumer 0"
  std::string role;  // "producer, 128 thr", "WG 1, ping-pong"
  /// Sub-rows: what differs for this warp group, one line across its cells
  /// ("even tiles of its program: ..."); "" for a whole group.
  std::string differs;
  /// The row label's tooltip: the role, the register budget (setmaxnreg)
  /// and why, and the violations of the rules about this group.
  std::string tooltip;
  bool bad = false; // a violation names this group (registers, ping-pong)
};

struct BoardModel {
  std::vector<BoardRow> rows;
  /// One line per group, or per consumer warp group: "consumer 0:
  /// MMA0(i+1) Softmax(i) ...".
  std::vector<std::string> steadyStates;
  /// Persistent kernels: the tile loop as the IR writes it ("" otherwise).
  std::string tileLoopLine, tileLoopTooltip;
};

BoardModel buildBoardModel(const ScheduleEditor &editor, const TileLoop &tiles,
                           const TargetLimits &limits = {});

/// The steady-state body of one group's units, "MMA0(i+1) Softmax(i)".
std::string groupSteadyState(const ScheduleEditor &editor, int64_t group);

/// Why the registers of `group` are budgeted as they are (setmaxnreg).
std::string registerBudgetNote(const ScheduleReport &report, int64_t group,
                               const TargetLimits &limits = {});

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_BOARDMODEL_H
