//===- Theme.cpp - fonts and colors shared by the panels ------------------===//
#include "app/Theme.h"

#include <sys/stat.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {
Fonts gFonts;

bool fileExists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/// What DejaVu draws beyond Latin-1: paths and unit names in Greek or
/// Cyrillic, arrows, math signs and superscripts the panels print (they were
/// "?": the fourteenth sweep's M6). CJK needs a font DejaVu is not.
const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF, // Basic Latin, Latin-1
    0x0100, 0x024F, // Latin Extended-A and -B
    0x0370, 0x03FF, // Greek
    0x0400, 0x052F, // Cyrillic
    0x1D00, 0x1DBF, // phonetic extensions (the superscript T of Aᵀ)
    0x2000, 0x209F, // punctuation, super- and subscripts
    0x2190, 0x22FF, // arrows, math operators
    0x2500, 0x25FF, // box drawing, shapes
    0,
};

ImFont *loadFirst(std::initializer_list<const char *> paths, float size) {
  ImGuiIO &io = ImGui::GetIO();
  for (const char *p : paths)
    if (fileExists(p))
      if (ImFont *f = io.Fonts->AddFontFromFileTTF(p, size, nullptr, kGlyphRanges))
        return f;
  ImFontConfig cfg;
  cfg.SizePixels = size;
  return io.Fonts->AddFontDefault(&cfg);
}
} // namespace

const Fonts &stagecraft::app::fonts() { return gFonts; }

ImVec4 stagecraft::app::toVec4(ImU32 c) {
  return ImGui::ColorConvertU32ToFloat4(c);
}

void stagecraft::app::setupTheme(float scale) {
  const char *dejavu = "/usr/share/fonts/truetype/dejavu/";
  std::string sans = std::string(dejavu) + "DejaVuSans.ttf";
  std::string bold = std::string(dejavu) + "DejaVuSans-Bold.ttf";
  std::string mono = std::string(dejavu) + "DejaVuSansMono.ttf";
  gFonts.ui = loadFirst({sans.c_str()}, 15.0f * scale);
  gFonts.bold = loadFirst({bold.c_str(), sans.c_str()}, 15.0f * scale);
  gFonts.mono = loadFirst({mono.c_str()}, 14.0f * scale);
  gFonts.large = loadFirst({mono.c_str()}, 17.0f * scale);

  ImGuiStyle &s = ImGui::GetStyle();
  ImGui::StyleColorsDark(&s);
  s.WindowRounding = 0;
  s.ChildRounding = 4;
  s.FrameRounding = 3;
  s.PopupRounding = 4;
  s.TabRounding = 3;
  s.GrabRounding = 3;
  s.WindowBorderSize = 0;
  s.ChildBorderSize = 1;
  s.FramePadding = ImVec2(6, 3);
  s.ItemSpacing = ImVec2(8, 5);
  s.WindowPadding = ImVec2(8, 6);
  ImVec4 *c = s.Colors;
  c[ImGuiCol_WindowBg] = toVec4(IM_COL32(24, 27, 34, 255));
  c[ImGuiCol_ChildBg] = toVec4(IM_COL32(28, 31, 39, 255));
  c[ImGuiCol_PopupBg] = toVec4(IM_COL32(36, 40, 50, 250));
  c[ImGuiCol_Border] = toVec4(IM_COL32(58, 63, 78, 255));
  c[ImGuiCol_MenuBarBg] = toVec4(IM_COL32(32, 35, 44, 255));
  c[ImGuiCol_Header] = toVec4(IM_COL32(60, 80, 120, 180));
  c[ImGuiCol_HeaderHovered] = toVec4(IM_COL32(70, 95, 145, 200));
  c[ImGuiCol_HeaderActive] = toVec4(IM_COL32(80, 110, 165, 220));
  c[ImGuiCol_Tab] = toVec4(IM_COL32(40, 46, 60, 255));
  c[ImGuiCol_TabActive] = toVec4(IM_COL32(62, 82, 125, 255));
  c[ImGuiCol_TabHovered] = toVec4(IM_COL32(75, 98, 150, 255));
  c[ImGuiCol_TitleBg] = toVec4(IM_COL32(32, 35, 44, 255));
  c[ImGuiCol_TitleBgActive] = toVec4(IM_COL32(32, 35, 44, 255));
  c[ImGuiCol_FrameBg] = toVec4(IM_COL32(40, 45, 58, 255));
  c[ImGuiCol_TableHeaderBg] = toVec4(IM_COL32(40, 45, 58, 255));
  c[ImGuiCol_TableRowBgAlt] = toVec4(IM_COL32(255, 255, 255, 8));
}

ImU32 stagecraft::app::unitFill(UnitKind kind, float alpha) {
  int a = static_cast<int>(alpha * 255);
  switch (kind) {
  case UnitKind::Load: return IM_COL32(46, 110, 178, a);
  case UnitKind::Dot: return IM_COL32(196, 126, 28, a);
  case UnitKind::Compute: return IM_COL32(122, 82, 176, a);
  }
  return IM_COL32(100, 100, 100, a);
}

ImU32 stagecraft::app::unitAccent(UnitKind kind) {
  switch (kind) {
  case UnitKind::Load: return IM_COL32(120, 185, 255, 255);
  case UnitKind::Dot: return IM_COL32(255, 196, 100, 255);
  case UnitKind::Compute: return IM_COL32(196, 160, 255, 255);
  }
  return IM_COL32(200, 200, 200, 255);
}
