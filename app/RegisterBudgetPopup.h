//===- RegisterBudgetPopup.h - a warp group's register budget -----*- C++ -*-===//
//
// The popup a right-click on a board row's label opens: the register budget
// of that schedule group (setmaxnreg), in steps of 8 from 24 to 256, or the
// default share. A slider (applied when released), -8 / +8 buttons, a
// typed value (applied on Enter) and "default" (0: the share legality
// computes). Each change is a schedule edit (AppState::setRegisters): an undo
// step, a recompile, the autosave, and it is saved and exported with the
// schedule. An illegal budget is applied too, and the popup and the row say
// why (the violations about the group).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_REGISTERBUDGETPOPUP_H
#define STAGECRAFT_APP_REGISTERBUDGETPOPUP_H

#include "app/AppState.h"

#include <imgui.h>

namespace stagecraft::app {

struct RegisterBudgetUi {
  /// The value on the slider while it is dragged (applied on release).
  int draft = 0;
  int64_t draftGroup = -1;
  /// Where the controls were last drawn, in screen coordinates (tests drive
  /// them with a synthetic mouse).
  bool shown = false;
  int64_t group = -1;
  ImVec2 sliderMin, sliderMax, minusMin, minusMax, plusMin, plusMax, defaultMin, defaultMax;
};

/// The popup's contents, between BeginPopup... and EndPopup.
void drawRegisterBudgetPopup(AppState &app, int64_t group, RegisterBudgetUi &ui);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_REGISTERBUDGETPOPUP_H
