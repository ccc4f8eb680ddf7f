//===- GraphPanel.cpp - the dependency graph of the loop body -------------===//
//
// Units are nodes, laid out left to right by their depth in the same-
// iteration graph (a DAG); same-iteration edges are solid arrows, values
// passed through shared memory (TMA tiles) are blue, and loop-carried edges
// (a value yielded to the next iteration) are dashed orange arcs.
//
//===----------------------------------------------------------------------===//
#include "app/Panels.h"
#include "app/Theme.h"

#include <cmath>
#include <cstdio>
#include <set>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

ImVec2 bezier(ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 d, float t) {
  float u = 1 - t;
  float w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t;
  return ImVec2(w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x,
                w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y);
}

void arrowHead(ImDrawList *dl, ImVec2 tip, ImVec2 from, ImU32 col) {
  float dx = tip.x - from.x, dy = tip.y - from.y;
  float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f)
    return;
  dx /= len;
  dy /= len;
  const float s = 9;
  dl->AddTriangleFilled(tip, ImVec2(tip.x - dx * s - dy * s * 0.5f, tip.y - dy * s + dx * s * 0.5f),
                        ImVec2(tip.x - dx * s + dy * s * 0.5f, tip.y - dy * s - dx * s * 0.5f),
                        col);
}

/// A cubic curve, solid or dashed, with an arrow at its end.
void curve(ImDrawList *dl, ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 d, ImU32 col,
           float thickness, bool dashed) {
  const int n = 48;
  ImVec2 prev = a;
  for (int i = 1; i <= n; ++i) {
    ImVec2 p = bezier(a, b, c, d, static_cast<float>(i) / n);
    if (!dashed || (i / 3) % 2 == 0)
      dl->AddLine(prev, p, col, thickness);
    prev = p;
  }
  arrowHead(dl, d, bezier(a, b, c, d, 0.93f), col);
}

} // namespace

