//===- TimelineModel.cpp - the timeline panel's data, without drawing -----===//
#include "app/TimelineModel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace stagecraft;
using namespace stagecraft::app;
using timeline::RowKind;
using timeline::Timeline;
using timeline::Zone;
using timeline::ZoneKind;

std::string stagecraft::app::formatNs(double ns) {
  char buf[32];
  double a = std::fabs(ns);
  if (a < 0.5)
    ns = 0; // a tick a rounding error left of zero reads "0 ns", not "-0 ns"
  if (a < 1e3)
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  else if (a < 1e6)
    std::snprintf(buf, sizeof buf, a < 1e4 ? "%.2f us" : "%.1f us", ns / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  return buf;
}

std::string stagecraft::app::formatTick(double ns, double stepNs) {
  // Enough decimals that ticks `stepNs` apart read apart (zoomed into the
  // end of an 11 ms loop every tick read "11.36 ms": the thirteenth sweep).
  double a = std::fabs(ns);
  if (a < 1e3 || stepNs <= 0)
    return formatNs(ns);
  double unit = a < 1e6 ? 1e3 : 1e6;
  int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(stepNs / unit) - 1e-9)), 0, 6);
  decimals = std::max(decimals, a < 1e6 ? (a < 1e4 ? 2 : 1) : 2);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, ns / unit, unit == 1e3 ? "us" : "ms");
  return buf;
}

void TimelineModel::set(Timeline predicted, Timeline measured, bool keepView) {
  bool had = !lanes_.empty();
  predicted_ = std::move(predicted);
  measured_ = std::move(measured);
  predicted_.sortZones();
  measured_.sortZones();
  buildLanes();
  contentEnd_ = std::max({1.0, predicted_.endNs(), measured_.endNs()});
  if (!keepView || !had)
    fit();
  else
    setView(viewStart_, viewEnd_);
}

void TimelineModel::buildLanes() {
  lanes_.clear();
  for (int which = 0; which < 2; ++which) {
    const Timeline &t = which ? measured_ : predicted_;
    size_t z = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      TimelineLane lane;
      lane.label = t.rows[r].name;
      lane.measured = which == 1;
      lane.pipe = t.rows[r].kind == RowKind::TensorCores || t.rows[r].kind == RowKind::LoadPipe ||
                  t.rows[r].kind == RowKind::MathPipe;
      lane.source = which;
      lane.row = static_cast<int>(r);
      while (z < t.zones.size() && t.zones[z].row < r)
        ++z;
      lane.begin = z;
      while (z < t.zones.size() && t.zones[z].row == r) {
        lane.longestNs = std::max(lane.longestNs, t.zones[z].end - t.zones[z].start);
        ++z;
      }
      lane.end = z;
      lanes_.push_back(lane);
    }
  }
}

void TimelineModel::fit() {
  viewStart_ = 0;
  viewEnd_ = contentEnd_ * 1.02;
}

bool TimelineModel::focusIterations(int first, int last, bool both) {
  double lo = 0, hi = 0;
  bool any = false;
  for (const Timeline *shown : {&predicted_, &measured_}) {
    const Timeline &t = *shown;
    if (!both && &t != (predicted_.zones.empty() ? &measured_ : &predicted_))
      continue;
    // The consumers' zones: a producer works iterations ahead of them.
    bool consumers = false;
    for (const timeline::TimelineRow &r : t.rows)
      consumers |= r.kind == RowKind::Consumer;
    for (const Zone &z : t.zones)
      if (z.iteration >= first && z.iteration <= last &&
          (!consumers || t.rows[z.row].kind == RowKind::Consumer)) {
        lo = any ? std::min(lo, z.start) : z.start;
        hi = any ? std::max(hi, z.end) : z.end;
        any = true;
      }
  }
  if (!any)
    return false;
  double pad = 0.03 * (hi - lo);
  setView(lo - pad, hi + pad);
  return true;
}

