//===- FileDialog.h - a small in-app file chooser -----------------*- C++ -*-===//
//
// Dear ImGui has no native file dialog and the app must not depend on a
// desktop toolkit, so this is a modal with a path field and the directory's
// entries (folders and files of the wanted extension).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_FILEDIALOG_H
#define STAGECRAFT_APP_FILEDIALOG_H

#include <string>

namespace stagecraft::app {

class FileDialog {
public:
  enum class Purpose { None, OpenIr, SaveIrAs, SaveSchedule, LoadSchedule, ExportKernel, OpenTrace };

  /// Opens the dialog; `start` is a file or directory to start from.
  void open(Purpose purpose, const std::string &start);
  /// Draws it when open; returns true on the frame the user confirms, then
  /// purpose() and path() say what to do.
  bool draw();
  Purpose purpose() const { return purpose_; }
  const std::string &path() const { return chosen_; }

private:
  Purpose purpose_ = Purpose::None;
  bool openRequested_ = false;
  std::string dir_;
  char name_[1024] = {};
  std::string chosen_;
};

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_FILEDIALOG_H
