//===- AutosaveTest.cpp - a crash loses nothing ---------------------------===//
#include "app/AppState.h"
#include "app/Autosave.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

TEST(Autosave, SessionRoundTrip) {
  SessionFile s;
  s.irPath = "/x/a.mlir";
  s.irText = "module {}\n// \"quoted\"\n";
  s.scheduleJson = "{}";
  RunRecord r;
  r.id = 3;
  r.irPath = s.irPath;
  r.state = RunState::Done;
  r.status = "ok";
  r.verified = true;
  r.tflops = 400.25;
  r.steadyState = "A(i) B(i+1)";
  s.runs.push_back(r);
  s.nextVariant = 4;
  s.recentFiles = {"/x/a.mlir", "/y/b.mlir"};
  s.runnerCommand = "ssh gpu stagecraft-run --serve";
  s.autoRun = false;
  SessionFile back;
  std::string error;
  ASSERT_TRUE(sessionFromJson(sessionToJson(s), back, error)) << error;
  EXPECT_EQ(back.irPath, s.irPath);
  EXPECT_EQ(back.irText, s.irText);
  EXPECT_EQ(back.recentFiles, s.recentFiles);
  EXPECT_EQ(back.runnerCommand, s.runnerCommand);
  EXPECT_FALSE(back.autoRun);
  ASSERT_EQ(back.runs.size(), 1u);
  EXPECT_EQ(back.runs[0].id, 3u);
  EXPECT_DOUBLE_EQ(*back.runs[0].tflops, 400.25);
  EXPECT_EQ(back.runs[0].state, RunState::Done);
  EXPECT_EQ(back.nextVariant, 4u);
  EXPECT_FALSE(sessionFromJson("{\"format\": \"other\"}", back, error));
  EXPECT_FALSE(sessionFromJson("garbage", back, error));
}

TEST(Autosave, AnEditIsOnDiskWithoutAnExplicitSave) {
  std::string dir = test::tempDir("autosave");
  std::string path = dir + "/autosave.json";
  Schedule moved;
  {
    AppState app(test::testConfig("", path));
    ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
    ASSERT_TRUE(app.moveUnit("loadK", {-1, 0, ""}).applied);
    moved = app.editor().schedule();
    // The autosave is written within a moment by poll() (no save command).
    ASSERT_TRUE(test::pollUntil(app, [&] {
      SessionFile s;
      std::string e;
      return loadSession(path, s, e) && s.scheduleJson == moved.toJson();
    }, 5));
  } // like a crash after this point: the file is already there
  AppState restored(test::testConfig("", path));
  ASSERT_TRUE(restored.restoreAutosave());
  EXPECT_EQ(restored.editor().schedule(), moved);
  EXPECT_EQ(restored.irPath(), test::assetPath("attention_fwd_d128.mlir"));
}

TEST(Autosave, RestoresFromTheSavedTextWhenTheFileIsGone) {
  std::string dir = test::tempDir("autosave-gone");
  std::string ir = dir + "/a.mlir";
  std::filesystem::copy_file(test::assetPath("attention_fwd_d128.mlir"), ir);
  std::string path = dir + "/autosave.json";
  {
    AppState app(test::testConfig("", path));
    ASSERT_TRUE(app.openFile(ir));
    ASSERT_TRUE(app.moveUnit("loadV", {-1, 0, ""}).applied);
    ASSERT_EQ(app.autosaveNow(), "");
  }
  std::filesystem::remove(ir);
  AppState restored(test::testConfig("", path));
  ASSERT_TRUE(restored.restoreAutosave());
  EXPECT_EQ(restored.kernel(), "attn_fwd_d128");
  EXPECT_NE(restored.editor().report().steadyState.find("loadV(i+2)"), std::string::npos);
  EXPECT_NE(restored.status().text.find("autosaved copy"), std::string::npos);
}

TEST(Autosave, AnUnreadableAutosaveIsKeptAsideAndReported) {
  // Cut short (a crash, a full disk) or not a session: the app opened the
  // example and autosaved over it without a word (the fourteenth sweep's B3).
  for (const char *text : {"{\"format\": \"stagecraft-session\", \"ir_pa", "{\"format\": \"other\"}"}) {
    std::string dir = test::tempDir("autosave-broken");
    std::string path = dir + "/autosave.json";
    {
      std::ofstream(path) << text;
    }
    AppState app(test::testConfig("", path));
    EXPECT_FALSE(app.restoreAutosave());
    EXPECT_NE(app.autosaveProblem().find("the autosaved session could not be read"),
              std::string::npos)
        << app.autosaveProblem();
    EXPECT_EQ(app.status().level, StatusLevel::Warning);
    EXPECT_FALSE(std::filesystem::exists(path));
    int aside = 0;
    for (const auto &e : std::filesystem::directory_iterator(dir))
      if (e.path().filename().string().rfind("autosave.json.broken-", 0) == 0) {
        ++aside;
        std::ifstream in(e.path());
        std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(kept, text);
      }
    EXPECT_EQ(aside, 1);
  }
  // No autosave at all: nothing to say.
  AppState fresh(test::testConfig("", test::tempDir("autosave-none") + "/autosave.json"));
  EXPECT_FALSE(fresh.restoreAutosave());
  EXPECT_EQ(fresh.autosaveProblem(), "");
}

TEST(Autosave, ALessonInProgressIsResumed) {
  // A restart lost the lesson panel, and --lesson started it over (the
  // fourteenth sweep's B4): the session keeps the lesson and its start.
  std::string path = test::tempDir("autosave-lesson") + "/autosave.json";
  Schedule moved;
  std::string start;
  {
    AppState app(test::testConfig("", path));
    ASSERT_TRUE(app.openLesson(test::assetPath("lessons/01-why-pipeline")));
    start = app.editor().schedule().toJson();
    ASSERT_TRUE(app.moveUnit("MMA", {1, 0, ""}).applied);
    moved = app.editor().schedule();
    ASSERT_EQ(app.autosaveNow(), "");
  }
  SessionFile s;
  std::string e;
  ASSERT_TRUE(loadSession(path, s, e)) << e;
  EXPECT_NE(s.lessonDir.find("01-why-pipeline"), std::string::npos);
  EXPECT_EQ(s.lessonStartJson, start);
  AppState restored(test::testConfig("", path));
  ASSERT_TRUE(restored.restoreAutosave());
  EXPECT_TRUE(restored.hasLesson());
  EXPECT_EQ(restored.editor().schedule(), moved);
  EXPECT_TRUE(restored.lessonStatus().complete());
  EXPECT_NE(restored.status().text.find("resumed the lesson"), std::string::npos)
      << restored.status().text;
}

TEST(Autosave, WritesAtomically) {
  std::string dir = test::tempDir("atomic");
  std::string path = dir + "/sub/f.json";
  ASSERT_EQ(writeFileAtomically(path, "one"), "");
  ASSERT_EQ(writeFileAtomically(path, "two"), "");
  std::string text, error;
  ASSERT_TRUE(readFile(path, text, error));
  EXPECT_EQ(text, "two");
  // No temporary left behind.
  size_t files = 0;
  for (auto &e : std::filesystem::directory_iterator(dir + "/sub"))
    (void)e, ++files;
  EXPECT_EQ(files, 1u);
}

} // namespace
