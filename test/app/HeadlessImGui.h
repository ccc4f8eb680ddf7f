//===- HeadlessImGui.h - ImGui frames without a window -------------*- C++ -*-===//
//
// An ImGui context with no platform or renderer backend: the font atlas is
// built, io.DisplaySize set, and each frame is NewFrame / draw / Render. The
// mouse is io.MousePos, io.MouseDown and io.MouseWheel (Dear ImGui 1.86 has
// no input events API yet). Nothing is rasterized; the draw lists are built
// as in the app, so hit testing and interaction run for real.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_TEST_APP_HEADLESSIMGUI_H
#define STAGECRAFT_TEST_APP_HEADLESSIMGUI_H

#include <imgui.h>

namespace stagecraft::app::test {

struct HeadlessImGui {
  ImGuiContext *ctx;
  explicit HeadlessImGui(ImVec2 size = ImVec2(1600, 1000)) {
    ctx = ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = size;
    io.DeltaTime = 1.0f / 60;
    unsigned char *pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h); // builds the atlas
  }
  ~HeadlessImGui() { ImGui::DestroyContext(ctx); }
  HeadlessImGui(const HeadlessImGui &) = delete;
  HeadlessImGui &operator=(const HeadlessImGui &) = delete;
};

} // namespace stagecraft::app::test

#endif
