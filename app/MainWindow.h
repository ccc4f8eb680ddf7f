//===- MainWindow.h - the window's fixed layout, menus, shortcuts -*- C++ -*-===//
//
// One window without docking (Dear ImGui 1.86 from Debian has no docking
// branch): a fixed layout that fills the viewport and follows its size.
//
//   +-----------+---------------------------+--------------+
//   | IR source | schedule board            | compile      |
//   |           +-------------+-------------+ output       |
//   |           | steady state| dependency  |              |
//   |           | & resources | graph       |              |
//   +-----------+-------------+-------------+--------------+
//   | timeline: predicted and     | runs: variants,        |
//   | measured, per warp group    | TFLOP/s chart, runner  |
//   +-----------------------------+------------------------+
//   | status line                                          |
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_MAINWINDOW_H
#define STAGECRAFT_APP_MAINWINDOW_H

#include "app/BoardPanel.h"
#include "app/FileDialog.h"
#include "app/Panels.h"
#include "app/TimelinePanel.h"

#include <vector>

namespace stagecraft::app {

/// A key press as the platform layer saw it. Dear ImGui 1.86 polls key
/// state once a frame, so a press and release within one frame (a quick tap,
/// or a scripted one) would be missed; main.cpp queues presses from GLFW's
/// key callback instead, and tests can push them directly.
struct KeyPress {
  int key = 0; // GLFW key code
  bool ctrl = false, shift = false;
};

struct MainWindowUi {
  std::vector<KeyPress> keys; // presses since the last frame
  BoardUi board;
  IrUi ir;
  CompileUi compile;
  RunsUi runs;
  TimelineUi timeline;
  LessonUi lesson;
  FileDialog dialog;
  /// Only the timeline panel (and the status line), filling the window:
  /// `stagecraft --panel timeline`, for pictures of it.
  bool timelineOnly = false;
  bool showShortcuts = false;
  bool quitRequested = false;
  std::string examplePath; // File > Open example
  /// Help > Lessons: the directory that holds them (assets/lessons), and
  /// their titles once read.
  std::string lessonsRoot;
  std::vector<std::pair<std::string, std::string>> lessonTitles;
  bool lessonsListed = false;
};

/// Draws the whole UI for one frame (between ImGui::NewFrame and Render).
void drawMainWindow(AppState &app, MainWindowUi &ui);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_MAINWINDOW_H