void stagecraft::app::drawGraphPanel(AppState &app) {
  if (!app.hasIr())
    return;
  const ScheduleEditor &ed = app.editor();
  const LoopGraph &g = ed.graph();
  size_t n = g.units.size();
  if (!n)
    return;

  // Depth = longest same-iteration path from a source (the graph of
  // same-iteration edges is acyclic: the IR's def-before-use order).
  std::vector<int> depth(n, 0);
  for (size_t iter = 0; iter < n; ++iter)
    for (const Edge &e : g.edges)
      if (!e.loopCarried && e.def != e.use)
        depth[e.use] = std::max(depth[e.use], depth[e.def] + 1);
  int maxDepth = 0;
  for (int d : depth)
    maxDepth = std::max(maxDepth, d);
  std::vector<std::vector<unsigned>> layers(maxDepth + 1);
  for (unsigned u = 0; u < n; ++u)
    layers[depth[u]].push_back(u);

  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float legendH = ImGui::GetTextLineHeightWithSpacing() + 4;
  float h = std::max(120.0f, avail.y - legendH);
  // Nodes shrink to fit the columns (down to a size a name still fits).
  float colW = avail.x / (maxDepth + 1);
  float nodeW = std::max(72.0f, std::min(110.0f, colW - 22)), nodeH = 40;
  colW = std::max(colW, nodeW + 14);
  std::vector<ImVec2> center(n);
  for (size_t d = 0; d < layers.size(); ++d)
    for (size_t i = 0; i < layers[d].size(); ++i) {
      float cx = origin.x + colW * (d + 0.5f);
      float cy = origin.y + 16 + (h - 40) * (i + 0.5f) / layers[d].size();
      center[layers[d][i]] = ImVec2(cx, cy);
    }

  ImDrawList *dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(origin, ImVec2(origin.x + avail.x, origin.y + avail.y), true);

  // Edges (deduplicated per unit pair and kind).
  std::set<std::tuple<unsigned, unsigned, bool>> drawn;
  for (const Edge &e : g.edges) {
    if (e.def == e.use && !e.loopCarried)
      continue;
    if (!drawn.insert({e.def, e.use, e.loopCarried}).second)
      continue;
    ImVec2 a = center[e.def], d = center[e.use];
    if (e.loopCarried) {
      // Leave the bottom of the producer, come back into the bottom of the
      // consumer: an arc below the graph.
      // A value fed back to its own unit (a running max or sum) is a small
      // loop under the node.
      bool self = e.def == e.use;
      ImVec2 s(a.x + (self ? 16 : 0), a.y + nodeH / 2), t(d.x - (self ? 16 : 0), d.y + nodeH / 2);
      float drop = self ? 26 : 34 + std::abs(a.x - d.x) * 0.12f;
      curve(dl, s, ImVec2(s.x, s.y + drop), ImVec2(t.x, t.y + drop), t,
            colors::carried, 2.0f, true);
    } else {
      ImVec2 s(a.x + nodeW / 2, a.y), t(d.x - nodeW / 2, d.y);
      float dx = std::max(30.0f, (t.x - s.x) * 0.5f);
      ImU32 col = e.viaSharedMemory ? IM_COL32(100, 170, 255, 230)
                                    : IM_COL32(175, 180, 195, 220);
      curve(dl, s, ImVec2(s.x + dx, s.y), ImVec2(t.x - dx, t.y), t, col, 1.8f, false);
    }
  }

  // Nodes.
  const Fonts &f = fonts();
  ImFont *bold = f.bold ? f.bold : ImGui::GetFont();
  ImFont *ui = f.ui ? f.ui : ImGui::GetFont();
  for (unsigned u = 0; u < n; ++u) {
    ImVec2 mn(center[u].x - nodeW / 2, center[u].y - nodeH / 2);
    ImVec2 mx(center[u].x + nodeW / 2, center[u].y + nodeH / 2);
    bool selected = app.selectedUnit() == g.units[u].name;
    dl->AddRectFilled(mn, mx, unitFill(g.units[u].kind), 6);
    if (selected)
      dl->AddRect(mn, mx, colors::selection, 6, 0, 2);
    OpSchedule s = ed.unitSchedule(u);
    dl->PushClipRect(mn, mx, true);
    dl->AddText(bold, bold->FontSize, ImVec2(mn.x + 8, mn.y + 3), IM_COL32_WHITE,
                g.units[u].name.c_str());
    char sub[48];
    std::snprintf(sub, sizeof sub, "s%lld  WG%lld", static_cast<long long>(s.stage),
                  static_cast<long long>(s.group));
    dl->AddText(ui, ui->FontSize * 0.85f, ImVec2(mn.x + 8, mn.y + 21),
                IM_COL32(235, 235, 245, 200), sub);
    dl->PopClipRect();
    ImGui::SetCursorScreenPos(mn);
    ImGui::PushID(static_cast<int>(u));
    if (ImGui::InvisibleButton("node", ImVec2(nodeW, nodeH)))
      app.select(g.units[u].name);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (%s)\n%s", g.units[u].name.c_str(),
                        unitKindName(g.units[u].kind), g.units[u].summary.c_str());
    ImGui::PopID();
  }
  dl->PopClipRect();

  // Legend.
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + avail.y - legendH + 2));
  ImVec2 p = ImGui::GetCursorScreenPos();
  float lh = ImGui::GetTextLineHeight();
  auto legend = [&](ImU32 col, bool dashed, const char *label) {
    ImVec2 q = ImGui::GetCursorScreenPos();
    float y = q.y + lh / 2;
    for (float x = 0; x < 26; x += dashed ? 8 : 26)
      dl->AddLine(ImVec2(q.x + x, y), ImVec2(q.x + std::min(26.0f, x + (dashed ? 5 : 26)), y),
                  col, 2);
    ImGui::Dummy(ImVec2(30, lh));
    ImGui::SameLine();
    ImGui::TextDisabled("%s", label);
    ImGui::SameLine(0, 18);
  };
  (void)p;
  legend(IM_COL32(175, 180, 195, 220), false, "same iteration");
  legend(IM_COL32(100, 170, 255, 230), false, "shared memory");
  legend(colors::carried, true, "next iteration");
  ImGui::NewLine();
}