int TimelineModel::middleIteration() const {
  std::vector<int> drawn;
  for (const Timeline *t : {&predicted_, &measured_})
    for (const Zone &z : t->zones)
      if (z.unit >= t->units.size() || t->units[z.unit].kind != ZoneKind::Epilogue)
        drawn.push_back(z.iteration);
  if (drawn.empty())
    return -1;
  std::sort(drawn.begin(), drawn.end());
  drawn.erase(std::unique(drawn.begin(), drawn.end()), drawn.end());
  // A long loop is drawn as its first and last iterations, a gap between
  // (Simulator.cpp): the middle of the first part, not of the gap.
  bool contiguous = drawn.back() - drawn.front() + 1 == static_cast<int>(drawn.size());
  return contiguous ? (drawn.front() + drawn.back()) / 2 : drawn[drawn.size() / 4];
}

int TimelineModel::lastIteration() const {
  int last = -1;
  for (const Timeline *t : {&predicted_, &measured_})
    for (const Zone &z : t->zones)
      if (z.unit >= t->units.size() || t->units[z.unit].kind != ZoneKind::Epilogue)
        last = std::max(last, static_cast<int>(z.iteration)); // the loop's, not after it
  return last;
}

void TimelineModel::setView(double start, double end) {
  double limit = contentEnd_ * 1.05;
  double width = std::clamp(end - start, 1.0, limit);
  start = std::clamp(start, -0.02 * limit, limit - width);
  viewStart_ = start;
  viewEnd_ = start + width;
}

void TimelineModel::zoom(double anchor, double factor) {
  if (!(factor > 0))
    return;
  double at = viewStart_ + anchor * (viewEnd_ - viewStart_);
  double width = (viewEnd_ - viewStart_) / factor;
  setView(at - anchor * width, at - anchor * width + width);
}

void TimelineModel::pan(double pixels, float width) {
  if (width <= 0)
    return;
  double dt = pixels / width * (viewEnd_ - viewStart_);
  setView(viewStart_ + dt, viewEnd_ + dt);
}

float TimelineModel::nsToX(double ns, float width) const {
  return static_cast<float>((ns - viewStart_) / (viewEnd_ - viewStart_) * width);
}

double TimelineModel::xToNs(float x, float width) const {
  return viewStart_ + x / std::max(1.0f, width) * (viewEnd_ - viewStart_);
}

size_t TimelineModel::firstVisible(const TimelineLane &lane) const {
  // Zones of a lane are sorted by start; one that starts before the view
  // can still reach into it, but by no more than the longest zone.
  const std::vector<Zone> &z = source(lane.source).zones;
  double from = viewStart_ - lane.longestNs;
  auto it = std::lower_bound(z.begin() + lane.begin, z.begin() + lane.end, from,
                             [](const Zone &a, double t) { return a.start < t; });
  return static_cast<size_t>(it - z.begin());
}

const std::string &TimelineModel::unitName(const TimelineLane &lane, const Zone &z) const {
  static const std::string unknown = "?";
  const Timeline &t = source(lane.source);
  return z.unit < t.units.size() ? t.units[z.unit].name : unknown;
}

double TimelineModel::spanToNext(const TimelineLane &lane, const Zone &z) const {
  const Timeline &t = source(lane.source);
  size_t i = lane.begin;
  while (i < lane.end && &t.zones[i] != &z)
    ++i;
  return i + 1 < lane.end ? t.zones[i + 1].start - z.start : z.end - z.start;
}

