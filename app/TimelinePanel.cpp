//===- TimelinePanel.cpp - predicted and measured timelines ---------------===//
#include "app/TimelinePanel.h"
#include "app/Theme.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace stagecraft;
using namespace stagecraft::app;
using timeline::ZoneKind;

namespace {

constexpr float kLabelW = 118, kMinLaneH = 9, kLaneGap = 2, kAxisH = 16,
                kSectionH = 15;

ImU32 zoneFill(ZoneKind k, float alpha) {
  switch (k) {
  case ZoneKind::Load: return unitFill(UnitKind::Load, alpha);
  case ZoneKind::Dot: return unitFill(UnitKind::Dot, alpha);
  case ZoneKind::Compute: return unitFill(UnitKind::Compute, alpha);
  case ZoneKind::Epilogue: return IM_COL32(92, 140, 150, static_cast<int>(alpha * 255));
  case ZoneKind::Other: break;
  }
  return IM_COL32(120, 124, 136, static_cast<int>(alpha * 255));
}

ImU32 zoneAccent(ZoneKind k) {
  switch (k) {
  case ZoneKind::Load: return unitAccent(UnitKind::Load);
  case ZoneKind::Dot: return unitAccent(UnitKind::Dot);
  case ZoneKind::Compute: return unitAccent(UnitKind::Compute);
  case ZoneKind::Epilogue: return IM_COL32(150, 205, 215, 255);
  case ZoneKind::Other: break;
  }
  return IM_COL32(200, 200, 210, 255);
}

/// A tick spacing of 1, 2 or 5 x 10^k ns giving about `target` ticks.
double tickStep(double span, int target) {
  double raw = span / std::max(1, target);
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw)
      return m * p;
  return 10 * p;
}

/// Rebuilds the model when the prediction or the shown trace changed.
void refresh(AppState &app, TimelineUi &ui) {
  TraceView shown = app.shownTrace();
  const MeasuredTrace *trace = shown.trace;
  size_t cta = trace && ui.traceCta < trace->ctas.size() ? ui.traceCta : 0;
  bool kernelChanged = ui.kernel != app.kernel();
  if (ui.predictionVersion == app.predictionVersion() && ui.traceKey == shown.key &&
      ui.shownCta == cta && !kernelChanged)
    return;
  const timeline::Prediction &p = app.timelinePrediction();
  timeline::Timeline predicted = p.ok ? p.timeline : timeline::Timeline();
  timeline::Timeline measured;
  if (trace && !trace->ctas.empty()) {
    measured = trace->ctas[cta].timeline;
    // Both lanes from their CTA's first unit: the records start there
    // (nothing is recorded before it), the model's CTA after its set-up.
    double first = std::numeric_limits<double>::infinity();
    for (const timeline::Zone &z : predicted.zones)
      first = std::min(first, z.start);
    if (std::isfinite(first) && first > 0)
      for (timeline::Zone &z : predicted.zones) {
        z.start -= first;
        z.end -= first;
      }
  }
  // Keep the zoom across edits of one kernel: comparing schedules is the
  // point. A new kernel opens on a few steady-state iterations.
  bool fresh = kernelChanged || ui.model.empty();
  ui.model.set(std::move(predicted), std::move(measured), !kernelChanged);
  if (fresh && !ui.model.empty()) {
    int mid = std::max(0, ui.model.middleIteration());
    bool asked = ui.focusFirst >= 0;
    if (!asked || !ui.model.focusIterations(ui.focusFirst, ui.focusLast, true)) {
      ui.model.focusIterations(std::max(0, mid - 2), mid + 1);
      // --timeline-iterations past what is drawn (past the loop, or in the
      // part of a long loop left out) is said, not dropped silently.
      if (asked)
        app.setStatus(StatusLevel::Warning,
                      "the timeline draws no iterations " + std::to_string(ui.focusFirst) + "-" +
                          std::to_string(ui.focusLast) + " (it draws up to " +
                          std::to_string(ui.model.lastIteration()) +
                          "; a long loop its first and last iterations): showing " +
                          std::to_string(std::max(0, mid - 2)) + "-" + std::to_string(mid + 1));
      ui.focusFirst = ui.focusLast = -1;
    }
  }
  ui.predictionVersion = app.predictionVersion();
  ui.traceKey = shown.key;
  ui.shownCta = cta;
  ui.traceCta = cta;
  ui.kernel = app.kernel();
}

