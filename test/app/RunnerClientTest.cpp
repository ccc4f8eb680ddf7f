//===- RunnerClientTest.cpp - the runner process, with fake runners -------===//
//
// The fake runners are shell scripts that speak the protocol (or fail in
// the ways a real one does): no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "app/RunRecord.h"
#include "app/RunnerClient.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sys/stat.h>
#include <thread>

using namespace stagecraft::app;
using namespace std::chrono_literals;

namespace {

/// Writes an executable script and returns its path.
std::string script(const std::string &name, const std::string &body) {
  std::string path = test::tempDir("runners-" + name) + "/" + name + ".sh";
  std::ofstream(path) << "#!/bin/sh\n" << body;
  chmod(path.c_str(), 0755);
  return path;
}

// Answers every request: the ping with a device, runs with a measurement.
const char *kGoodRunner = R"(
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *ping*) echo "{\"id\":$id,\"status\":\"ok\",\"error\":null,\"verified\":false,\"device\":{\"name\":\"Fake H100\"}}" ;;
    *) echo "{\"id\":$id,\"status\":\"ok\",\"error\":null,\"verified\":true,\"tflops\":512.5,\"reference_tflops\":600.0,\"ratio_to_reference\":0.854,\"median_us\":123.4,\"device\":{\"name\":\"Fake H100\"}}" ;;
  esac
done
)";

std::vector<RunnerEvent> pollUntil(RunnerClient &r, const std::function<bool()> &done,
                                   double seconds = 10) {
  std::vector<RunnerEvent> all;
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    auto t = std::chrono::steady_clock::now();
    for (RunnerEvent &e : r.poll())
      all.push_back(std::move(e));
    // poll() must never block the UI thread.
    EXPECT_LT(std::chrono::steady_clock::now() - t, 200ms);
    if (done())
      break;
    std::this_thread::sleep_for(5ms);
  }
  return all;
}

RunnerOptions opts(const std::string &cmd, double requestTimeout = 10) {
  RunnerOptions o;
  o.command = cmd;
  o.startTimeoutSeconds = 10;
  o.requestTimeoutSeconds = requestTimeout;
  return o;
}

TEST(RunnerClient, RunsARequestAndReadsTheResult) {
  RunnerClient r(opts(script("good", kGoodRunner)));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Ready; });
  ASSERT_EQ(r.state(), RunnerState::Ready) << r.stateText();
  EXPECT_EQ(r.deviceName(), "Fake H100");
  uint64_t id = r.submit("/tmp/bundle");
  std::vector<RunnerEvent> ev = pollUntil(r, [&] { return r.pending() == 0; });
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].request, id);
  ASSERT_EQ(ev[0].kind, RunnerEvent::Kind::Result);
  EXPECT_EQ(ev[0].reply.status, "ok");
  EXPECT_TRUE(ev[0].reply.verified);
  EXPECT_DOUBLE_EQ(*ev[0].reply.tflops, 512.5);
  EXPECT_DOUBLE_EQ(*ev[0].reply.ratioToReference, 0.854);
}

TEST(RunnerClient, NoGpuMakesItUnavailableAndSaysWhy) {
  // What `stagecraft-run --serve` does without a GPU: it answers every
  // request with the setup error.
  RunnerClient r(opts(script("nogpu", R"(
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  echo "{\"id\":$id,\"status\":\"error\",\"error\":\"no CUDA device: cuInit failed\"}"
done
)")));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Unavailable; });
  EXPECT_EQ(r.state(), RunnerState::Unavailable);
  EXPECT_NE(r.stateText().find("no CUDA device"), std::string::npos) << r.stateText();
  uint64_t id = r.submit("/tmp/bundle");
  std::vector<RunnerEvent> ev = pollUntil(r, [&] { return r.pending() == 0; });
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].request, id);
  EXPECT_EQ(ev[0].kind, RunnerEvent::Kind::Failed);
  EXPECT_NE(ev[0].reason.find("no CUDA device"), std::string::npos);
}

TEST(RunnerClient, ARunnerThatExitsAtOnceIsUnavailable) {
  RunnerClient r(opts(script("exits", "echo 'stagecraft-run: no CUDA device: none' >&2\nexit 2\n")));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Unavailable; });
  EXPECT_EQ(r.state(), RunnerState::Unavailable);
  EXPECT_NE(r.stateText().find("exited with status 2"), std::string::npos) << r.stateText();
  EXPECT_NE(r.stateText().find("no CUDA device"), std::string::npos) << r.stateText();
}

TEST(RunnerClient, AMissingCommandIsUnavailable) {
  RunnerClient r(opts("/nonexistent/stagecraft-run --serve"));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Unavailable; });
  EXPECT_EQ(r.state(), RunnerState::Unavailable);
  EXPECT_NE(r.stateText().find("127"), std::string::npos) << r.stateText();
  // Restart tries again (and fails the same way) without hanging.
  r.restart();
  pollUntil(r, [&] { return r.state() == RunnerState::Unavailable; });
  EXPECT_EQ(r.state(), RunnerState::Unavailable);
}

