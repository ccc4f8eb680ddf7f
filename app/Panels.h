//===- Panels.h - the panels besides the board --------------------*- C++ -*-===//
//
// One source file each. A panel draws into the current ImGui window (the
// main window's layout gives each its region), reads AppState and calls its
// commands; what it must remember between frames lives in its *Ui struct.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_PANELS_H
#define STAGECRAFT_APP_PANELS_H

#include "app/AppState.h"

#include <string>
#include <vector>

namespace stagecraft::app {

/// The IR source with line numbers; the selected unit's ops highlighted;
/// clicking an op's line selects its unit.
struct IrUi {
  std::string scrolledTo; // the selection the view last scrolled to
};
void drawIrPanel(AppState &app, IrUi &ui);

/// The steady-state body and the stage / buffer / shared memory / register
/// summary, and the violations of an illegal schedule.
void drawSteadyStatePanel(AppState &app);

/// The dependency graph of the loop body; loop-carried edges dashed.
void drawGraphPanel(AppState &app);

/// Compile output: diagnostics, IR after each pass, PTX, ptxas report.
struct CompileUi {
  int pass = -1; // -1: the last one
};
void drawCompilePanel(AppState &app, CompileUi &ui);

/// Every variant compiled or run, a bar chart of TFLOP/s, and the runner.
struct RunsUi {
  char runnerCommand[512] = {};
  bool editingCommand = false;
};
void drawRunsPanel(AppState &app, RunsUi &ui);

/// The open lesson: its goal against the current schedule, what each move
/// changed, and its text (docs/lessons.md).
struct LessonUi {
  std::vector<std::string> lessons; // every lesson's directory, in order
  std::string openRequest;          // set by "Next lesson"; the window opens it
  bool complete = false;            // the goal, as last drawn
  std::string drawnTitle;           // the lesson last drawn (tests)
};
void drawLessonPanel(AppState &app, LessonUi &ui);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_PANELS_H
