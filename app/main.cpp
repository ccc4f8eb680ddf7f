//===- main.cpp - stagecraft: the desktop app ------------------------------===//
//
//   stagecraft [FILE.mlir] [--runner CMD] [--runner-upload auto|always|never]
//              [--no-runner] [--no-restore] [--schedule S.json]
//              [--trace MEASURED.json]
//   stagecraft --screenshot OUT.png [--size WxH] [--schedule S.json]
//              [--select UNIT] [--trace MEASURED.json] [--panel timeline]
//              [FILE.mlir]
//
// GLFW + OpenGL 3 + Dear ImGui. With no file: the autosaved session, else
// the bundled attention example. --screenshot renders until the first
// compile has finished, writes a PNG and exits (works under xvfb-run).
//
//===----------------------------------------------------------------------===//
#include "app/AppState.h"
#include "app/MainWindow.h"
#include "app/Screenshot.h"
#include "app/Theme.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <GLFW/glfw3.h>

#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

using namespace stagecraft;
using namespace stagecraft::app;
namespace fs = std::filesystem;

namespace {

struct Args {
  std::string file;
  std::string screenshot;
  std::string runner;
  bool runnerGiven = false;
  std::string runnerUpload;
  bool noRunner = false;
  bool noRestore = false;
  int width = 1720, height = 1040;
  std::string select;
  std::string schedule;
  std::string trace;
  bool timelineOnly = false;
  int focusFirst = -1, focusLast = -1; // --timeline-iterations
  std::string lesson;
};

const char *kUsage =
    "usage: stagecraft [FILE.mlir] [options]\n"
    "  --runner CMD        the runner command (default: stagecraft-run --serve next to\n"
    "                      this program or on PATH; env STAGECRAFT_RUNNER)\n"
    "                      (env STAGECRAFT_RUNNER_TIMEOUT: seconds before a run counts\n"
    "                      as hung, default 300)\n"
    "  --runner-upload M   auto (default): send bundles inside the requests when the\n"
    "                      runner cannot read this machine's files (ssh to another\n"
    "                      host); always; never (env STAGECRAFT_RUNNER_UPLOAD)\n"
    "  --no-runner         do not start a runner\n"
    "  --no-restore        do not restore the autosaved session\n"
    "  --screenshot OUT    render, write OUT (PNG) and exit\n"
    "  --size WxH          window size (default 1720x1040)\n"
    "  --schedule S.json   apply a schedule to the opened file\n"
    "  --trace FILE.json   show a measured timeline of this kernel and schedule (from\n"
    "                      stagecraft-run BUNDLE --trace FILE.json, or its result JSON)\n"
    "  --panel timeline    show only the timeline panel (for screenshots)\n"
    "  --select UNIT       select an op at start (for screenshots)\n"
    "  --timeline-iterations A:B\n"
    "                      the timeline opens on source iterations A to B (the\n"
    "                      epilogue is the iteration after the loop's last)\n"
    "  --lesson L          open a lesson: its directory, or its number (Help > Lessons)\n";

bool parseArgs(int argc, char **argv, Args &a) {
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "stagecraft: %s needs a value\n%s", s.c_str(), kUsage);
        return false;
      }
      out = argv[++i];
      return true;
    };
    if (s == "-h" || s == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (s == "--screenshot") {
      if (!value(a.screenshot)) return false;
    } else if (s == "--runner") {
      if (!value(a.runner)) return false;
      a.runnerGiven = true;
    } else if (s == "--runner-upload") {
      if (!value(a.runnerUpload)) return false;
    } else if (s == "--no-runner") {
      a.noRunner = true;
    } else if (s == "--no-restore") {
      a.noRestore = true;
    } else if (s == "--select") {
      if (!value(a.select)) return false;
    } else if (s == "--schedule") {
      if (!value(a.schedule)) return false;
    } else if (s == "--trace") {
      if (!value(a.trace)) return false;
    } else if (s == "--panel") {
      std::string v;
      if (!value(v)) return false;
      if (v != "timeline") {
        std::fprintf(stderr, "stagecraft: --panel takes \"timeline\" (the only panel shown alone), "
                             "not \"%s\"\n", v.c_str());
        return false;
      }
      a.timelineOnly = true;
    } else if (s == "--timeline-iterations") {
      std::string v;
      if (!value(v)) return false;
      char end = 0;
      if (std::sscanf(v.c_str(), "%d:%d%c", &a.focusFirst, &a.focusLast, &end) != 2 ||
          a.focusFirst < 0 || a.focusLast < a.focusFirst) {
        std::fprintf(stderr, "stagecraft: bad --timeline-iterations %s (e.g. 60:64)\n", v.c_str());
        return false;
      }
    } else if (s == "--lesson") {
      if (!value(a.lesson)) return false;
    } else if (s == "--size") {
      std::string v;
      if (!value(v)) return false;
      // The window's size (a screenshot's): far larger ones abort in the X
      // server or in the frame buffer's allocation.
      char end = 0;
      if (std::sscanf(v.c_str(), "%dx%d%c", &a.width, &a.height, &end) != 2 || a.width < 320 ||
          a.height < 240 || a.width > 8192 || a.height > 8192) {
        std::fprintf(stderr,
                     "stagecraft: bad --size %s: the window is WIDTHxHEIGHT, 320x240 to "
                     "8192x8192 (e.g. 1600x1000)\n",
                     v.c_str());
        return false;
      }
    } else if (!s.empty() && s[0] == '-') {
      std::fprintf(stderr, "stagecraft: unknown option %s\n%s", s.c_str(), kUsage);
      return false;
    } else if (a.file.empty()) {
      a.file = s;
    } else {
      std::fprintf(stderr, "stagecraft: one file at a time\n%s", kUsage);
      return false;
    }
  }
  if (const char *env = std::getenv("STAGECRAFT_RUNNER_UPLOAD"); a.runnerUpload.empty() && env && *env)
    a.runnerUpload = env;
  UploadMode mode;
  if (!a.runnerUpload.empty() && !parseUploadMode(a.runnerUpload, mode)) {
    std::fprintf(stderr, "stagecraft: --runner-upload (or STAGECRAFT_RUNNER_UPLOAD) takes auto, "
                         "always or never, not \"%s\"\n%s", a.runnerUpload.c_str(), kUsage);
    return false;
  }
  return true;
}

