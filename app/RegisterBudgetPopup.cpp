//===- RegisterBudgetPopup.cpp - a warp group's register budget -----------===//
#include "app/RegisterBudgetPopup.h"
#include "app/Theme.h"

#include <algorithm>
#include <cstdio>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

/// setmaxnreg's counts: multiples of 8 from 24 to 256.
constexpr int kMin = 24, kMax = 256, kStep = 8;

int toCount(int v) { return std::clamp((v + kStep / 2) / kStep * kStep, kMin, kMax); }

void remember(ImVec2 &mn, ImVec2 &mx) {
  mn = ImGui::GetItemRectMin();
  mx = ImGui::GetItemRectMax();
}

} // namespace

void stagecraft::app::drawRegisterBudgetPopup(AppState &app, int64_t group,
                                              RegisterBudgetUi &ui) {
  const ScheduleEditor &ed = app.editor();
  const ScheduleReport &r = ed.report();
  const GroupRegisters *gr = nullptr;
  for (const GroupRegisters &g : r.registers)
    if (g.group == group)
      gr = &g;
  ui.shown = true;
  ui.group = group;
  ImGui::Text("Warp group %lld: register budget (setmaxnreg)", static_cast<long long>(group));
  if (!gr) {
    ImGui::TextDisabled("no unit runs in this group: it has no registers to budget");
    return;
  }
  // Copies: an edit below replaces the report `gr` points into.
  const int64_t budget = gr->budget, regs = gr->regsPerThread;
  const bool chosen = gr->chosen;
  if (!r.warpSpecialized)
    ImGui::TextDisabled("not warp-specialized: there is no setmaxnreg to choose a count for");
  ImGui::TextDisabled("about %lld registers per thread at the peak; %s budget %lld",
                      static_cast<long long>(regs), chosen ? "chosen" : "default",
                      static_cast<long long>(budget));
  int current = static_cast<int>(std::clamp<int64_t>(budget, kMin, kMax));
  if (ImGui::IsWindowAppearing() || ui.draftGroup != group) {
    ui.draft = current;
    ui.draftGroup = group;
  }

  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::SliderInt("##budget", &ui.draft, kMin, kMax, "%d registers"))
    ui.draft = toCount(ui.draft);
  remember(ui.sliderMin, ui.sliderMax);
  if (ImGui::IsItemDeactivatedAfterEdit() && ui.draft != budget)
    app.setRegisters(group, ui.draft);
  else if (!ImGui::IsItemActive())
    ui.draft = current;

  if (ImGui::Button("-8")) {
    ui.draft = toCount(current - kStep);
    app.setRegisters(group, ui.draft);
  }
  remember(ui.minusMin, ui.minusMax);
  ImGui::SameLine();
  if (ImGui::Button("+8")) {
    ui.draft = toCount(current + kStep);
    app.setRegisters(group, ui.draft);
  }
  remember(ui.plusMin, ui.plusMax);
  ImGui::SameLine();
  int typed = current;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  if (ImGui::InputInt("##typed", &typed, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue)) {
    ui.draft = toCount(typed);
    app.setRegisters(group, ui.draft);
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!chosen);
  if (ImGui::Button("default"))
    app.setRegisters(group, 0);
  ImGui::EndDisabled();
  remember(ui.defaultMin, ui.defaultMax);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the default share: a producer 24, the consumers what is left of the "
                      "block's registers");

  // What is wrong with the group's budget now, in the rules' words.
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  for (const Violation &v : r.violations)
    if (v.rule == Rule::Registers &&
        std::find(v.groups.begin(), v.groups.end(), group) != v.groups.end())
      ImGui::TextColored(toVec4(colors::bad), "%s", v.message.c_str());
  ImGui::PopTextWrapPos();
}
