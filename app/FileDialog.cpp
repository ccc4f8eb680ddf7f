//===- FileDialog.cpp - a small in-app file chooser -----------------------===//
#include "app/FileDialog.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace stagecraft::app;
namespace fs = std::filesystem;

namespace {
const char *title(FileDialog::Purpose p) {
  switch (p) {
  case FileDialog::Purpose::OpenIr: return "Open loop IR";
  case FileDialog::Purpose::SaveIrAs: return "Save IR as";
  case FileDialog::Purpose::SaveSchedule: return "Save schedule";
  case FileDialog::Purpose::LoadSchedule: return "Load schedule";
  case FileDialog::Purpose::ExportKernel: return "Export kernel to a new directory (a Python package + C++ header)";
  case FileDialog::Purpose::OpenTrace: return "Open a measured trace (stagecraft-run --trace FILE.json, or its result JSON)";
  case FileDialog::Purpose::None: break;
  }
  return "File";
}
const char *extension(FileDialog::Purpose p) {
  if (p == FileDialog::Purpose::ExportKernel)
    return nullptr; // a directory is chosen: list no files
  return p == FileDialog::Purpose::SaveSchedule || p == FileDialog::Purpose::LoadSchedule ||
                 p == FileDialog::Purpose::OpenTrace
             ? ".json"
             : ".mlir";
}
} // namespace

void FileDialog::open(Purpose purpose, const std::string &start) {
  purpose_ = purpose;
  openRequested_ = true;
  std::error_code ec;
  fs::path p = start.empty() ? fs::current_path(ec) : fs::path(start);
  if (fs::is_directory(p, ec)) {
    dir_ = p.string();
    name_[0] = 0;
  } else {
    dir_ = p.has_parent_path() ? p.parent_path().string() : fs::current_path(ec).string();
    std::snprintf(name_, sizeof name_, "%s", p.filename().string().c_str());
  }
}

bool FileDialog::draw() {
  if (purpose_ == Purpose::None)
    return false;
  const char *id = "##filedialog";
  std::string label = std::string(title(purpose_)) + id;
  if (openRequested_) {
    ImGui::OpenPopup(label.c_str());
    openRequested_ = false;
  }
  bool confirmed = false;
  ImGui::SetNextWindowSize(ImVec2(640, 460), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal(label.c_str(), nullptr)) {
    ImGui::TextDisabled("%s", dir_.c_str());
    if (ImGui::Button("Up")) {
      fs::path parent = fs::path(dir_).parent_path();
      if (!parent.empty())
        dir_ = parent.string();
    }
    ImGui::BeginChild("entries", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2), true);
    std::vector<fs::directory_entry> entries;
    std::error_code ec;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec))
      entries.push_back(*it);
    std::sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) {
      std::error_code e1, e2;
      bool da = a.is_directory(e1), db = b.is_directory(e2);
      if (da != db)
        return da;
      return a.path().filename() < b.path().filename();
    });
    for (const fs::directory_entry &e : entries) {
      std::string name = e.path().filename().string();
      if (!name.empty() && name[0] == '.')
        continue;
      std::error_code e1;
      if (e.is_directory(e1)) {
        if (ImGui::Selectable((name + "/").c_str(), false,
                              ImGuiSelectableFlags_AllowDoubleClick))
          dir_ = e.path().string();
      } else if (extension(purpose_) && e.path().extension() == extension(purpose_)) {
        bool sel = name == name_;
        if (ImGui::Selectable(name.c_str(), sel, ImGuiSelectableFlags_AllowDoubleClick)) {
          std::snprintf(name_, sizeof name_, "%s", name.c_str());
          if (ImGui::IsMouseDoubleClicked(0)) {
            chosen_ = (fs::path(dir_) / name_).string();
            confirmed = true;
          }
        }
      }
    }
    ImGui::EndChild();
    ImGui::SetNextItemWidth(-180);
    bool enter = ImGui::InputText("##name", name_, sizeof name_,
                                  ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    bool save = purpose_ == Purpose::SaveIrAs || purpose_ == Purpose::SaveSchedule;
    const char *verb = purpose_ == Purpose::ExportKernel ? "Export" : save ? "Save" : "Open";
    if ((ImGui::Button(verb, ImVec2(80, 0)) || enter) && name_[0]) {
      fs::path p(name_);
      chosen_ = (p.is_absolute() ? p : fs::path(dir_) / p).string();
      confirmed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(80, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      purpose_ = Purpose::None;
      ImGui::CloseCurrentPopup();
    }
    if (confirmed)
      ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  return confirmed;
}
