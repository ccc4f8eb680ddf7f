//===- TimelinePanel.h - predicted and measured timelines ---------*- C++ -*-===//
//
// In the manner of Tracy: a lane per warp group (producer, each consumer),
// then the predicted model's TMA and wgmma pipes, and under them the lanes of
// a measured CTA after a run; units are zones in the board's colours with
// their iteration written in them when there is room. Mouse wheel zooms
// around the pointer, a drag pans, a double click shows everything; hovering
// a zone tells its unit, iteration, start and duration; clicking one selects
// its unit (as clicking its card does), and the selected unit's zones stand
// out. The predicted lanes follow every schedule edit, the measured ones
// every run that returned a trace, or a trace file opened for this schedule
// (AppState::shownTrace); the header says which.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_TIMELINEPANEL_H
#define STAGECRAFT_APP_TIMELINEPANEL_H

#include "app/AppState.h"
#include "app/TimelineModel.h"

#include <string>
#include <vector>

namespace stagecraft::app {

struct TimelineUi {
  TimelineModel model;
  /// Follow the app (rebuild the model when the prediction or the traced
  /// run changes); false draws whatever the model holds (benchmarks).
  bool follow = true;
  // What the model holds, to rebuild it only when that changes.
  uint64_t predictionVersion = UINT64_MAX;
  uint64_t traceKey = UINT64_MAX; // TraceView::key of the measured trace shown
  size_t traceCta = 0;      // which sampled CTA of the measured trace is shown
  size_t shownCta = SIZE_MAX;
  std::string kernel;
  /// The tallest a lane gets when there is room (the panel alone in the
  /// window, for screenshots, affords more than the normal layout).
  float maxLaneHeight = 17;
  /// The source iterations a new kernel's timeline opens on (-1: a few
  /// steady-state ones).
  int focusFirst = -1, focusLast = -1;
  // Interaction.
  bool dragging = false;
  float lastMouseX = 0;
  // Geometry of the last frame, in screen coordinates (tests use it to
  // drive the panel with a synthetic mouse).
  float lanesX0 = 0, lanesX1 = 0; // where zones are drawn
  std::vector<float> laneTop;     // per lane
  float laneHeight = 0;
  // What the last frame drew (tests and the frame-time benchmark).
  size_t rectsDrawn = 0;
  size_t zonesDrawn = 0; // zones behind those rectangles
  std::string hovered;   // the hovered zone's tooltip, "" when none

  /// The middle of the lane's zone area at time `ns` (screen coordinates).
  float xOf(double ns) const { return lanesX0 + model.nsToX(ns, lanesX1 - lanesX0); }
  float yOfLane(size_t lane) const {
    return lane < laneTop.size() ? laneTop[lane] + laneHeight / 2 : -1;
  }
};

/// Draws the panel into the current window (it fills the remaining region).
void drawTimelinePanel(AppState &app, TimelineUi &ui);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_TIMELINEPANEL_H