fs::path executableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

/// The bundled example, wherever the app runs from: an installed tree, the
/// build directory, or the source tree it was built from.
std::string findExample() {
  const char *name = "attention_fwd_d128.mlir";
  fs::path exe = executableDir();
  std::vector<fs::path> candidates = {
      exe / "../share/stagecraft/assets", exe / "../assets", exe / "../../assets",
#ifdef STAGECRAFT_SOURCE_DIR
      fs::path(STAGECRAFT_SOURCE_DIR) / "assets",
#endif
      fs::current_path() / "assets"};
  for (const fs::path &dir : candidates) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(dir / name, ec);
    if (!ec && fs::is_regular_file(p, ec))
      return p.string();
  }
  return "";
}

/// assets/lessons, wherever the app runs from (as findExample).
std::string findLessons() {
  fs::path exe = executableDir();
  std::vector<fs::path> candidates = {
      exe / "../share/stagecraft/assets/lessons", exe / "../assets/lessons",
      exe / "../../assets/lessons",
#ifdef STAGECRAFT_SOURCE_DIR
      fs::path(STAGECRAFT_SOURCE_DIR) / "assets/lessons",
#endif
      fs::current_path() / "assets/lessons"};
  for (const fs::path &dir : candidates) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(dir, ec);
    if (!ec && fs::is_directory(p, ec))
      return p.string();
  }
  return "";
}

/// stagecraft-run next to this program, else on PATH, with --serve. When
/// there is none the command still names it, so the runner's failure says
/// plainly what is missing.
std::string defaultRunnerCommand() {
  std::error_code ec;
  fs::path local = executableDir() / "stagecraft-run";
  if (fs::is_regular_file(local, ec) && access(local.c_str(), X_OK) == 0)
    return "'" + local.string() + "' --serve";
  return "stagecraft-run --serve";
}

MainWindowUi *gUi = nullptr; // for the key callback

/// Chains to the ImGui backend's callback, and queues presses for the
/// shortcuts (see KeyPress).
void keyCallback(GLFWwindow *window, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
  if (gUi && (action == GLFW_PRESS || action == GLFW_REPEAT))
    gUi->keys.push_back({key, (mods & GLFW_MOD_CONTROL) != 0, (mods & GLFW_MOD_SHIFT) != 0});
}

void glfwError(int code, const char *what) {
  std::fprintf(stderr, "stagecraft: GLFW error %d: %s\n", code, what);
}

} // namespace

