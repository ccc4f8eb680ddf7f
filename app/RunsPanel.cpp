//===- RunsPanel.cpp - every variant, its measurement, a bar chart --------===//
#include "app/Panels.h"
#include "app/Theme.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

ImU32 resultColor(const RunRecord &r) {
  switch (r.state) {
  case RunState::CompileFailed: return colors::bad;
  case RunState::NotRun: return colors::warn;
  case RunState::Done:
    return r.status == "ok" && r.verified ? colors::good : colors::bad;
  default: return colors::textDim;
  }
}

void runnerLine(AppState &app, RunsUi &ui) {
  RunnerClient &runner = app.runner();
  ImU32 col = runner.state() == RunnerState::Ready         ? colors::good
              : runner.state() == RunnerState::Unavailable ? colors::warn
                                                           : colors::textDim;
  ImGui::TextColored(toVec4(col), "%s", runner.stateText().c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Restart runner"))
    runner.restart();
  ImGui::SameLine();
  bool autoRun = app.autoRun();
  if (ImGui::Checkbox("run each compile", &autoRun))
    app.setAutoRun(autoRun);
  ImGui::SameLine();
  if (!ui.editingCommand)
    std::snprintf(ui.runnerCommand, sizeof ui.runnerCommand, "%s",
                  runner.options().command.c_str());
  ImGui::TextDisabled("command:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##runnercmd", ui.runnerCommand, sizeof ui.runnerCommand,
                       ImGuiInputTextFlags_EnterReturnsTrue))
    app.setRunnerCommand(ui.runnerCommand);
  ui.editingCommand = ImGui::IsItemActive();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The runner command (Enter applies and restarts it), e.g.\n"
                      "  stagecraft-run --serve\n  ssh gpu-host stagecraft-run --serve");
}

void barChart(AppState &app, const std::vector<const RunRecord *> &runs) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImVec2 size = ImGui::GetContentRegionAvail();
  ImDrawList *dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), IM_COL32(30, 33, 42, 255), 4);
  double top = 0, reference = 0;
  std::vector<const RunRecord *> measured;
  for (const RunRecord *r : runs)
    if (r->state == RunState::Done && r->tflops) {
      measured.push_back(r);
      top = std::max(top, *r->tflops);
      if (r->referenceTflops) {
        reference = std::max(reference, *r->referenceTflops);
        top = std::max(top, *r->referenceTflops);
      }
    }
  if (measured.empty()) {
    // Say why there is no chart, wrapped inside the chart's area.
    std::string why = app.runner().state() == RunnerState::Ready
                          ? "Runs go to " + app.runner().deviceName() + "."
                          : "No runs: " + app.runner().stateText() + ".";
    ImGui::SetCursorScreenPos(ImVec2(p.x + 12, p.y + size.y * 0.3f));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x - 24);
    ImGui::TextDisabled("TFLOP/s of each verified variant appear here.");
    ImGui::TextDisabled("%s", why.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  top *= 1.1;
  float left = 44, bottom = 22, pad = 8;
  ImVec2 a(p.x + left, p.y + pad), b(p.x + size.x - pad, p.y + size.y - bottom);
  float h = b.y - a.y;
  // Axis ticks.
  for (int i = 0; i <= 4; ++i) {
    float y = b.y - h * i / 4;
    char t[16];
    std::snprintf(t, sizeof t, "%.0f", top * i / 4);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), IM_COL32(60, 66, 80, 255));
    dl->AddText(ImVec2(p.x + 4, y - 7), colors::textDim, t);
  }
  float slot = (b.x - a.x) / measured.size();
  float barW = std::min(60.0f, slot * 0.7f);
  for (size_t i = 0; i < measured.size(); ++i) {
    const RunRecord *r = measured[i];
    float x = a.x + slot * (i + 0.5f);
    float y = b.y - static_cast<float>(h * *r->tflops / top);
    bool sel = app.selectedRun() == r->id;
    dl->AddRectFilled(ImVec2(x - barW / 2, y), ImVec2(x + barW / 2, b.y),
                      sel ? IM_COL32(110, 190, 255, 255) : IM_COL32(70, 140, 210, 255), 3);
    char v[32];
    std::snprintf(v, sizeof v, "%.0f", *r->tflops);
    ImVec2 vs = ImGui::CalcTextSize(v);
    dl->AddText(ImVec2(x - vs.x / 2, y - vs.y - 1), colors::text, v);
    char l[16];
    std::snprintf(l, sizeof l, "#%llu", static_cast<unsigned long long>(r->id));
    ImVec2 ls = ImGui::CalcTextSize(l);
    dl->AddText(ImVec2(x - ls.x / 2, b.y + 3), colors::textDim, l);
  }
  if (reference > 0) {
    float y = b.y - static_cast<float>(h * reference / top);
    for (float x = a.x; x < b.x; x += 10)
      dl->AddLine(ImVec2(x, y), ImVec2(std::min(b.x, x + 6), y), colors::good, 1.5f);
    char t[48];
    std::snprintf(t, sizeof t, "reference %.0f", reference);
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(t).x, y - 16), colors::good, t);
  }
  ImGui::Dummy(size);
}

} // namespace

