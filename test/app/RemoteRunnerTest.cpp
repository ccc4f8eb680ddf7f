//===- RemoteRunnerTest.cpp - a runner that cannot see the app's files ----===//
//
// The real stagecraft-run, in --dry-run mode (it checks each bundle it is
// given and launches nothing, so no GPU is needed), started the way a remote
// host would have it: in another directory, in its own mount namespace
// (unshare -Urm) where a fresh tmpfs covers the app's bundle directory, so
// the paths the app knows lead nowhere. The app must notice (the probe) and
// send the bundles inside the requests; the runner must take them into a
// private directory and remove it.
//
//===----------------------------------------------------------------------===//
#include "app/AppState.h"
#include "app/RunnerClient.h"

#include "TestSupport.h"

#include "passes/Driver/CompileDriver.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

using namespace stagecraft;
using namespace stagecraft::app;
namespace fs = std::filesystem;

namespace {

/// The "remote" runner: cannot see `hidden` (a tmpfs over it), runs in
/// `work`, and keeps its temporary files in `work`/tmp.
std::string isolatedRunner(const std::string &hidden, const std::string &work) {
  fs::create_directories(work + "/tmp");
  return "unshare -Urm sh -c 'mount -t tmpfs tmpfs \"" + hidden + "\" && cd \"" + work +
         "\" && TMPDIR=\"" + work + "/tmp\" exec \"" STAGECRAFT_RUN_EXE "\" --serve --dry-run'";
}

/// A real bundle (manifest, signature, cubin, PTX) of gemm.mlir in `dir`.
void compileBundle(const std::string &dir) {
  CompileOptions o;
  CompileResult r = compile(test::readAsset("gemm.mlir"), "gemm.mlir", o);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(writeBundle(r, dir));
}

std::vector<RunnerEvent> pollFor(RunnerClient &r, const std::function<bool()> &done) {
  std::vector<RunnerEvent> all;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end && !done()) {
    for (RunnerEvent &e : r.poll())
      all.push_back(std::move(e));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return all;
}

TEST(RemoteRunner, BundlesGoInsideTheRequestsWhenTheRunnerCannotSeeThem) {
  std::string root = test::tempDir("remote-bundles");
  std::string work = test::tempDir("remote-host");
  std::string bundle = root + "/session/variant-1";
  compileBundle(bundle);

  RunnerOptions o;
  o.command = isolatedRunner(root, work);
  o.probeDir = root + "/session";
  RunnerClient runner(o);
  runner.start();
  uint64_t id = runner.submit(bundle);
  std::vector<RunnerEvent> events = pollFor(runner, [&] { return runner.pending() == 0; });
  ASSERT_EQ(runner.state(), RunnerState::Ready) << runner.stateText();
  EXPECT_TRUE(runner.uploading());
  EXPECT_NE(runner.stateText().find("bundles sent in the requests"), std::string::npos);
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(events[0].kind, RunnerEvent::Kind::Result) << events[0].reason;
  EXPECT_EQ(events[0].request, id);
  const RunnerReply &reply = events[0].reply;
  EXPECT_EQ(reply.status, "ok") << reply.line;
  EXPECT_EQ(reply.receivedFiles, 4); // manifest.json, kernel.cubin, kernel.ptx, reference.ptx
  EXPECT_EQ(reply.bundle.rfind(work + "/tmp/stagecraft-upload-", 0), 0u) << reply.bundle;
  EXPECT_NE(reply.line.find("\"kernel\":\"gemm\""), std::string::npos);
  // The runner removed its copy; the probe file is gone too.
  EXPECT_TRUE(fs::is_empty(work + "/tmp"));
  for (const auto &e : fs::directory_iterator(root + "/session"))
    EXPECT_EQ(e.path().filename().string().rfind(".runner-probe", 0), std::string::npos);

  // The control: told to send paths, the same runner cannot read the bundle.
  RunnerOptions never = o;
  never.upload = UploadMode::Never;
  RunnerClient pathsOnly(never);
  pathsOnly.start();
  pathsOnly.submit(bundle);
  events = pollFor(pathsOnly, [&] { return pathsOnly.pending() == 0; });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(pathsOnly.uploading());
  EXPECT_EQ(events[0].reply.status, "error");
  EXPECT_NE(events[0].reply.error.find("manifest.json"), std::string::npos) << events[0].reply.line;
}

TEST(RemoteRunner, ALocalRunnerGetsPaths) {
  std::string root = test::tempDir("local-bundles");
  std::string bundle = root + "/session/variant-1";
  compileBundle(bundle);
  RunnerOptions o;
  o.command = "\"" STAGECRAFT_RUN_EXE "\" --serve --dry-run";
  o.probeDir = root + "/session";
  RunnerClient runner(o);
  runner.start();
  runner.submit(bundle);
  std::vector<RunnerEvent> events = pollFor(runner, [&] { return runner.pending() == 0; });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(runner.uploading());
  EXPECT_EQ(events[0].reply.status, "ok") << events[0].reply.line;
  EXPECT_EQ(events[0].reply.bundle, bundle);
  EXPECT_FALSE(events[0].reply.receivedFiles.has_value());
}

TEST(RemoteRunner, TheAppRunsAVariantOnARunnerWithoutItsFiles) {
  std::string work = test::tempDir("remote-app-host");
  AppConfig config = test::testConfig();
  config.backend = CompileBackend::driver();
  config.runnerCommand = isolatedRunner(config.bundleRoot, work);
  config.startRunner = true;
  AppState app(config);
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  ASSERT_TRUE(test::pollUntil(app, [&] {
    auto runs = app.currentRuns();
    return !runs.empty() && (runs[0]->state == RunState::Done || runs[0]->state == RunState::NotRun);
  }, 60));
  const RunRecord *r = app.currentRuns()[0];
  EXPECT_EQ(r->state, RunState::Done) << r->error;
  EXPECT_EQ(r->status, "ok") << r->error;
  EXPECT_FALSE(r->verified); // a dry run checks, it does not measure
  EXPECT_TRUE(app.runner().uploading());
  EXPECT_TRUE(fs::is_empty(work + "/tmp"));
}

} // namespace
