//===- TimelineModel.h - the timeline panel's data, without drawing -*- C++ -*-===//
//
// What the timeline panel shows, as plain data: lanes (the predicted
// timeline's rows, then a measured CTA's), the visible time range, and per
// lane the rectangles to draw at a given width. Zones outside the view are
// culled by a binary search on their start; runs of zones narrower than a
// couple of pixels are merged into one rectangle (as Tracy does), so a lane
// costs what its pixels cost, not what its zones cost, and tens of thousands
// of zones stay fluid. Tests drive it without ImGui.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_TIMELINEMODEL_H
#define STAGECRAFT_APP_TIMELINEMODEL_H

#include "core/Timeline/Timeline.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::app {

struct TimelineLane {
  std::string label;   // "consumer 0", "TMA", ...
  bool measured = false;
  bool pipe = false;   // a hardware pipe of the predicted model, not a warp group
  int source = 0;      // 0: predicted, 1: measured
  int row = 0;         // row of that timeline
  size_t begin = 0, end = 0; // its zones: [begin, end) of the timeline's zones
  double longestNs = 0;      // the longest zone (bounds the culling search)
};

/// One rectangle to draw: a zone, or several narrow ones merged.
struct ZoneRect {
  float x0 = 0, x1 = 0; // pixels from the lane's left edge
  const timeline::Zone *zone = nullptr; // the zone (null when merged)
  uint32_t count = 1;                   // zones in the rectangle
  timeline::ZoneKind kind = timeline::ZoneKind::Other;
  bool highlighted = false;             // holds a zone of the selected unit
};

class TimelineModel {
public:
  /// Replaces the content (either may be empty: no zones, no rows). Keeps
  /// the view when `keepView` and there was content before.
  void set(timeline::Timeline predicted, timeline::Timeline measured, bool keepView);

  const std::vector<TimelineLane> &lanes() const { return lanes_; }
  const timeline::Timeline &source(int which) const { return which ? measured_ : predicted_; }
  bool empty() const { return lanes_.empty(); }
  size_t zoneCount() const { return predicted_.zones.size() + measured_.zones.size(); }

  /// The view, in ns since the CTA started.
  double viewStart() const { return viewStart_; }
  double viewEnd() const { return viewEnd_; }
  double contentEnd() const { return contentEnd_; }
  /// Shows everything.
  void fit();
  /// Shows source iterations [first, last] of the predicted timeline (or of
  /// the measured one when there is no prediction; of both with `both`, as
  /// far apart as they run); false when it has none.
  bool focusIterations(int first, int last, bool both = false);
  /// A drawn iteration in the middle of the loop's (of the first part where
  /// a long loop is drawn as its first and last iterations); -1: none.
  int middleIteration() const;
  /// The largest source iteration in the content (-1 when empty).
  int lastIteration() const;
  /// Zooms by `factor` (> 1: in) keeping the time under `anchor` (0..1 of
  /// the width) in place.
  void zoom(double anchor, double factor);
  /// Moves the view by `pixels` of a `width`-pixel drawing (positive: later).
  void pan(double pixels, float width);
  /// Sets the view, kept inside the content and at least 1 ns wide.
  void setView(double start, double end);

  float nsToX(double ns, float width) const;
  double xToNs(float x, float width) const;

  /// The rectangles of `lane` at `width` pixels. Zones narrower than
  /// `minPx` that lie within `minPx` of each other become one rectangle.
  void layout(size_t lane, float width, const std::string &selectedUnit,
              std::vector<ZoneRect> &out, float minPx = 2.0f) const;
  /// The zone under `x` in `lane` (the nearest within 2 pixels), or null.
  const timeline::Zone *hit(size_t lane, float x, float width) const;
  /// The unit name of a zone of `lane`.
  const std::string &unitName(const TimelineLane &lane, const timeline::Zone &z) const;
  timeline::ZoneKind unitKind(const TimelineLane &lane, const timeline::Zone &z) const;
  /// The same unit's zone of the same iteration on the same warp group in
  /// the other timeline (the measured one for a predicted zone and the other
  /// way round), or null: what the tooltip compares a zone with. Pipe lanes
  /// have none. `otherLane`, when given, gets the lane it lies in.
  const timeline::Zone *counterpart(const TimelineLane &lane, const timeline::Zone &z,
                                    const TimelineLane **otherLane = nullptr) const;
  /// From a zone of `lane` to the next zone's start on it (its own end for
  /// the last): a unit's span as the measured records time it (a unit lasts
  /// until the warp group's next record), for either timeline.
  double spanToNext(const TimelineLane &lane, const timeline::Zone &z) const;

private:
  void buildLanes();
  size_t firstVisible(const TimelineLane &lane) const;

  timeline::Timeline predicted_, measured_;
  std::vector<TimelineLane> lanes_;
  double viewStart_ = 0, viewEnd_ = 1, contentEnd_ = 1;
};

/// "1.25 us", "830 ns", "2.1 ms".
std::string formatNs(double ns);
/// An axis tick `stepNs` from the next: formatNs with the decimals the step
/// needs ("11.3612 ms").
std::string formatTick(double ns, double stepNs);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_TIMELINEMODEL_H
