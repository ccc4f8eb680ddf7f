//===- Theme.h - fonts and colors shared by the panels ------------*- C++ -*-===//
#ifndef STAGECRAFT_APP_THEME_H
#define STAGECRAFT_APP_THEME_H

#include "core/Schedule/LoopGraph.h"

#include <imgui.h>

namespace stagecraft::app {

struct Fonts {
  ImFont *ui = nullptr;    // proportional, body text
  ImFont *bold = nullptr;  // card titles, headers
  ImFont *mono = nullptr;  // IR, PTX
  ImFont *large = nullptr; // the steady-state line
};
/// The fonts loaded by setupTheme (ImGui's default font where a file was
/// missing: the app must start on a machine without DejaVu).
const Fonts &fonts();

/// Loads fonts (DejaVu when installed) into the current context's atlas and
/// sets the style. `scale` multiplies font sizes (HiDPI).
void setupTheme(float scale = 1.0f);

/// Card colors per unit kind: loads (memory) blue, dots (tensor cores)
/// amber, the rest (CUDA-core math) violet. Chosen to stay distinct for the
/// common color-vision deficiencies.
ImU32 unitFill(UnitKind kind, float alpha = 1.0f);
ImU32 unitAccent(UnitKind kind);

namespace colors {
constexpr ImU32 text = IM_COL32(230, 232, 238, 255);
constexpr ImU32 textDim = IM_COL32(150, 156, 170, 255);
constexpr ImU32 good = IM_COL32(90, 200, 120, 255);
constexpr ImU32 bad = IM_COL32(235, 85, 80, 255);
constexpr ImU32 warn = IM_COL32(240, 180, 60, 255);
constexpr ImU32 carried = IM_COL32(255, 140, 60, 255);
constexpr ImU32 grid = IM_COL32(70, 76, 92, 255);
constexpr ImU32 cellBg = IM_COL32(34, 38, 48, 255);
constexpr ImU32 cellBgAlt = IM_COL32(40, 44, 56, 255);
constexpr ImU32 selection = IM_COL32(255, 255, 255, 255);
} // namespace colors

ImVec4 toVec4(ImU32 c);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_THEME_H