int main(int argc, char **argv) {
  Args args;
  if (!parseArgs(argc, argv, args))
    return 2;
  bool screenshotMode = !args.screenshot.empty();

  glfwSetErrorCallback(glfwError);
  if (!glfwInit()) {
    std::fprintf(stderr, "stagecraft: cannot open a window (no display? set DISPLAY, "
                         "or run under xvfb-run)\n");
    return 1;
  }
  // OpenGL 3.3 core where there is one (Mesa has), else 3.0.
  const char *glsl = "#version 330 core";
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  GLFWwindow *window =
      glfwCreateWindow(args.width, args.height, "Stagecraft", nullptr, nullptr);
  if (!window) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    glsl = "#version 130";
    window = glfwCreateWindow(args.width, args.height, "Stagecraft", nullptr, nullptr);
  }
  if (!window) {
    std::fprintf(stderr, "stagecraft: cannot create an OpenGL 3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(screenshotMode ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO &io = ImGui::GetIO();
  // Window layout is fixed; keep imgui.ini out of the working directory.
  io.IniFilename = nullptr;
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);
  setupTheme(std::max(1.0f, xscale));
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init(glsl);

  AppConfig config;
  if (!args.noRunner) {
    if (args.runnerGiven)
      config.runnerCommand = args.runner;
    else if (const char *env = std::getenv("STAGECRAFT_RUNNER"); env && *env)
      config.runnerCommand = env;
    else
      config.runnerCommand = defaultRunnerCommand();
  }
  if (args.noRunner)
    config.runnerOptions.noCommandReason =
        "not started (--no-runner): compiles and predicted timelines only; set a runner command "
        "in the Runs panel to run variants";
  if (!args.runnerUpload.empty())
    parseUploadMode(args.runnerUpload, config.runnerOptions.upload); // checked in parseArgs
  if (const char *t = std::getenv("STAGECRAFT_RUNNER_TIMEOUT"); t && std::atof(t) > 0)
    config.runnerOptions.requestTimeoutSeconds = std::atof(t);
  // Screenshots are for docs and tests: no autosave, no restore.
  config.autosavePath = screenshotMode ? "" : defaultAutosavePath();
  if (screenshotMode)
    config.bundleRoot = (fs::temp_directory_path() / "stagecraft-screenshot").string();
  std::unique_ptr<AppState> app = std::make_unique<AppState>(config);

  MainWindowUi ui;
  ui.examplePath = findExample();
  ui.lessonsRoot = findLessons();
  gUi = &ui;
  glfwSetKeyCallback(window, keyCallback);
  bool opened = false, lessonRefused = false;
  if (!args.lesson.empty()) {
    // A number picks the lesson in Help > Lessons order.
    std::string dir = args.lesson;
    if (args.lesson.find_first_not_of("0123456789") == std::string::npos) {
      std::vector<std::string> all = listLessons(ui.lessonsRoot);
      size_t n = std::stoul(args.lesson);
      dir = n >= 1 && n <= all.size() ? all[n - 1] : "";
      if (dir.empty()) {
        std::string why = "there is no lesson " + args.lesson + " (" + std::to_string(all.size()) +
                          " lessons in " + ui.lessonsRoot + ": Help > Lessons)";
        std::fprintf(stderr, "stagecraft: %s\n", why.c_str());
        // In the window too: it said "ready" over an empty board.
        app->setStatus(StatusLevel::Error, why);
      }
    }
    if (!args.file.empty())
      std::fprintf(stderr, "stagecraft: %s not opened: --lesson opens the lesson's own kernel\n",
                   args.file.c_str());
    // The autosaved session in this lesson: resumed where the student was
    // (its schedule, runs and goal's start), not started over.
    if (!dir.empty() && !screenshotMode && !args.noRestore) {
      SessionFile s;
      std::string problem;
      std::error_code ec;
      bool restored = readAutosave(defaultAutosavePath(), s, problem);
      app->setAutosaveProblem(problem);
      if (restored && !s.lessonDir.empty() &&
          fs::weakly_canonical(s.lessonDir, ec) == fs::weakly_canonical(dir, ec))
        opened = app->restoreSession(s) && app->hasLesson();
    }
    if (!opened)
      opened = !dir.empty() && app->openLesson(dir);
    if (!opened && !dir.empty())
      std::fprintf(stderr, "stagecraft: %s\n", app->status().text.c_str());
    // A script asking for a picture of a lesson learns that there was none.
    if (!opened && screenshotMode)
      lessonRefused = true;
  } else if (!args.file.empty()) {
    // Restore the autosaved session when it is this file's (its schedule
    // and runs), else open the file as it is.
    SessionFile s;
    std::error_code ec;
    fs::path abs = fs::weakly_canonical(args.file, ec);
    bool restored = false;
    if (!screenshotMode && !args.noRestore) {
      std::string problem;
      restored = readAutosave(defaultAutosavePath(), s, problem);
      app->setAutosaveProblem(problem);
    }
    if (restored && s.irPath == abs.string())
      opened = app->restoreSession(s);
    if (!opened)
      opened = app->openFile(args.file);
  } else {
    if (!screenshotMode && !args.noRestore)
      opened = app->restoreAutosave();
    if (!opened && !ui.examplePath.empty())
      opened = app->openFile(ui.examplePath);
    if (!opened && ui.examplePath.empty())
      app->setStatus(StatusLevel::Warning,
                     "the bundled example was not found: open a file (Ctrl+O)");
  }
  // An autosave that could not be read was moved aside: say so over what
  // the opening said (the example opened in its place, say).
  if (!app->autosaveProblem().empty()) {
    std::fprintf(stderr, "stagecraft: %s\n", app->autosaveProblem().c_str());
    app->setStatus(StatusLevel::Warning, app->autosaveProblem());
  }
  int exitCode = lessonRefused ? 1 : 0;
  // A picture of a file the app refused still shows why (the error in the
  // window), but a script asking for it learns that it was refused.
  bool refusedFile = screenshotMode && !args.file.empty() && !opened;
  if (refusedFile)
    std::fprintf(stderr, "stagecraft: %s\n", app->status().text.c_str());
  if (!args.schedule.empty() && opened && !app->loadSchedule(args.schedule)) {
    std::fprintf(stderr, "stagecraft: %s\n", app->status().text.c_str());
    // A picture of the default schedule in place of the one asked for
    // would mislead as much.
    if (screenshotMode)
      exitCode = 1;
  }
  if (!args.select.empty()) {
    if (opened && !app->editor().schedule().find(args.select))
      std::fprintf(stderr, "stagecraft: --select %s: the kernel has no unit of that name\n",
                   args.select.c_str());
    app->select(args.select);
  }
  ui.timelineOnly = args.timelineOnly;
  ui.timeline.focusFirst = args.focusFirst;
  ui.timeline.focusLast = args.focusLast;
  if (exitCode == 0 && !args.trace.empty() && !app->openMeasuredTrace(args.trace)) {
    std::fprintf(stderr, "stagecraft: %s\n", app->status().text.c_str());
    // A picture without the trace it was asked to show would mislead.
    if (screenshotMode)
      exitCode = 1;
  }

  auto started = std::chrono::steady_clock::now();
  int settledFrames = 0;
  while (exitCode == 0 && !glfwWindowShouldClose(window) && !ui.quitRequested) {
    if (screenshotMode)
      glfwPollEvents();
    else
      glfwWaitEventsTimeout(app->compileView().state == CompileView::State::Compiling ||
                                    app->runner().pending()
                                ? 0.05
                                : 0.25);
    app->poll();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (screenshotMode) // wherever the X pointer is, hover nothing
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    drawMainWindow(*app, ui);
    ImGui::Render();
    int fbw, fbh;
    glfwGetFramebufferSize(window, &fbw, &fbh);
    glViewport(0, 0, fbw, fbh);
    glClearColor(0.09f, 0.1f, 0.13f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    if (screenshotMode) {
      // Wait for the first compile (and the runner's first answer) so the
      // picture shows a settled state, but never longer than 60 s.
      double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                    started).count();
      bool settled = app->compileView().state != CompileView::State::Compiling &&
                     app->runner().state() != RunnerState::Starting;
      settledFrames = settled ? settledFrames + 1 : 0;
      if (settledFrames >= 4 || waited > 60) {
        std::string err = writeFramebufferPng(args.screenshot, fbw, fbh);
        if (!err.empty()) {
          std::fprintf(stderr, "stagecraft: %s\n", err.c_str());
          exitCode = 1;
        } else {
          std::printf("stagecraft: wrote %s (%dx%d)\n", args.screenshot.c_str(), fbw, fbh);
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    glfwSwapBuffers(window);
  }

  if (refusedFile && exitCode == 0)
    exitCode = 1;
  gUi = nullptr;
  std::string sessionDir = app->sessionDir();
  app.reset(); // autosaves, stops the runner and the compile worker
  // A screenshot's bundles are nobody's to keep (the tests take hundreds).
  if (screenshotMode) {
    std::error_code ec;
    fs::remove_all(sessionDir, ec);
    fs::remove(config.bundleRoot, ec); // when no other screenshot is using it
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exitCode;
}