void stagecraft::app::drawRunsPanel(AppState &app, RunsUi &ui) {
  runnerLine(app, ui);
  std::vector<const RunRecord *> runs = app.currentRuns();
  // The table first: its fixed columns take 530 px and the steady state
  // needs room to read (at the default window the chart's third squeezed
  // it to one letter: the ninth sweep's M11); the chart takes what is left,
  // and none below 160 px (the table has the TFLOP/s).
  float avail = ImGui::GetContentRegionAvail().x;
  constexpr float kTableMin = 680.0f;
  float chartW = std::min({420.0f, avail * 0.34f, std::max(0.0f, avail - kTableMin)});
  if (chartW < 160.0f)
    chartW = 0;
  ImGui::BeginChild("runtable", ImVec2(chartW > 0 ? -chartW - 8 : 0, 0));
  ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                          ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable |
                          ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("runs", 8, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    auto fixed = [](const char *name, float w) {
      ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthFixed, w);
    };
    fixed("#", 28);
    ImGui::TableSetupColumn("steady state", ImGuiTableColumnFlags_WidthStretch);
    fixed("stages", 50);
    fixed("smem", 78);
    fixed("regs", 64);
    fixed("result", 190);
    fixed("TFLOP/s", 64);
    fixed("vs ref", 56);
    ImGui::TableHeadersRow();
    // Newest first: the variant just made is where the eye is.
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      const RunRecord &r = **it;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      char id[24];
      std::snprintf(id, sizeof id, "%llu", static_cast<unsigned long long>(r.id));
      if (ImGui::Selectable(id, app.selectedRun() == r.id,
                            ImGuiSelectableFlags_SpanAllColumns))
        app.restoreRun(r.id);
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
        ImGui::Text("variant #%llu: click to restore its schedule%s",
                    static_cast<unsigned long long>(r.id),
                    r.tileOrder.empty() ? "" : " and tile order");
        if (!r.error.empty())
          ImGui::TextColored(toVec4(colors::bad), "%s", r.error.c_str());
        for (const std::string &w : r.warnings)
          ImGui::TextColored(toVec4(colors::warn), "%s", w.c_str());
        if (r.medianUs)
          ImGui::Text("median %.1f us", *r.medianUs);
        if (!r.device.empty())
          ImGui::Text("on %s", r.device.c_str());
        if (!r.bundleDir.empty())
          ImGui::TextDisabled("%s", r.bundleDir.c_str());
        ImGui::TextDisabled("compiled in %.2f s", r.compileSeconds);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
      if (ImGui::BeginPopupContextItem()) {
        if (ImGui::MenuItem("Run again", nullptr, false, !r.bundleDir.empty()))
          app.runVariant(r.id);
        if (ImGui::MenuItem("Restore schedule"))
          app.restoreRun(r.id);
        ImGui::EndPopup();
      }
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(r.steadyState.c_str());
      if (!r.tileOrder.empty()) { // a persistent kernel: variants differ in it too
        ImGui::SameLine();
        ImGui::TextDisabled("tiles %s", r.tileOrder.c_str());
      }
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%lld", static_cast<long long>(r.stages));
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(formatBytes(r.smemBytes).c_str());
      ImGui::TableSetColumnIndex(4);
      if (r.registers >= 0)
        ImGui::Text("%d%s", r.registers, r.spillBytes ? " (spills)" : "");
      else
        ImGui::TextDisabled("-");
      ImGui::TableSetColumnIndex(5);
      ImGui::TextColored(toVec4(resultColor(r)), "%s", r.resultText().c_str());
      if (!r.warnings.empty()) { // the runner's caveats: hover the row for them
        ImGui::SameLine();
        ImGui::TextColored(toVec4(colors::warn), "(!)");
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
          for (const std::string &w : r.warnings)
            ImGui::TextColored(toVec4(colors::warn), "%s", w.c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
      }
      ImGui::TableSetColumnIndex(6);
      if (r.tflops)
        ImGui::Text("%.1f", *r.tflops);
      else
        ImGui::TextDisabled("-");
      ImGui::TableSetColumnIndex(7);
      if (r.ratioToReference)
        ImGui::Text("%.0f%%", *r.ratioToReference * 100);
      else
        ImGui::TextDisabled("-");
    }
    ImGui::EndTable();
  }
  if (runs.empty())
    ImGui::TextDisabled("Each compiled schedule becomes a variant here.");
  ImGui::EndChild();
  if (chartW <= 0)
    return;
  ImGui::SameLine();
  ImGui::BeginChild("runchart", ImVec2(0, 0));
  barChart(app, runs);
  ImGui::EndChild();
}
