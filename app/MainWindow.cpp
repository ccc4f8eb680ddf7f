//===- MainWindow.cpp - the window's fixed layout, menus, shortcuts -------===//
#include "app/MainWindow.h"
#include "app/Theme.h"

// Key codes only: the GLFW backend fills io.KeysDown[] by GLFW key code.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdio>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

void panelTitle(const char *title, const char *hint) {
  const Fonts &f = fonts();
  if (f.bold)
    ImGui::PushFont(f.bold);
  ImGui::TextUnformatted(title);
  if (f.bold)
    ImGui::PopFont();
  if (hint && *hint) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", hint);
  }
}

/// A bordered region of the layout with a title line.
template <typename Fn>
void region(const char *id, ImVec2 pos, ImVec2 size, const char *title,
            const char *hint, Fn body, ImGuiWindowFlags flags = 0) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::BeginChild(id, size, true, flags | ImGuiWindowFlags_NoScrollbar);
  panelTitle(title, hint);
  ImGui::Separator();
  ImGui::BeginChild("body", ImVec2(0, 0), false, flags);
  body();
  ImGui::EndChild();
  ImGui::EndChild();
}

/// `text` cut to `width` pixels with "..." (status line, menu bar).
std::string ellipsize(const std::string &text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width)
    return text;
  std::string t = text;
  while (!t.empty() && ImGui::CalcTextSize((t + "...").c_str()).x > width)
    t.pop_back();
  return t + "...";
}

std::string dirOf(const std::string &path) {
  size_t s = path.rfind('/');
  return s == std::string::npos ? "" : path.substr(0, s);
}

void shortcuts(AppState &app, MainWindowUi &ui) {
  std::vector<KeyPress> keys;
  keys.swap(ui.keys);
  if (ImGui::GetIO().WantTextInput)
    return; // typing in a field: Ctrl+Z belongs to the field
  for (const KeyPress &k : keys) {
    if (k.ctrl && k.key == GLFW_KEY_Z && !k.shift)
      app.undo();
    else if (k.ctrl && (k.key == GLFW_KEY_Y || (k.shift && k.key == GLFW_KEY_Z)))
      app.redo();
    else if (k.ctrl && k.key == GLFW_KEY_O)
      ui.dialog.open(FileDialog::Purpose::OpenIr, dirOf(app.irPath()));
    else if (k.ctrl && k.key == GLFW_KEY_S && app.hasIr()) {
      if (app.irPath().empty())
        ui.dialog.open(FileDialog::Purpose::SaveIrAs, "");
      else
        app.saveIr(app.irPath());
    } else if (k.ctrl && k.key == GLFW_KEY_R)
      app.runCurrent();
    else if (k.key == GLFW_KEY_F5)
      app.recompile();
    else if (k.key == GLFW_KEY_F1)
      ui.showShortcuts = !ui.showShortcuts;
    else if (k.ctrl && k.key == GLFW_KEY_Q)
      ui.quitRequested = true;
  }
}

/// Reads the lessons' titles once (Help > Lessons, "Next lesson").
void listLessonsOnce(MainWindowUi &ui) {
  if (ui.lessonsListed)
    return;
  ui.lessonsListed = true;
  ui.lesson.lessons.clear();
  ui.lessonTitles.clear();
  if (ui.lessonsRoot.empty())
    return;
  for (const std::string &dir : listLessons(ui.lessonsRoot)) {
    llvm::Expected<Lesson> l = loadLesson(dir);
    if (!l) {
      llvm::consumeError(l.takeError()); // opening it will say why
      ui.lessonTitles.push_back({dir, dir.substr(dir.rfind('/') + 1) + " (cannot be read)"});
    } else {
      ui.lessonTitles.push_back({l->dir, l->title});
    }
    ui.lesson.lessons.push_back(ui.lessonTitles.back().first);
  }
}