TEST(RunnerClient, AHungRunnerIsKilledReportedAndRestarted) {
  // Answers the ping, then never answers a run (a kernel that hangs).
  std::string hang = script("hang", R"(
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *ping*) echo "{\"id\":$id,\"status\":\"ok\",\"device\":{\"name\":\"Fake\"}}" ;;
    *) sleep 1000 ;;
  esac
done
)");
  RunnerClient r(opts(hang, /*requestTimeout=*/1.0));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Ready; });
  ASSERT_EQ(r.state(), RunnerState::Ready);
  uint64_t id = r.submit("/tmp/bundle");
  auto t = std::chrono::steady_clock::now();
  std::vector<RunnerEvent> ev = pollUntil(r, [&] { return r.pending() == 0; });
  EXPECT_LT(std::chrono::steady_clock::now() - t, 5s);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].request, id);
  EXPECT_EQ(ev[0].kind, RunnerEvent::Kind::Failed);
  EXPECT_NE(ev[0].reason.find("hung"), std::string::npos) << ev[0].reason;
  // It comes back by itself.
  pollUntil(r, [&] { return r.state() == RunnerState::Ready; });
  EXPECT_EQ(r.state(), RunnerState::Ready);
  EXPECT_EQ(r.restarts(), 1);
}

TEST(RunnerClient, ACrashWhileRunningIsReportedAndTheRunnerRestarted) {
  std::string crash = script("crash", R"(
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *ping*) echo "{\"id\":$id,\"status\":\"ok\",\"device\":{\"name\":\"Fake\"}}" ;;
    *) echo "segfault in the kernel launch" >&2; kill -SEGV $$ ;;
  esac
done
)");
  RunnerClient r(opts(crash));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Ready; });
  ASSERT_EQ(r.state(), RunnerState::Ready);
  uint64_t first = r.submit("/tmp/a");
  uint64_t second = r.submit("/tmp/b");
  std::vector<RunnerEvent> ev = pollUntil(r, [&] { return r.pending() == 0; }, 20);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].request, first);
  EXPECT_EQ(ev[0].kind, RunnerEvent::Kind::Failed);
  EXPECT_NE(ev[0].reason.find("crashed"), std::string::npos) << ev[0].reason;
  // Killed by SIGSEGV: the shell reports it as a signal or as status 139.
  EXPECT_TRUE(ev[0].reason.find("signal 11") != std::string::npos ||
              ev[0].reason.find("status 139") != std::string::npos)
      << ev[0].reason;
  // The second ran on a restarted runner (and crashed too).
  EXPECT_EQ(ev[1].request, second);
  EXPECT_GE(r.restarts(), 1);
}

TEST(RunnerClient, AFaultResultThenExitRestartsForTheNextRequest) {
  // The real runner answers "fault" and exits 3 (its CUDA context is dead).
  std::string fault = script("fault", R"(
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *ping*) echo "{\"id\":$id,\"status\":\"ok\",\"device\":{\"name\":\"Fake\"}}" ;;
    *) echo "{\"id\":$id,\"status\":\"fault\",\"error\":\"illegal memory access\"}"; exit 3 ;;
  esac
done
)");
  RunnerClient r(opts(fault));
  r.start();
  pollUntil(r, [&] { return r.state() == RunnerState::Ready; });
  r.submit("/tmp/a");
  std::vector<RunnerEvent> ev = pollUntil(r, [&] { return r.pending() == 0; });
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, RunnerEvent::Kind::Result);
  EXPECT_EQ(ev[0].reply.status, "fault");
  EXPECT_EQ(ev[0].reply.error, "illegal memory access");
  pollUntil(r, [&] { return r.state() == RunnerState::Ready && r.restarts() == 1; });
  EXPECT_EQ(r.state(), RunnerState::Ready);
}

TEST(RunnerProtocol, RequestLines) {
  EXPECT_EQ(runRequestLine(7, "/a/b"), "{\"bundle\":\"/a/b\",\"id\":7}");
  RunnerReply reply;
  std::string error;
  EXPECT_FALSE(parseRunnerReply("not json", reply, error));
  EXPECT_FALSE(parseRunnerReply("{\"id\": 1}", reply, error));
  ASSERT_TRUE(parseRunnerReply(
      "{\"id\":3,\"status\":\"verify_failed\",\"verified\":false,\"tflops\":null}", reply, error));
  EXPECT_EQ(*reply.id, 3u);
  EXPECT_EQ(reply.status, "verify_failed");
  EXPECT_FALSE(reply.tflops.has_value());
  EXPECT_TRUE(reply.warnings.empty());
  // The runner's warnings reach the variant (an output verified within the reference's own
  // rounding), and a saved session keeps them.
  ASSERT_TRUE(parseRunnerReply("{\"id\":4,\"status\":\"ok\",\"verified\":true,\"tflops\":512.5,"
                               "\"warnings\":[\"output out1 misses the tolerance derived from the IR\"]}",
                               reply, error));
  ASSERT_EQ(reply.warnings.size(), 1u);
  EXPECT_EQ(reply.warnings[0], "output out1 misses the tolerance derived from the IR");
  RunRecord run;
  run.id = 4;
  run.warnings = reply.warnings;
  RunRecord back;
  ASSERT_TRUE(runFromJson(runToJson(run), back));
  EXPECT_EQ(back.warnings, reply.warnings);
}

} // namespace