void header(AppState &app, TimelineUi &ui) {
  const timeline::Prediction &p = app.timelinePrediction();
  TraceView shown = app.shownTrace();
  // A trace file measured at other sizes: both lanes at its sizes.
  std::string at = shown.file && shown.file->prediction
                       ? ", at the trace's " + shown.file->sizes + " (the IR's defaults: " +
                             shown.file->defaultSizes + ")"
                       : "";
  if (p.ok) {
    ImGui::TextColored(toVec4(colors::text), "predicted");
    ImGui::SameLine();
    // A loop without dots (a norm, a softmax stream) moves bytes: its rate
    // is the DRAM traffic, not "0 TFLOP/s". A launch of a few CTAs is a
    // small fraction of a wave, not "0.0".
    char rate[64];
    if (p.flops > 0)
      std::snprintf(rate, sizeof rate, "%.0f TFLOP/s", p.tflops);
    else
      std::snprintf(rate, sizeof rate, "%.2f TB/s from DRAM", p.dramTBps);
    ImGui::TextDisabled("iteration %s, bound: %s, %s at %.2f GHz, %lld CTA/SM, %.*f waves%s",
                        formatNs(p.iterationNs).c_str(), p.bound.c_str(), rate, p.clockGHz,
                        static_cast<long long>(p.ctasPerSM), p.waves < 0.1 ? 2 : 1, p.waves,
                        at.c_str());
    if (ImGui::IsItemHovered()) {
      std::string tip = p.boundAndSourcesText();
      for (const std::string &n : p.notes)
        tip += "\nnote: " + n;
      ImGui::SetTooltip("%s", tip.c_str());
    }
  } else {
    ImGui::TextDisabled("predicted: %s%s", p.error.empty() ? "none" : p.error.c_str(), at.c_str());
  }
  const MeasuredTrace *trace = shown.trace;
  if (trace && !trace->ctas.empty()) {
    ImGui::TextColored(toVec4(colors::text), "measured");
    ImGui::SameLine();
    const MeasuredCta &c = trace->ctas[ui.shownCta < trace->ctas.size() ? ui.shownCta : 0];
    // Where it came from: a run of this session, or a file (a GPU elsewhere).
    std::string source = (shown.file ? "from " : "") + shown.source +
                         (shown.device.empty() ? "" : " on " + shown.device);
    // With an idle launch timed, the records' own cost apart from ptxas's
    // other schedule of the same code (which can be faster or slower).
    char split[96] = "";
    if (trace->idleMedianUs > 0 && trace->plainMedianUs > 0)
      std::snprintf(split, sizeof split, " (records %+.1f%%, code %+.1f%%)",
                    (trace->instrumentedMedianUs / trace->idleMedianUs - 1) * 100,
                    (trace->idleMedianUs / trace->plainMedianUs - 1) * 100);
    ImGui::TextDisabled("%s, %s, probes cost %+.1f%%%s%s", source.c_str(),
                        c.timeline.title.c_str(), trace->overhead * 100, split,
                        trace->warnings.empty() ? "" : " (warnings: hover)");
    if (ImGui::IsItemHovered()) {
      std::string tip = shown.file ? shown.file->path + "\n" : "";
      if (split[0])
        tip += "instrumented kernel against the plain one; records: it recording against it recording "
               "nothing; code: it recording nothing against the plain one\n";
      for (const std::string &w : trace->warnings)
        tip += w + "\n";
      if (!tip.empty())
        ImGui::SetTooltip("%s", tip.c_str());
    }
    if (trace->ctas.size() > 1) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(150);
      if (ImGui::BeginCombo("##cta", c.timeline.title.c_str())) {
        for (size_t i = 0; i < trace->ctas.size(); ++i)
          if (ImGui::Selectable(trace->ctas[i].timeline.title.c_str(), i == ui.shownCta))
            ui.traceCta = i;
        ImGui::EndCombo();
      }
    }
  } else {
    std::string note;
    for (const RunRecord *r : app.currentRuns())
      if (!app.traceNote(r->id).empty())
        note = app.traceNote(r->id);
    if (const LoadedTrace *f = app.loadedTrace(); f && f->irPath == app.irPath())
      note = f->path.substr(f->path.rfind('/') + 1) +
             " was measured with the schedule it was loaded for: undo back to it to see it";
    ImGui::TextDisabled("measured: %s", note.empty() ? "none yet: run this schedule (Ctrl+R)"
                                                     : note.c_str());
  }
}

} // namespace