void menuBar(AppState &app, MainWindowUi &ui) {
  if (!ImGui::BeginMenuBar())
    return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O"))
      ui.dialog.open(FileDialog::Purpose::OpenIr, dirOf(app.irPath()));
    if (ImGui::MenuItem("Open the attention example", nullptr, false,
                        !ui.examplePath.empty()))
      app.openFile(ui.examplePath);
    if (ImGui::BeginMenu("Open recent", !app.recentFiles().empty())) {
      std::vector<std::string> recent = app.recentFiles(); // openFile edits it
      for (const std::string &f : recent)
        if (ImGui::MenuItem(f.c_str()))
          app.openFile(f);
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save IR", "Ctrl+S", false, app.hasIr() && !app.irPath().empty()))
      app.saveIr(app.irPath());
    if (ImGui::MenuItem("Save IR as...", nullptr, false, app.hasIr()))
      ui.dialog.open(FileDialog::Purpose::SaveIrAs, app.irPath());
    ImGui::Separator();
    if (ImGui::MenuItem("Save schedule...", nullptr, false, app.hasIr()))
      ui.dialog.open(FileDialog::Purpose::SaveSchedule, dirOf(app.irPath()));
    if (ImGui::MenuItem("Load schedule...", nullptr, false, app.hasIr()))
      ui.dialog.open(FileDialog::Purpose::LoadSchedule, dirOf(app.irPath()));
    ImGui::Separator();
    if (ImGui::MenuItem("Open measured trace...", nullptr, false, app.hasIr()))
      ui.dialog.open(FileDialog::Purpose::OpenTrace,
                     app.loadedTrace() ? app.loadedTrace()->path : dirOf(app.irPath()));
    ImGui::Separator();
    if (ImGui::MenuItem("Export kernel...", nullptr, false, app.hasIr()))
      ui.dialog.open(FileDialog::Purpose::ExportKernel,
                     (dirOf(app.irPath()).empty() ? std::string(".") : dirOf(app.irPath())) +
                         "/" + app.kernel() + "_export");
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q"))
      ui.quitRequested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, app.editor().canUndo()))
      app.undo();
    if (ImGui::MenuItem("Redo", "Ctrl+Y", false, app.editor().canRedo()))
      app.redo();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Run")) {
    if (ImGui::MenuItem("Recompile", "F5", false, app.hasIr()))
      app.recompile();
    if (ImGui::MenuItem("Run this schedule", "Ctrl+R", false, app.hasIr()))
      app.runCurrent();
    bool autoRun = app.autoRun();
    if (ImGui::MenuItem("Run each compile", nullptr, &autoRun))
      app.setAutoRun(autoRun);
    if (ImGui::MenuItem("Restart the runner"))
      app.runner().restart();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    listLessonsOnce(ui);
    if (ImGui::BeginMenu("Lessons", !ui.lessonTitles.empty())) {
      int n = 0;
      for (const auto &[dir, title] : ui.lessonTitles) {
        std::string label = std::to_string(++n) + ". " + title;
        bool open = app.hasLesson() && app.lesson().dir == dir;
        if (ImGui::MenuItem(label.c_str(), nullptr, open))
          ui.lesson.openRequest = dir;
      }
      ImGui::EndMenu();
    }
    ImGui::MenuItem("Keyboard shortcuts", "F1", &ui.showShortcuts);
    ImGui::EndMenu();
  }
  // The file and kernel, right-aligned.
  if (app.hasIr()) {
    std::string what = app.kernel() + "  -  " +
                       (app.irPath().empty() ? "<untitled>" : app.irPath());
    float room = ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX() - 40;
    what = ellipsize(what, room);
    float w = ImGui::CalcTextSize(what.c_str()).x;
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - w - 8);
    ImGui::TextDisabled("%s", what.c_str());
  }
  ImGui::EndMenuBar();
}

