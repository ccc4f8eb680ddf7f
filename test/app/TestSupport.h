//===- TestSupport.h - shared helpers of the app tests ------------*- C++ -*-===//
#ifndef STAGECRAFT_TEST_APP_TESTSUPPORT_H
#define STAGECRAFT_TEST_APP_TESTSUPPORT_H

#include "app/AppState.h"

#include <functional>
#include <string>

namespace stagecraft::app::test {

std::string assetPath(const std::string &name);
std::string readAsset(const std::string &name);
/// A fresh empty directory under the test temp dir.
std::string tempDir(const std::string &tag);

/// A compile back end that needs no codegen: the real schedule-only
/// compile (parse, apply, legality) for both phases, and a bundle that is
/// just a manifest. Keeps app tests fast and independent of the lowering.
CompileBackend scheduleOnlyBackend();

/// An AppState with that back end, no runner unless given, no autosave
/// unless given.
AppConfig testConfig(const std::string &runner = "",
                     const std::string &autosave = "");

/// Polls until `done` or `seconds` pass; true when done.
bool pollUntil(AppState &app, const std::function<bool()> &done,
               double seconds = 20);

} // namespace stagecraft::app::test

#endif
