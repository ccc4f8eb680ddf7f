//===- TestSupport.cpp - shared helpers of the app tests ------------------===//
#include "TestSupport.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace stagecraft;
using namespace stagecraft::app;

std::string test::assetPath(const std::string &name) {
  return std::string(STAGECRAFT_ASSETS_DIR) + "/" + name;
}

std::string test::readAsset(const std::string &name) {
  std::ifstream in(assetPath(name));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {
/// This process's directory of test files, removed when the process exits
/// (each ctest case is a process of its own; a forked child leaves it be).
struct ProcessTempRoot {
  pid_t owner = getpid();
  fs::path path = fs::temp_directory_path() /
                  ("stagecraft-app-test-" + std::to_string(getpid()));
  ~ProcessTempRoot() {
    std::error_code ec;
    if (getpid() == owner)
      fs::remove_all(path, ec);
  }
};
} // namespace

std::string test::tempDir(const std::string &tag) {
  static ProcessTempRoot root;
  fs::path p = root.path / tag;
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

CompileBackend test::scheduleOnlyBackend() {
  CompileBackend b;
  b.compile = [](const std::string &source, const std::string &name,
                 const CompileOptions &options) {
    CompileOptions o = options;
    o.scheduleOnly = true;
    return stagecraft::compile(source, name, o);
  };
  b.writeBundle = [](const CompileResult &r, const std::string &dir) {
    fs::create_directories(dir);
    std::ofstream(dir + "/manifest.json") << "{\"kernel\": \"" << r.kernel << "\"}\n";
    std::ofstream(dir + "/schedule.json") << r.scheduleJson;
    return std::string();
  };
  return b;
}

AppConfig test::testConfig(const std::string &runner, const std::string &autosave) {
  AppConfig c;
  c.backend = scheduleOnlyBackend();
  c.runnerCommand = runner;
  c.startRunner = !runner.empty();
  c.autosavePath = autosave;
  static int counter = 0;
  c.bundleRoot = tempDir("bundles-" + std::to_string(++counter));
  c.runnerOptions.startTimeoutSeconds = 10;
  c.runnerOptions.requestTimeoutSeconds = 10;
  return c;
}

bool test::pollUntil(AppState &app, const std::function<bool()> &done, double seconds) {
  auto start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
         seconds) {
    app.poll();
    if (done())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}