void statusLine(AppState &app) {
  const CompileView &v = app.compileView();
  ImGui::Separator();
  // Compile state first: it is what changes after every edit.
  switch (v.state) {
  case CompileView::State::Idle:
    ImGui::TextDisabled("idle");
    break;
  case CompileView::State::Compiling: {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - v.started).count();
    ImGui::TextColored(toVec4(colors::warn), "compiling... %.1f s", s);
    break;
  }
  case CompileView::State::Ok:
    ImGui::TextColored(toVec4(colors::good), "compiled ok in %.2f s", v.seconds());
    break;
  case CompileView::State::Error:
    // An illegal schedule stops before any code is made: say so (it read
    // "compile error (0.00 s)": the fourteenth sweep's M8).
    // ("schedule illegal" only when the board's rules refuse it: a bad
    // size or target stops early too.)
    if (!v.hasFull && app.hasIr() && !app.editor().report().legal())
      ImGui::TextColored(toVec4(colors::bad), "schedule illegal");
    else
      ImGui::TextColored(toVec4(colors::bad), "compile error (%.2f s)", v.seconds());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", v.firstError().c_str());
    break;
  }
  ImGui::SameLine(0, 24);
  const StatusMessage &m = app.status();
  ImU32 col = m.level == StatusLevel::Error     ? colors::bad
              : m.level == StatusLevel::Warning ? colors::warn
              : m.level == StatusLevel::Ok      ? colors::text
                                                : colors::textDim;
  std::string runner = ellipsize(app.runner().stateText(), ImGui::GetWindowWidth() * 0.3f);
  float runnerW = ImGui::CalcTextSize(runner.c_str()).x;
  ImGui::PushClipRect(ImGui::GetCursorScreenPos(),
                      ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth() - runnerW - 30,
                             ImGui::GetCursorScreenPos().y + 40),
                      true);
  ImGui::TextColored(toVec4(col), "%s", m.text.c_str());
  ImGui::PopClipRect();
  if (ImGui::IsItemHovered() && !m.text.empty())
    ImGui::SetTooltip("%s", m.text.c_str());
  ImGui::SameLine(ImGui::GetWindowWidth() - runnerW - 14);
  ImGui::TextColored(toVec4(app.runner().state() == RunnerState::Ready ? colors::good
                                                                       : colors::textDim),
                     "%s", runner.c_str());
}

