//===- SteadyStatePanel.cpp - the steady-state body and the resources -----===//
#include "app/BoardModel.h"
#include "app/Panels.h"
#include "app/Theme.h"

#include <cstdio>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

/// A horizontal bar "used / limit" with the numbers on it.
void usageBar(float fraction, const char *text, bool over) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFrameHeight();
  ImDrawList *dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(45, 50, 64, 255), 3);
  float fw = w * std::min(1.0f, std::max(0.0f, fraction));
  ImU32 col = over ? colors::bad
              : fraction > 0.85f ? colors::warn
                                 : IM_COL32(70, 140, 210, 255);
  dl->AddRectFilled(p, ImVec2(p.x + fw, p.y + h), col, 3);
  ImVec2 ts = ImGui::CalcTextSize(text);
  dl->AddText(ImVec2(p.x + (w - ts.x) / 2, p.y + (h - ts.y) / 2), colors::text, text);
  ImGui::Dummy(ImVec2(w, h));
}

} // namespace

void stagecraft::app::drawSteadyStatePanel(AppState &app) {
  if (!app.hasIr())
    return;
  const ScheduleEditor &ed = app.editor();
  const LoopGraph &g = ed.graph();
  const ScheduleReport &r = ed.report();
  const Fonts &f = fonts();

  ImGui::TextDisabled("Steady-state loop body (kernel iteration i runs):");
  // The body as colored chips: "MMA0(i+1)" for a unit `stage` behind the
  // last stage, in body order.
  ImFont *big = f.large ? f.large : ImGui::GetFont();
  ImGui::PushFont(big);
  float x0 = ImGui::GetCursorScreenPos().x;
  float maxX = x0 + ImGui::GetContentRegionAvail().x;
  ImDrawList *dl = ImGui::GetWindowDrawList();
  bool first = true;
  for (unsigned u : r.bodyOrder) {
    OpSchedule s = ed.unitSchedule(u);
    int64_t ahead = (r.numStages - 1) - s.stage;
    char label[96];
    if (ahead > 0)
      std::snprintf(label, sizeof label, "%s(i+%lld)", g.units[u].name.c_str(),
                    static_cast<long long>(ahead));
    else
      std::snprintf(label, sizeof label, "%s(i)", g.units[u].name.c_str());
    ImVec2 ts = ImGui::CalcTextSize(label);
    ImVec2 pad(7, 4);
    if (!first) {
      ImGui::SameLine(0, 6);
      if (ImGui::GetCursorScreenPos().x + ts.x + 2 * pad.x > maxX)
        ImGui::NewLine();
    }
    first = false;
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImVec2 q(p.x + ts.x + 2 * pad.x, p.y + ts.y + 2 * pad.y);
    dl->AddRectFilled(p, q, unitFill(g.units[u].kind), 5);
    if (app.selectedUnit() == g.units[u].name)
      dl->AddRect(p, q, colors::selection, 5, 0, 2);
    dl->AddText(ImVec2(p.x + pad.x, p.y + pad.y), IM_COL32_WHITE, label);
    ImGui::PushID(static_cast<int>(u));
    if (ImGui::InvisibleButton("chip", ImVec2(q.x - p.x, q.y - p.y)))
      app.select(g.units[u].name);
    ImGui::PopID();
  }
  ImGui::PopFont();
  ImGui::Spacing();
  // Each warp group's part of the body (BoardModel.h): with ping-pong or
  // staggered consumers, one line per consumer warp group.
  if (r.warpSpecialized || r.consumers != Consumers::Cooperative)
    for (const std::string &line : buildBoardModel(ed, app.tileLoop()).steadyStates)
      ImGui::TextDisabled("%s", line.c_str());

  if (!r.legal()) {
    ImGui::Spacing();
    ImGui::TextColored(toVec4(colors::bad), "This schedule is illegal:");
    for (const Violation &v : r.violations) {
      ImGui::PushStyleColor(ImGuiCol_Text, toVec4(IM_COL32(255, 170, 160, 255)));
      ImGui::Bullet();
      ImGui::TextWrapped("%s [%s]%s%s", v.message.c_str(), ruleName(v.rule),
                         v.location.empty() ? "" : "  at ", v.location.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::Separator();

  if (ImGui::BeginTable("summary", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, 118);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    auto row = [](const char *what) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextDisabled("%s", what);
      ImGui::TableSetColumnIndex(1);
    };
    row("stages");
    ImGui::Text("%lld%s", static_cast<long long>(r.numStages),
                r.warpSpecialized ? "   (warp-specialized)" : "");
    row("shared memory");
    {
      char text[96];
      std::snprintf(text, sizeof text, "%s of %s", formatBytes(r.smemBytes).c_str(),
                    formatBytes(r.smemLimit).c_str());
      usageBar(r.smemLimit ? static_cast<float>(r.smemBytes) / r.smemLimit : 0,
               text, r.smemBytes > r.smemLimit);
    }
    row("buffers");
    for (const LoadBuffers &b : r.buffers)
      ImGui::Text("%s: %lld x %s", b.name.c_str(), static_cast<long long>(b.copies),
                  formatBytes(b.bytesPerCopy).c_str());
    if (r.buffers.empty())
      ImGui::TextDisabled("none");
    for (const GroupRegisters &gr : r.registers) {
      char what[48];
      std::snprintf(what, sizeof what, "regs WG %lld", static_cast<long long>(gr.group));
      row(what);
      char text[128];
      std::snprintf(text, sizeof text, "%lld / %lld%s%s",
                    static_cast<long long>(gr.regsPerThread),
                    static_cast<long long>(gr.budget),
                    gr.peakAt.empty() ? "" : ", peak at ", gr.peakAt.c_str());
      usageBar(gr.budget ? static_cast<float>(gr.regsPerThread) / gr.budget : 0, text,
               gr.regsPerThread > gr.budget);
    }
    ImGui::EndTable();
  }
}