const Zone *TimelineModel::counterpart(const TimelineLane &lane, const Zone &z,
                                       const TimelineLane **otherLane) const {
  if (lane.pipe)
    return nullptr;
  const Timeline &mine = source(lane.source), &other = source(1 - lane.source);
  if (lane.row < 0 || static_cast<size_t>(lane.row) >= mine.rows.size())
    return nullptr;
  const std::string &rowName = mine.rows[lane.row].name;
  int unit = other.findUnit(unitName(lane, z));
  if (unit < 0)
    return nullptr;
  for (const TimelineLane &l : lanes_) {
    if (l.source == lane.source || l.pipe || l.row < 0 ||
        static_cast<size_t>(l.row) >= other.rows.size() || other.rows[l.row].name != rowName)
      continue;
    // A lane's zones are contiguous and in start order; a hover asks for
    // one zone, so a scan of one lane is cheap enough.
    for (size_t i = l.begin; i < l.end; ++i)
      if (other.zones[i].unit == unit && other.zones[i].iteration == z.iteration) {
        if (otherLane)
          *otherLane = &l;
        return &other.zones[i];
      }
  }
  return nullptr;
}

ZoneKind TimelineModel::unitKind(const TimelineLane &lane, const Zone &z) const {
  const Timeline &t = source(lane.source);
  return z.unit < t.units.size() ? t.units[z.unit].kind : ZoneKind::Other;
}

void TimelineModel::layout(size_t laneIndex, float width, const std::string &selected,
                           std::vector<ZoneRect> &out, float minPx) const {
  out.clear();
  if (laneIndex >= lanes_.size() || width <= 0)
    return;
  const TimelineLane &lane = lanes_[laneIndex];
  const std::vector<Zone> &zones = source(lane.source).zones;
  bool pending = false;
  ZoneRect run;
  auto flush = [&] {
    if (pending)
      out.push_back(run);
    pending = false;
  };
  for (size_t i = firstVisible(lane); i < lane.end; ++i) {
    const Zone &z = zones[i];
    if (z.start >= viewEnd_)
      break;
    if (z.end < viewStart_)
      continue;
    float x0 = std::max(0.0f, nsToX(z.start, width));
    float x1 = std::min(width, nsToX(z.end, width));
    bool sel = !selected.empty() && unitName(lane, z) == selected;
    ZoneKind kind = unitKind(lane, z);
    if (x1 - x0 >= minPx) {
      flush();
      ZoneRect r;
      r.x0 = x0;
      r.x1 = x1;
      r.zone = &z;
      r.kind = kind;
      r.highlighted = sel;
      out.push_back(r);
      continue;
    }
    // A narrow zone: extend the pending run when it is close enough.
    if (pending && x0 <= run.x1 + minPx) {
      run.x1 = std::max(run.x1, x1);
      run.count += 1;
      run.zone = nullptr;
      if (run.kind != kind)
        run.kind = ZoneKind::Other;
      run.highlighted |= sel;
      continue;
    }
    flush();
    run = ZoneRect();
    run.x0 = x0;
    run.x1 = std::max(x1, x0 + 1.0f); // at least one pixel: it exists
    run.zone = &z;
    run.kind = kind;
    run.highlighted = sel;
    pending = true;
  }
  flush();
}

const Zone *TimelineModel::hit(size_t laneIndex, float x, float width) const {
  if (laneIndex >= lanes_.size())
    return nullptr;
  const TimelineLane &lane = lanes_[laneIndex];
  const std::vector<Zone> &zones = source(lane.source).zones;
  double at = xToNs(x, width);
  double slack = 2.0 / std::max(1.0f, width) * (viewEnd_ - viewStart_);
  const Zone *best = nullptr;
  double bestDistance = slack;
  for (size_t i = firstVisible(lane); i < lane.end; ++i) {
    const Zone &z = zones[i];
    if (z.start > at + slack)
      break;
    double d = at < z.start ? z.start - at : at > z.end ? at - z.end : 0;
    if (d <= bestDistance) {
      // Inside beats near; among zones containing the point, the shortest.
      if (!best || d < bestDistance ||
          (z.end - z.start) < (best->end - best->start)) {
        best = &z;
        bestDistance = d;
      }
    }
  }
  return best;
}