void shortcutsWindow(MainWindowUi &ui) {
  if (!ui.showShortcuts)
    return;
  ImGui::SetNextWindowSize(ImVec2(420, 0), ImGuiCond_Appearing);
  if (ImGui::Begin("Keyboard shortcuts", &ui.showShortcuts,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
    const char *rows[][2] = {
        {"Ctrl+O", "open a loop IR file"},
        {"Ctrl+S", "save the IR with the board's schedule"},
        {"Ctrl+Z", "undo a schedule edit"},
        {"Ctrl+Y / Ctrl+Shift+Z", "redo"},
        {"F5", "recompile"},
        {"Ctrl+R", "run this schedule on the GPU"},
        {"F1", "this list"},
        {"Ctrl+Q", "quit (the session is autosaved)"},
        {"drag a card", "move an op to another stage / warp group"},
        {"right-click a dot", "set its wgmma wait depth"},
    };
    if (ImGui::BeginTable("keys", 2)) {
      for (auto &r : rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(r[0]);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextDisabled("%s", r[1]);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void fileDialog(AppState &app, MainWindowUi &ui) {
  if (!ui.dialog.draw())
    return;
  const std::string &p = ui.dialog.path();
  switch (ui.dialog.purpose()) {
  case FileDialog::Purpose::OpenIr: app.openFile(p); break;
  case FileDialog::Purpose::SaveIrAs: app.saveIr(p); break;
  case FileDialog::Purpose::SaveSchedule: app.saveSchedule(p); break;
  case FileDialog::Purpose::LoadSchedule: app.loadSchedule(p); break;
  case FileDialog::Purpose::ExportKernel: app.exportKernel(p); break;
  case FileDialog::Purpose::OpenTrace: app.openMeasuredTrace(p); break;
  case FileDialog::Purpose::None: break;
  }
}

} // namespace

void stagecraft::app::drawMainWindow(AppState &app, MainWindowUi &ui) {
  shortcuts(app, ui);
  if (app.hasLesson())
    listLessonsOnce(ui); // "lesson N of M", "Next lesson"
  if (!ui.lesson.openRequest.empty()) {
    listLessonsOnce(ui);
    app.openLesson(ui.lesson.openRequest);
    ui.lesson.openRequest.clear();
  }
  ImGuiIO &io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("Stagecraft", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_MenuBar |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
  menuBar(app, ui);

  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float statusH = ImGui::GetFrameHeightWithSpacing() + 4;
  float gap = 6;
  if (ui.timelineOnly) {
    ui.timeline.maxLaneHeight = 30;
    region("timeline", origin, ImVec2(avail.x, avail.y - statusH), "Timeline",
           "wheel: zoom   drag: pan   double-click: all   click a zone: select its unit",
           [&] { drawTimelinePanel(app, ui.timeline); }, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + avail.y - statusH + 2));
    statusLine(app);
    ImGui::End();
    shortcutsWindow(ui);
    fileDialog(app, ui);
    return;
  }
  ui.timeline.maxLaneHeight = 17;
  float runsH = std::max(200.0f, avail.y * 0.28f);
  float topH = avail.y - runsH - statusH - gap;
  float timelineW = std::floor((avail.x - gap) * 0.56f);
  float leftW = std::max(280.0f, avail.x * 0.235f);
  // A lesson needs room for its text beside the board.
  float rightW = std::max(280.0f, avail.x * (app.hasLesson() ? 0.3f : 0.225f));
  float centerW = avail.x - leftW - rightW - 2 * gap;
  float boardH = topH * 0.56f;
  float lowerH = topH - boardH - gap;
  float ssW = centerW * 0.42f;

  region("ir", origin, ImVec2(leftW, topH), "IR source", "click an op to select it",
         [&] { drawIrPanel(app, ui.ir); }, ImGuiWindowFlags_NoScrollbar);
  ImVec2 c0(origin.x + leftW + gap, origin.y);
  region("board", c0, ImVec2(centerW, boardH), "Schedule board",
         "rows: warp groups   columns: stages   drag a card to move an op",
         [&] { drawBoardPanel(app, ui.board); }, ImGuiWindowFlags_HorizontalScrollbar);
  region("steady", ImVec2(c0.x, c0.y + boardH + gap), ImVec2(ssW - gap / 2, lowerH),
         "Steady state", "and resources", [&] { drawSteadyStatePanel(app); });
  region("graph", ImVec2(c0.x + ssW + gap / 2, c0.y + boardH + gap),
         ImVec2(centerW - ssW - gap / 2, lowerH), "Dependency graph", "of the loop body",
         [&] { drawGraphPanel(app); }, ImGuiWindowFlags_NoScrollbar);
  if (app.hasLesson()) {
    region("lesson", ImVec2(c0.x + centerW + gap, origin.y), ImVec2(rightW, topH), "Lesson",
           "Help > Lessons", [&] {
             if (ImGui::BeginTabBar("lessontabs")) {
               if (ImGui::BeginTabItem("Lesson")) {
                 drawLessonPanel(app, ui.lesson);
                 ImGui::EndTabItem();
               }
               if (ImGui::BeginTabItem("Compile output")) {
                 drawCompilePanel(app, ui.compile);
                 ImGui::EndTabItem();
               }
               ImGui::EndTabBar();
             }
           }, ImGuiWindowFlags_NoScrollbar);
  } else {
    region("compile", ImVec2(c0.x + centerW + gap, origin.y), ImVec2(rightW, topH),
           "Compile output", "", [&] { drawCompilePanel(app, ui.compile); },
           ImGuiWindowFlags_NoScrollbar);
  }
  region("timeline", ImVec2(origin.x, origin.y + topH + gap), ImVec2(timelineW, runsH),
         "Timeline", "wheel: zoom   drag: pan   double-click: all   click a zone: select its unit",
         [&] { drawTimelinePanel(app, ui.timeline); }, ImGuiWindowFlags_NoScrollbar);
  region("runs", ImVec2(origin.x + timelineW + gap, origin.y + topH + gap),
         ImVec2(avail.x - timelineW - gap, runsH), "Runs",
         "every compiled variant; click one to restore its schedule",
         [&] { drawRunsPanel(app, ui.runs); }, ImGuiWindowFlags_NoScrollbar);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + avail.y - statusH + 2));
  statusLine(app);
  ImGui::End();

  shortcutsWindow(ui);
  fileDialog(app, ui);
}
