//===- IrPanel.cpp - the IR source, with the selected op highlighted ------===//
#include "app/Panels.h"
#include "app/Theme.h"

#include <cstdlib>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {
/// The line of a "file:line:col" location, or -1.
int lineOf(const std::string &loc) {
  size_t c2 = loc.rfind(':');
  if (c2 == std::string::npos || c2 == 0)
    return -1;
  size_t c1 = loc.rfind(':', c2 - 1);
  if (c1 == std::string::npos)
    return -1;
  return std::atoi(loc.c_str() + c1 + 1);
}

/// The line a diagnostic "FILE:LINE:COL: error: ..." names, or -1.
int diagnosticLine(const std::string &d) {
  size_t at = d.find(": error");
  if (at == std::string::npos)
    at = d.find(": warning");
  return at == std::string::npos ? -1 : lineOf(d.substr(0, at));
}

/// A file that failed to open: its errors, wrapped, then its text with the
/// lines they name marked, so that the user sees what to fix.
void drawRejected(const AppState &app) {
  std::set<int> bad;
  ImGui::PushStyleColor(ImGuiCol_Text, toVec4(colors::bad));
  for (const std::string &d : app.loadDiagnostics()) {
    ImGui::TextWrapped("%s", d.c_str());
    if (int line = diagnosticLine(d); line > 0)
      bad.insert(line);
  }
  ImGui::PopStyleColor();
  const std::string &text = app.rejectedText();
  if (text.empty())
    return;
  ImGui::Separator();
  const Fonts &f = fonts();
  if (f.mono)
    ImGui::PushFont(f.mono);
  ImGui::BeginChild("rejected", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList *dl = ImGui::GetWindowDrawList();
  float lineH = ImGui::GetTextLineHeightWithSpacing();
  int line = 1;
  for (size_t b = 0; b < text.size(); ++line) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos)
      e = text.size();
    ImVec2 p = ImGui::GetCursorScreenPos();
    if (bad.count(line))
      dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetWindowWidth(), p.y + lineH),
                        IM_COL32(150, 40, 40, 110));
    ImGui::TextColored(toVec4(colors::textDim), "%4d ", line);
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(text.data() + b, text.data() + e);
    b = e + 1;
  }
  ImGui::EndChild();
  if (f.mono)
    ImGui::PopFont();
}
} // namespace

void stagecraft::app::drawIrPanel(AppState &app, IrUi &ui) {
  if (!app.hasIr()) {
    drawRejected(app);
    if (app.loadDiagnostics().empty())
      ImGui::TextDisabled("No file open.");
    return;
  }
  const LoopGraph &g = app.editor().graph();
  // Line -> unit, from the op locations (1-based lines).
  std::map<int, unsigned> lineUnit;
  for (const LoopOp &op : g.ops) {
    int line = lineOf(op.location);
    if (line > 0)
      lineUnit.emplace(line, op.unit);
  }
  const std::string &text = app.irText();
  std::vector<std::pair<size_t, size_t>> lines; // [begin, end)
  for (size_t b = 0; b <= text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos)
      e = text.size();
    lines.emplace_back(b, e);
    b = e + 1;
  }
  if (!lines.empty() && lines.back().first == lines.back().second &&
      lines.back().first == text.size())
    lines.pop_back();

  const Fonts &f = fonts();
  if (f.mono)
    ImGui::PushFont(f.mono);
  ImGui::BeginChild("irtext", ImVec2(0, 0), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  float lineH = ImGui::GetTextLineHeightWithSpacing();
  const std::string &sel = app.selectedUnit();
  int selUnit = sel.empty() ? -1 : g.findUnit(sel);

  // Scroll to the selection's first line once when it changes.
  if (sel != ui.scrolledTo) {
    ui.scrolledTo = sel;
    if (selUnit >= 0)
      for (auto &[line, unit] : lineUnit)
        if (static_cast<int>(unit) == selUnit) {
          float y = (line - 1) * lineH;
          float top = ImGui::GetScrollY(), h = ImGui::GetWindowHeight();
          if (y < top || y > top + h - 2 * lineH)
            ImGui::SetScrollY(std::max(0.0f, y - h * 0.3f));
          break;
        }
  }

  ImDrawList *dl = ImGui::GetWindowDrawList();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(lines.size()), lineH);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      int line = i + 1;
      auto it = lineUnit.find(line);
      int unit = it == lineUnit.end() ? -1 : static_cast<int>(it->second);
      ImVec2 p = ImGui::GetCursorScreenPos();
      float w = std::max(ImGui::GetWindowWidth(), ImGui::GetContentRegionAvail().x);
      if (unit >= 0) {
        UnitKind kind = g.units[unit].kind;
        bool selected = unit == selUnit;
        // A stripe of the unit's kind color marks scheduled ops; the
        // selected unit's lines are filled.
        dl->AddRectFilled(p, ImVec2(p.x + 4, p.y + lineH), unitAccent(kind));
        if (selected)
          dl->AddRectFilled(ImVec2(p.x + 4, p.y), ImVec2(p.x + w, p.y + lineH),
                            unitFill(kind, 0.45f));
      }
      ImGui::PushID(i);
      char num[16];
      std::snprintf(num, sizeof num, "%4d ", line);
      ImGui::SetCursorScreenPos(ImVec2(p.x + 8, p.y));
      ImGui::TextColored(toVec4(colors::textDim), "%s", num);
      ImGui::SameLine(0, 0);
      const char *b = text.data() + lines[i].first;
      const char *e = text.data() + lines[i].second;
      bool comment = false;
      for (const char *c = b; c < e && (*c == ' ' || *c == '/'); ++c)
        if (*c == '/') {
          comment = true;
          break;
        }
      if (comment)
        ImGui::PushStyleColor(ImGuiCol_Text, toVec4(IM_COL32(120, 150, 120, 255)));
      ImGui::TextUnformatted(b, e);
      if (comment)
        ImGui::PopStyleColor();
      if (unit >= 0) {
        // The whole line is the click target.
        ImGui::SetCursorScreenPos(p);
        if (ImGui::InvisibleButton("line", ImVec2(w, ImGui::GetTextLineHeight())))
          app.select(g.units[unit].name);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s (%s): click to select", g.units[unit].name.c_str(),
                            unitKindName(g.units[unit].kind));
      }
      ImGui::PopID();
    }
  }
  clipper.End();
  ImGui::EndChild();
  if (f.mono)
    ImGui::PopFont();
}
