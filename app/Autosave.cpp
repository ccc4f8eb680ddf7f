//===- Autosave.cpp - the session on disk ---------------------------------===//
#include "app/Autosave.h"
#include "core/Support/InputCheck.h"
#include "core/Support/Json.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <fcntl.h>
#include <unistd.h>

using namespace stagecraft::app;
namespace json = llvm::json;

static std::string envOr(const char *name, const std::string &fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

static std::string homeDir() { return envOr("HOME", "/tmp"); }

std::string stagecraft::app::stateDirectory() {
  if (const char *d = std::getenv("STAGECRAFT_STATE_DIR"); d && *d)
    return d;
  return envOr("XDG_STATE_HOME", homeDir() + "/.local/state") + "/stagecraft";
}

std::string stagecraft::app::defaultAutosavePath() {
  return stateDirectory() + "/autosave.json";
}

std::string stagecraft::app::cacheDirectory() {
  if (const char *d = std::getenv("STAGECRAFT_CACHE_DIR"); d && *d)
    return d;
  return envOr("XDG_CACHE_HOME", homeDir() + "/.cache") + "/stagecraft";
}

std::string stagecraft::app::sessionToJson(const SessionFile &s) {
  json::Array runs;
  for (const RunRecord &r : s.runs)
    runs.push_back(runToJson(r));
  json::Array recent;
  for (const std::string &f : s.recentFiles)
    recent.push_back(f);
  json::Value v = json::Object{
      {"format", "stagecraft-session"},
      {"version", 1},
      {"ir_path", s.irPath},
      {"ir_text", s.irText},
      {"schedule", s.scheduleJson},
      {"runs", std::move(runs)},
      {"next_variant", static_cast<int64_t>(s.nextVariant)},
      {"recent_files", std::move(recent)},
      {"runner_command", s.runnerCommand},
      {"auto_run", s.autoRun},
      {"target", s.target},
  };
  if (!s.lessonDir.empty())
    v.getAsObject()->insert({"lesson", json::Object{{"dir", s.lessonDir},
                                                    {"start_schedule", s.lessonStartJson}}});
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", v) << "\n";
  return os.str();
}

bool stagecraft::app::sessionFromJson(const std::string &text, SessionFile &s,
                                      std::string &error) {
  llvm::Expected<json::Value> v = stagecraft::parseJson(text);
  if (!v) {
    error = "not JSON: " + llvm::toString(v.takeError());
    return false;
  }
  const json::Object *o = v->getAsObject();
  if (!o || o->getString("format") != llvm::StringRef("stagecraft-session")) {
    error = "not a stagecraft session file";
    return false;
  }
  auto str = [&](const char *k) {
    std::optional<llvm::StringRef> x = o->getString(k);
    return x ? x->str() : std::string();
  };
  s = SessionFile();
  s.irPath = str("ir_path");
  s.irText = str("ir_text");
  s.scheduleJson = str("schedule");
  s.runnerCommand = str("runner_command");
  s.autoRun = o->getBoolean("auto_run").value_or(true);
  if (std::optional<llvm::StringRef> t = o->getString("target"); t && (*t == "sm_90a" || *t == "sm_100a"))
    s.target = t->str();
  if (const json::Array *runs = o->getArray("runs"))
    for (const json::Value &r : *runs) {
      RunRecord rec;
      if (runFromJson(r, rec))
        s.runs.push_back(std::move(rec));
    }
  if (const json::Object *lesson = o->getObject("lesson")) {
    if (std::optional<llvm::StringRef> d = lesson->getString("dir"))
      s.lessonDir = d->str();
    if (std::optional<llvm::StringRef> j = lesson->getString("start_schedule"))
      s.lessonStartJson = j->str();
  }
  s.nextVariant = o->getInteger("next_variant").value_or(1);
  for (const RunRecord &r : s.runs)
    s.nextVariant = std::max<uint64_t>(s.nextVariant, r.id + 1);
  if (const json::Array *recent = o->getArray("recent_files"))
    for (const json::Value &f : *recent)
      if (std::optional<llvm::StringRef> p = f.getAsString())
        s.recentFiles.push_back(p->str());
  return true;
}

bool stagecraft::app::readFile(const std::string &path, std::string &out,
                               std::string &error) {
  // A directory, a device or a pipe would read as empty, never end or hang.
  if (std::string why = stagecraft::checkUserFile(path); !why.empty()) {
    error = why;
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string stagecraft::app::writeFileAtomically(const std::string &path,
                                                 const std::string &data) {
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (!dir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return "cannot create " + std::string(dir) + ": " + ec.message();
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return "cannot write " + tmp + ": " + std::strerror(errno);
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      std::string err = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return "cannot write " + tmp + ": " + err;
    }
    done += n;
  }
  // The data must be on disk before the rename makes it the file (some file
  // systems refuse fsync: the rename is still atomic).
  (void)::fsync(fd);
  ::close(fd);
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return "cannot replace " + path + ": " + ec.message();
  }
  return "";
}

std::string stagecraft::app::saveSession(const std::string &path,
                                         const SessionFile &s) {
  return writeFileAtomically(path, sessionToJson(s));
}

bool stagecraft::app::readAutosave(const std::string &path, SessionFile &s,
                                   std::string &problem) {
  problem.clear();
  std::string error;
  if (loadSession(path, s, error))
    return true;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return false; // no earlier session
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::string aside = path + ".broken-" + stamp;
  std::filesystem::rename(path, aside, ec);
  problem = "the autosaved session could not be read (" + error + "); " +
            (ec ? "it could not be moved aside (" + ec.message() + ") and the next autosave replaces it"
                : "kept as " + aside);
  return false;
}

bool stagecraft::app::loadSession(const std::string &path, SessionFile &s,
                                  std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return false;
  if (!sessionFromJson(text, s, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}
