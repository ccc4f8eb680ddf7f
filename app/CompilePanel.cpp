//===- CompilePanel.cpp - diagnostics, IR after each pass, PTX, ptxas -----===//
#include "app/Panels.h"
#include "app/Theme.h"

#include <imgui_stdlib.h>

#include <cstdio>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

/// Read-only, selectable (copyable) text in the mono font.
void codeView(const char *id, const std::string &text) {
  const Fonts &f = fonts();
  if (f.mono)
    ImGui::PushFont(f.mono);
  // InputTextMultiline wants a mutable string; ReadOnly never writes to it.
  std::string &mutableText = const_cast<std::string &>(text);
  ImGui::InputTextMultiline(id, &mutableText, ImVec2(-1, -1),
                            ImGuiInputTextFlags_ReadOnly);
  if (f.mono)
    ImGui::PopFont();
}

ImVec4 diagnosticColor(const std::string &d) {
  if (d.find("error:") != std::string::npos)
    return toVec4(IM_COL32(255, 140, 130, 255));
  if (d.find("warning:") != std::string::npos)
    return toVec4(colors::warn);
  return toVec4(colors::textDim);
}

} // namespace

void stagecraft::app::drawTargetControl(AppState &app) {
  static const char *const kTargets[] = {"sm_90a", "sm_100a"};
  static const char *const kLabels[] = {"sm_90a (Hopper)", "sm_100a (Blackwell, compile-only)"};
  int current = app.target() == "sm_100a" ? 1 : 0;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::Combo("target", &current, kLabels, 2))
    app.setTarget(kTargets[current]);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The GPU the kernel is compiled for. sm_100a lowers the loop with "
                      "tcgen05.mma and accumulators in tensor memory; there is no Blackwell GPU "
                      "here, so its variants are compiled (PTX, ptxas) but not run.");
  if (app.compileOnly()) {
    ImGui::SameLine();
    ImGui::TextColored(toVec4(colors::warn), "compile-only: no runner for %s",
                       app.target().c_str());
  }
}

void stagecraft::app::drawCompilePanel(AppState &app, CompileUi &ui) {
  drawTargetControl(app);
  const CompileView &v = app.compileView();
  switch (v.state) {
  case CompileView::State::Idle:
    ImGui::TextDisabled("no compile yet");
    break;
  case CompileView::State::Compiling: {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             v.started).count();
    ImGui::TextColored(toVec4(colors::warn), "compiling%s... %.1f s",
                       v.hasPtx       ? " (PTX ready; reference, cubin and IR text follow)"
                       : v.hasChecked ? " (schedule ok, generating code)"
                                      : "",
                       s);
    break;
  }
  case CompileView::State::Ok:
    ImGui::TextColored(toVec4(colors::good), "ok");
    break;
  case CompileView::State::Error:
    ImGui::TextColored(toVec4(colors::bad), "%s",
                       v.hasFull ? "code generation failed" : "schedule check failed");
    break;
  }
  if (v.hasChecked || v.hasFull) {
    // Each from the job's start: the check, the PTX, everything.
    ImGui::SameLine();
    if (v.hasFull && v.hasPtx)
      ImGui::TextDisabled(" check %.0f ms, PTX %.0f ms, all %.2f s", v.checkedSeconds * 1e3,
                          v.ptxSeconds * 1e3, v.fullSeconds);
    else if (v.hasFull)
      ImGui::TextDisabled(" check %.0f ms, all %.2f s", v.checkedSeconds * 1e3,
                          v.fullSeconds);
    else if (v.hasPtx)
      ImGui::TextDisabled(" check %.0f ms, PTX %.0f ms", v.checkedSeconds * 1e3,
                          v.ptxSeconds * 1e3);
    else
      ImGui::TextDisabled(" check %.0f ms", v.checkedSeconds * 1e3);
  }
  const CompileResult *r = v.result();
  if (!r)
    return;

  if (ImGui::BeginTabBar("compiletabs")) {
    char diagLabel[48];
    std::snprintf(diagLabel, sizeof diagLabel, "Diagnostics (%zu)###diag",
                  r->diagnostics.size());
    ImGuiTabItemFlags diagFlags = 0;
    if (ImGui::BeginTabItem(diagLabel, nullptr, diagFlags)) {
      ImGui::BeginChild("diags");
      if (r->diagnostics.empty())
        ImGui::TextDisabled("no diagnostics");
      for (const std::string &d : r->diagnostics) {
        ImGui::PushStyleColor(ImGuiCol_Text, diagnosticColor(d));
        ImGui::TextWrapped("%s", d.c_str());
        ImGui::PopStyleColor();
      }
      if (!v.bundleError.empty())
        ImGui::TextColored(toVec4(colors::bad), "bundle: %s", v.bundleError.c_str());
      if (!v.bundleDir.empty())
        ImGui::TextDisabled("bundle: %s", v.bundleDir.c_str());
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("IR after pass")) {
      if (r->passes.empty()) {
        ImGui::TextDisabled("no IR (the input did not parse)");
      } else {
        int last = static_cast<int>(r->passes.size()) - 1;
        int sel = ui.pass < 0 || ui.pass > last ? last : ui.pass;
        char preview[128];
        std::snprintf(preview, sizeof preview, "%02d %s", sel, r->passes[sel].name.c_str());
        ImGui::SetNextItemWidth(-1);
        if (ImGui::BeginCombo("##pass", preview)) {
          for (int i = 0; i <= last; ++i) {
            char item[160];
            std::snprintf(item, sizeof item, "%02d %s   (%.1f ms)", i,
                          r->passes[i].name.c_str(), r->passes[i].millis);
            if (ImGui::Selectable(item, i == sel))
              ui.pass = i == last ? -1 : i; // -1 follows the newest last pass
          }
          ImGui::EndCombo();
        }
        if (r->passes[sel].ir.empty() && v.state == CompileView::State::Compiling)
          ImGui::TextDisabled("the text of this pass's IR follows the PTX");
        else
          codeView("##ir", r->passes[sel].ir);
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("PTX")) {
      if (r->ptx.empty())
        ImGui::TextDisabled(v.hasFull ? "no PTX: code generation did not get that far "
                                        "(see Diagnostics)"
                                      : "no PTX yet");
      else
        codeView("##ptx", r->ptx);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("ptxas")) {
      const PtxasReport &p = r->ptxas;
      if (!p.ran && v.state == CompileView::State::Compiling && !r->ptx.empty()) {
        ImGui::TextDisabled("ptxas is running");
      } else if (!p.ran) {
        ImGui::TextDisabled(r->ptx.empty()
                                ? "ptxas has not run (no PTX)"
                                : "ptxas did not run (not found: the bundle carries "
                                  "PTX, which the driver JIT-compiles)");
      } else {
        ImGui::Text("registers per thread: %d", p.registers);
        ImGui::Text("static shared memory: %s", formatBytes(p.sharedBytes).c_str());
        bool spills = p.spillStoreBytes || p.spillLoadBytes;
        ImGui::TextColored(toVec4(spills ? colors::bad : colors::good),
                           "spills: %d bytes stored, %d bytes loaded", p.spillStoreBytes,
                           p.spillLoadBytes);
        ImGui::Text("stack frame: %d bytes", p.stackBytes);
        if (!p.wgmmaSerialized.empty())
          ImGui::TextColored(toVec4(colors::bad),
                             "wgmma serialized by ptxas (C7520, %s): slower than predicted",
                             p.wgmmaSerialized.c_str());
        ImGui::Separator();
        codeView("##ptxas", p.text);
      }
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
}