void stagecraft::app::drawTimelinePanel(AppState &app, TimelineUi &ui) {
  ui.rectsDrawn = ui.zonesDrawn = 0;
  ui.hovered.clear();
  if (!app.hasIr()) {
    ImGui::TextDisabled("Open a loop IR file to see its predicted timeline.");
    return;
  }
  if (ui.follow)
    refresh(app, ui);
  header(app, ui);

  ImDrawList *dl = ImGui::GetWindowDrawList();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x < kLabelW + 40 || avail.y < kAxisH + kMinLaneH)
    return;
  TimelineModel &m = ui.model;
  ui.lanesX0 = origin.x + kLabelW;
  ui.lanesX1 = origin.x + avail.x - 4;
  float width = ui.lanesX1 - ui.lanesX0;
  const Fonts &f = fonts();
  ImFont *font = f.ui ? f.ui : ImGui::GetFont();
  float small = font->FontSize * 0.85f;

  // Lanes: predicted, then measured, each under a section title; as tall
  // as the panel allows.
  size_t sectionCount = 0;
  for (size_t l = 0; l < m.lanes().size(); ++l)
    sectionCount += l == 0 || m.lanes()[l].source != m.lanes()[l - 1].source;
  float maxLaneH = std::max(kMinLaneH, ui.maxLaneHeight);
  float laneH = maxLaneH;
  if (!m.lanes().empty())
    laneH = std::clamp((avail.y - kAxisH - sectionCount * kSectionH) / m.lanes().size() - kLaneGap,
                        kMinLaneH, maxLaneH);
  ui.laneTop.assign(m.lanes().size(), 0);
  ui.laneHeight = laneH;
  float y = origin.y + kAxisH;
  int section = -1;
  std::vector<std::pair<float, const char *>> sections;
  for (size_t l = 0; l < m.lanes().size(); ++l) {
    if (m.lanes()[l].source != section) {
      section = m.lanes()[l].source;
      sections.push_back({y, section ? "measured" : "predicted"});
      y += kSectionH;
    }
    ui.laneTop[l] = y;
    y += laneH + kLaneGap;
  }
  float bottom = std::min(origin.y + avail.y, y);

  // Input: the whole area is one item, so drags do not move the window.
  ImGui::SetCursorScreenPos(ImVec2(ui.lanesX0, origin.y));
  ImGui::InvisibleButton("##timeline", ImVec2(std::max(1.0f, width), std::max(1.0f, avail.y)),
                         ImGuiButtonFlags_MouseButtonLeft);
  bool hovered = ImGui::IsItemHovered();
  ImGuiIO &io = ImGui::GetIO();
  float mx = io.MousePos.x - ui.lanesX0;
  if (hovered && io.MouseWheel != 0)
    m.zoom(std::clamp(mx / width, 0.0f, 1.0f), std::pow(1.25, io.MouseWheel));
  if (ImGui::IsItemActivated()) {
    ui.dragging = false;
    ui.lastMouseX = io.MousePos.x;
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
    ui.dragging = true;
    m.pan(-(io.MousePos.x - ui.lastMouseX), width);
    ui.lastMouseX = io.MousePos.x;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
    m.fit();

  // Axis.
  dl->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(origin.x + avail.x, origin.y + avail.y), true);
  // No lanes (an illegal schedule, nothing predicted): no axis either (it
  // drew "0 ns 0 ns 1 ns" over an empty panel: the ninth sweep's M12).
  double step = tickStep(m.viewEnd() - m.viewStart(), std::max(2, static_cast<int>(width / 110)));
  for (double t = std::ceil(m.viewStart() / step) * step;
       !m.lanes().empty() && t <= m.viewEnd(); t += step) {
    float x = ui.xOf(t);
    dl->AddLine(ImVec2(x, origin.y + kAxisH - 4), ImVec2(x, bottom), IM_COL32(60, 65, 80, 120));
    dl->AddText(font, small, ImVec2(x + 3, origin.y), colors::textDim, formatTick(t, step).c_str());
  }
  for (const auto &[sy, title] : sections)
    dl->AddText(f.bold ? f.bold : font, small, ImVec2(origin.x, sy), colors::text, title);

  // Zones.
  const std::string &selected = app.selectedUnit();
  std::vector<ZoneRect> rects;
  const timeline::Zone *hoveredZone = nullptr;
  size_t hoveredLane = 0;
  for (size_t l = 0; l < m.lanes().size(); ++l) {
    const TimelineLane &lane = m.lanes()[l];
    float top = ui.laneTop[l];
    if (top > origin.y + avail.y)
      break;
    dl->AddRectFilled(ImVec2(ui.lanesX0, top), ImVec2(ui.lanesX1, top + laneH),
                      l % 2 ? colors::cellBgAlt : colors::cellBg);
    dl->AddText(font, std::min(small, laneH), ImVec2(origin.x + (lane.pipe ? 10 : 4), top),
                lane.pipe ? colors::textDim : colors::text, lane.label.c_str());
    m.layout(l, width, selected, rects);
    dl->PushClipRect(ImVec2(ui.lanesX0, top), ImVec2(ui.lanesX1, top + laneH), true);
    for (const ZoneRect &r : rects) {
      ImVec2 a(ui.lanesX0 + r.x0, top + (lane.pipe ? 3 : 1));
      ImVec2 b(ui.lanesX0 + r.x1, top + laneH - (lane.pipe ? 3 : 1));
      float alpha = selected.empty() || r.highlighted ? 1.0f : 0.45f;
      if (r.zone)
        dl->AddRectFilled(a, b, zoneFill(r.kind, alpha), 2);
      else // merged narrow zones: the colour, hatched by a lighter line
        dl->AddRectFilled(a, b, zoneFill(r.kind, alpha * 0.7f));
      if (r.highlighted)
        dl->AddRect(a, b, colors::selection, 2, 0, 1.5f);
      else if (r.zone && r.x1 - r.x0 > 4)
        dl->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), zoneAccent(r.kind));
      // The unit and its iteration, when they fit.
      if (r.zone && r.x1 - r.x0 > 24 && laneH >= small) {
        char label[96];
        // The epilogue is after the loop: its iteration is no source iteration.
        bool epilogue = r.kind == ZoneKind::Epilogue;
        if (epilogue)
          std::snprintf(label, sizeof label, "%s", m.unitName(lane, *r.zone).c_str());
        else
          std::snprintf(label, sizeof label, "%s %d", m.unitName(lane, *r.zone).c_str(),
                        r.zone->iteration);
        ImVec2 ts = font->CalcTextSizeA(small, FLT_MAX, 0, label);
        if (ts.x + 6 > r.x1 - r.x0)
          std::snprintf(label, sizeof label, "%s", epilogue ? "" : std::to_string(r.zone->iteration).c_str());
        ts = font->CalcTextSizeA(small, FLT_MAX, 0, label);
        if (ts.x + 4 <= r.x1 - r.x0)
          dl->AddText(font, small, ImVec2(a.x + 3, top + (laneH - ts.y) / 2),
                      IM_COL32(255, 255, 255, static_cast<int>(230 * alpha)), label);
      }
      ui.rectsDrawn += 1;
      ui.zonesDrawn += r.count;
    }
    dl->PopClipRect();
    if (hovered && io.MousePos.y >= top && io.MousePos.y < top + laneH)
      if (const timeline::Zone *z = m.hit(l, mx, width)) {
        hoveredZone = z;
        hoveredLane = l;
      }
  }
  dl->PopClipRect();

  if (hoveredZone) {
    const TimelineLane &lane = m.lanes()[hoveredLane];
    char tip[384];
    bool epilogue = m.unitKind(lane, *hoveredZone) == ZoneKind::Epilogue;
    // The same unit and iteration in the other timeline, when it has it.
    char other[128] = "";
    const TimelineLane *otherLane = nullptr;
    if (const timeline::Zone *c = m.counterpart(lane, *hoveredZone, &otherLane)) {
      // Both as the records time a unit: to the warp group's next unit.
      double mine = m.spanToNext(lane, *hoveredZone), theirs = m.spanToNext(*otherLane, *c);
      double predicted = lane.measured ? theirs : mine, measured = lane.measured ? mine : theirs;
      std::snprintf(other, sizeof other,
                    "\nto the next unit: predicted %s, measured %s (%+.0f%%)",
                    formatNs(predicted).c_str(), formatNs(measured).c_str(),
                    measured > 0 ? (predicted / measured - 1) * 100 : 0.0);
    }
    std::snprintf(tip, sizeof tip, "%s, %s %d\n%s: %s\nstart %s, duration %s%s",
                  m.unitName(lane, *hoveredZone).c_str(),
                  epilogue ? "after iteration" : "iteration",
                  hoveredZone->iteration - (epilogue ? 1 : 0),
                  lane.measured ? "measured" : "predicted", lane.label.c_str(),
                  formatNs(hoveredZone->start).c_str(),
                  formatNs(hoveredZone->end - hoveredZone->start).c_str(), other);
    ui.hovered = tip;
    ImGui::SetTooltip("%s", tip);
    // A click (not a drag) selects the unit, as clicking its card does.
    if (ImGui::IsItemDeactivated() && !ui.dragging) {
      const std::string &name = m.unitName(lane, *hoveredZone);
      if (app.editor().graph().findUnit(name) >= 0)
        app.select(name);
    }
  }
  if (ImGui::IsItemDeactivated())
    ui.dragging = false;
}
