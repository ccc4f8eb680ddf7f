//===- Autosave.h - the session on disk, so a crash loses nothing -*- C++ -*-===//
//
// After every change the app writes the whole session (the IR path and text,
// the schedule, the undo-free state of the runs, recent files, settings) to
// one small JSON file, atomically (temporary file + rename): a crash or a
// power cut leaves either the old or the new file, never half of one. On the
// next start the app restores it.
//
// Where: $STAGECRAFT_STATE_DIR, else $XDG_STATE_HOME/stagecraft, else
// ~/.local/state/stagecraft; the file is autosave.json.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_AUTOSAVE_H
#define STAGECRAFT_APP_AUTOSAVE_H

#include "app/RunRecord.h"

#include <string>
#include <vector>

namespace stagecraft::app {

struct SessionFile {
  std::string irPath;
  std::string irText;       // so a moved or edited file still restores
  std::string scheduleJson; // the board's schedule
  std::vector<RunRecord> runs;
  uint64_t nextVariant = 1;
  std::vector<std::string> recentFiles; // newest first
  std::string runnerCommand;
  bool autoRun = true;
  std::string target = "sm_90a"; // the compile target (AppState::target)
  /// The lesson open (its directory, absolute) and the schedule it started
  /// from (its goal's measured speed-up compares against it); "" for none.
  std::string lessonDir;
  std::string lessonStartJson;
};

/// The directory for state files (created on demand by saveSession).
std::string stateDirectory();
/// stateDirectory()/autosave.json
std::string defaultAutosavePath();
/// Cache directory for bundles: $XDG_CACHE_HOME/stagecraft or ~/.cache/stagecraft.
std::string cacheDirectory();

std::string sessionToJson(const SessionFile &s);
/// false with `error` when the text is not a session file.
bool sessionFromJson(const std::string &text, SessionFile &s,
                     std::string &error);

/// Writes atomically; "" or an error message.
std::string saveSession(const std::string &path, const SessionFile &s);
/// false when the file is missing or unreadable (`error` says which).
bool loadSession(const std::string &path, SessionFile &s, std::string &error);

/// Reads the autosaved session at `path`. A file there that is not a
/// readable session (cut short by a crash or a full disk, edited by hand) is
/// renamed aside, PATH.broken-DATE, before the next autosave replaces it
/// (it may hold the only copy of edited IR): `problem` says so. false when
/// no session was read.
bool readAutosave(const std::string &path, SessionFile &s, std::string &problem);

/// Small file helpers shared by the app.
bool readFile(const std::string &path, std::string &out, std::string &error);
/// Atomic write (temporary + rename), creating parent directories.
std::string writeFileAtomically(const std::string &path,
                                const std::string &data);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_AUTOSAVE_H
