//===- LessonPanel.cpp - the lesson beside the board -----------------------===//
//
// The lesson's text, its goal as a checklist against the current schedule,
// and what each move changed (newest first). Reset, the next lesson, close.
//
//===----------------------------------------------------------------------===//
#include "app/Panels.h"
#include "app/Theme.h"

#include <imgui.h>

#include <algorithm>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

/// `**bold**` markers are dropped (the font has no inline bold); `code`
/// keeps its backticks, which read as code in the body font.
std::string plain(const std::string &line) {
  std::string s;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line.compare(i, 2, "**") == 0) {
      ++i;
      continue;
    }
    s += line[i];
  }
  return s;
}

/// A small Markdown subset: "#" headings, "- " bullets (indented lines
/// continue them), ``` code blocks, paragraphs separated by blank lines.
void drawMarkdown(const std::string &text) {
  const Fonts &f = fonts();
  std::string block;
  bool bullet = false, code = false;
  auto flush = [&] {
    if (!block.empty()) {
      if (bullet) {
        ImGui::Bullet();
        ImGui::SameLine();
      }
      ImGui::TextWrapped("%s", plain(block).c_str());
    }
    block.clear();
    bullet = false;
  };
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("```", 0) == 0) {
      flush();
      code = !code;
      continue;
    }
    if (code) {
      if (f.mono)
        ImGui::PushFont(f.mono);
      ImGui::TextColored(toVec4(colors::textDim), "%s", line.c_str());
      if (f.mono)
        ImGui::PopFont();
      continue;
    }
    size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string::npos) {
      flush();
      ImGui::Spacing();
      continue;
    }
    if (line[0] == '#') {
      flush();
      size_t t = line.find_first_not_of("# ");
      if (f.bold)
        ImGui::PushFont(f.bold);
      ImGui::TextWrapped("%s", plain(t == std::string::npos ? "" : line.substr(t)).c_str());
      if (f.bold)
        ImGui::PopFont();
      continue;
    }
    if (line.rfind("- ", 0) == 0 || line.rfind("* ", 0) == 0) {
      flush();
      bullet = true;
      block = line.substr(2);
      continue;
    }
    if (bullet && indent == 0)
      flush(); // an unindented line ends the bullet
    block += (block.empty() ? "" : " ") + line.substr(indent);
  }
  flush();
}

void checklist(const GoalStatus &status) {
  for (const CriterionResult &r : status.results) {
    ImU32 col = !r.judged ? colors::textDim : r.met ? colors::good : colors::bad;
    const char *mark = !r.judged ? "[?]" : r.met ? "[x]" : "[ ]";
    ImGui::TextColored(toVec4(col), "%s", mark);
    ImGui::SameLine();
    std::string text = r.text + (r.optional ? "  (bonus)" : "");
    ImGui::PushStyleColor(ImGuiCol_Text, toVec4(r.met ? colors::text : colors::textDim));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
  }
}

} // namespace

void stagecraft::app::drawLessonPanel(AppState &app, LessonUi &ui) {
  if (!app.hasLesson()) {
    ui.drawnTitle.clear();
    ImGui::TextDisabled("No lesson open: Help > Lessons.");
    return;
  }
  const Lesson &lesson = app.lesson();
  const Fonts &f = fonts();
  GoalStatus status = app.lessonStatus();
  ui.complete = status.complete();
  ui.drawnTitle = lesson.title;

  if (f.bold)
    ImGui::PushFont(f.bold);
  ImGui::TextWrapped("%s", lesson.title.c_str());
  if (f.bold)
    ImGui::PopFont();

  // Position among the lessons, and the buttons.
  int index = -1;
  for (size_t i = 0; i < ui.lessons.size(); ++i)
    if (ui.lessons[i] == lesson.dir)
      index = int(i);
  if (index >= 0)
    ImGui::TextDisabled("lesson %d of %zu", index + 1, ui.lessons.size());
  if (ImGui::SmallButton("Reset"))
    app.resetLesson();
  ImGui::SameLine();
  bool hasNext = index >= 0 && index + 1 < int(ui.lessons.size());
  if (hasNext && ImGui::SmallButton("Next lesson"))
    ui.openRequest = ui.lessons[index + 1];
  if (hasNext)
    ImGui::SameLine();
  if (ImGui::SmallButton("Close lesson"))
    app.closeLesson();

  // The goal first: it is what changes after every move.
  ImGui::Separator();
  float goalH = ImGui::GetContentRegionAvail().y * 0.30f;
  ImGui::BeginChild("goal", ImVec2(0, goalH), false);
  if (status.complete()) {
    ImGui::PushStyleColor(ImGuiCol_Text, toVec4(colors::good));
    if (f.bold)
      ImGui::PushFont(f.bold);
    ImGui::TextWrapped("Goal reached!%s", hasNext ? " Go on with the next lesson." : "");
    if (f.bold)
      ImGui::PopFont();
    ImGui::PopStyleColor();
  } else {
    ImGui::TextWrapped("Goal (%d of %d): %s", status.requiredMet(), status.requiredCount(),
                       lesson.summary.c_str());
  }
  checklist(status);
  ImGui::EndChild();

  ImGui::Separator();
  float changesH = ImGui::GetContentRegionAvail().y * 0.36f;
  ImGui::BeginChild("changes", ImVec2(0, changesH), false);
  const auto &log = app.lessonLog();
  if (log.empty())
    ImGui::TextDisabled("What each move changes will show here. Drag a card on the board.");
  int shown = 0;
  for (auto it = log.rbegin(); it != log.rend() && shown < 8; ++it, ++shown) {
    ImGui::PushStyleColor(ImGuiCol_Text, toVec4(it->reachedGoal ? colors::good : colors::text));
    ImGui::TextWrapped("%s%s", it->what.c_str(), it->reachedGoal ? "  (goal reached)" : "");
    ImGui::PopStyleColor();
    for (const std::string &line : it->lines) {
      ImGui::Bullet();
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, toVec4(shown == 0 ? colors::text : colors::textDim));
      ImGui::TextWrapped("%s", line.c_str());
      ImGui::PopStyleColor();
    }
    if (it->lines.empty())
      ImGui::TextDisabled("  (the schedule is the same)");
    ImGui::Spacing();
  }
  ImGui::EndChild();

  ImGui::Separator();
  ImGui::BeginChild("text", ImVec2(0, 0), false);
  drawMarkdown(lesson.text);
  ImGui::EndChild();
}
