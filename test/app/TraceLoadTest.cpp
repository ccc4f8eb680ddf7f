//===- TraceLoadTest.cpp - opening a measured trace file in the app -------===//
//
// AppState::openMeasuredTrace (File > Open measured trace..., --trace): a
// trace measured elsewhere is shown for the kernel and schedule it belongs
// to; another kernel's, another schedule's or a broken file is refused with
// a status line that names the file and what is wrong, and nothing changes.
//
//===----------------------------------------------------------------------===//
#include "app/AppState.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

std::string tracePath(const std::string &name) {
  return std::string(STAGECRAFT_TEST_INPUTS_DIR) + "/traces/" + name;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(AppStateTrace, OpensATraceOfTheOpenKernel) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  std::string path = tracePath("gemm-ws-h100-with-schedule.trace.json");
  ASSERT_TRUE(app.openMeasuredTrace(path)) << app.status().text;
  EXPECT_EQ(app.status().level, StatusLevel::Ok) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "showing the measured timeline " + path)) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "2 sampled CTAs, 96 zones, NVIDIA H100 80GB HBM3"))
      << app.status().text;
  ASSERT_NE(app.loadedTrace(), nullptr);
  TraceView v = app.shownTrace();
  ASSERT_NE(v.trace, nullptr);
  EXPECT_EQ(v.trace, &app.loadedTrace()->file.trace);
  EXPECT_EQ(v.run, nullptr);
  EXPECT_EQ(v.source, "gemm-ws-h100-with-schedule.trace.json");
  EXPECT_EQ(v.device, "NVIDIA H100 80GB HBM3");
  EXPECT_NE(v.key, 0u);
  // The units take the board's kinds (colours).
  const timeline::Timeline &t = v.trace->ctas[0].timeline;
  EXPECT_EQ(t.units[t.findUnit("MMA")].kind, timeline::ZoneKind::Dot);
  EXPECT_EQ(t.units[t.findUnit("loadA")].kind, timeline::ZoneKind::Load);
}

TEST(AppStateTrace, AnOlderTraceLoadsWithAWarning) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  ASSERT_TRUE(app.openMeasuredTrace(tracePath("gemm-ws-h100.trace.json"))) << app.status().text;
  EXPECT_EQ(app.status().level, StatusLevel::Warning);
  EXPECT_TRUE(contains(app.status().text, "checked only as far as the file says")) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "schedule")) << app.status().text;
  EXPECT_NE(app.shownTrace().trace, nullptr);
}

TEST(AppStateTrace, ShownForTheScheduleItWasLoadedWith) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  ASSERT_TRUE(app.openMeasuredTrace(tracePath("gemm-ws-h100-with-schedule.trace.json")));
  uint64_t key = app.shownTrace().key;
  // Another schedule: the measurement is not of it.
  MoveOutcome moved = app.setWait("MMA", 0);
  ASSERT_TRUE(moved.applied) << moved.explanation;
  EXPECT_EQ(app.shownTrace().trace, nullptr);
  EXPECT_NE(app.loadedTrace(), nullptr);
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(app.shownTrace().key, key);
  // Another file: it is gone.
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  EXPECT_EQ(app.loadedTrace(), nullptr);
  EXPECT_EQ(app.shownTrace().trace, nullptr);
}

TEST(AppStateTrace, ARunnerResultWithItsTraceLoads) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  ASSERT_TRUE(app.loadSchedule(std::string(STAGECRAFT_SOURCE_DIR) +
                               "/bench/timeline/schedules/gemm--single-ahead1-wait0.json"))
      << app.status().text;
  ASSERT_TRUE(app.openMeasuredTrace(tracePath("gemm-single-h100.result.json"))) << app.status().text;
  ASSERT_NE(app.shownTrace().trace, nullptr);
  EXPECT_EQ(app.shownTrace().trace->ctas[0].timeline.rows.size(), 2u);
}

TEST(AppStateTrace, AnotherKernelsTraceIsRefusedWithTheReason) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  std::string path = tracePath("gemm-ws-h100.trace.json");
  EXPECT_FALSE(app.openMeasuredTrace(path));
  EXPECT_EQ(app.status().level, StatusLevel::Error);
  EXPECT_TRUE(contains(app.status().text, path)) << app.status().text;
  EXPECT_TRUE(contains(app.status().text,
                       "it was measured for kernel \"gemm\", and the open kernel is \"attn_fwd_d128\""))
      << app.status().text;
  EXPECT_EQ(app.loadedTrace(), nullptr);
  EXPECT_EQ(app.shownTrace().trace, nullptr);
}

TEST(AppStateTrace, AnotherSchedulesTraceIsRefusedAndTheShownOneStays) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  ASSERT_TRUE(app.openMeasuredTrace(tracePath("gemm-ws-h100.trace.json")));
  uint64_t key = app.shownTrace().key;
  // Measured with loads in the consumers' group: the IR's schedule has a producer.
  EXPECT_FALSE(app.openMeasuredTrace(tracePath("gemm-single-h100.result.json")));
  EXPECT_TRUE(contains(app.status().text, "gemm-single-h100.result.json")) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "loadA in group 1 there, 0 here")) << app.status().text;
  EXPECT_EQ(app.shownTrace().key, key);
}

/// The trace of gemm-ws-h100-with-schedule.trace.json saying it ran at
/// `problem` (the runner's "problem" object), written into a temporary file.
std::string traceAt(const std::string &name, const std::string &problem) {
  std::ifstream in(tracePath("gemm-ws-h100-with-schedule.trace.json"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t at = text.find("\"otherData\": {");
  EXPECT_NE(at, std::string::npos);
  text.insert(at + std::string("\"otherData\": {").size(), "\"problem\": " + problem + ", ");
  std::string path = test::tempDir("sized-trace") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(AppStateTrace, ATraceMeasuredAtOtherSizesIsPredictedAtThem) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir"))); // M = N = K = 8192 by default
  ASSERT_TRUE(app.prediction().ok);
  std::string path = traceAt("small.json", R"({"kind": "gemm", "M": 1024, "N": 2048, "K": 512})");
  ASSERT_TRUE(app.openMeasuredTrace(path)) << app.status().text;
  EXPECT_EQ(app.status().level, StatusLevel::Ok) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "measured and predicted at M=1024 N=2048 K=512"))
      << app.status().text;
  ASSERT_NE(app.loadedTrace(), nullptr);
  EXPECT_EQ(app.loadedTrace()->sizes, "M=1024 N=2048 K=512");
  EXPECT_EQ(app.loadedTrace()->defaultSizes, "M=8192 N=8192 K=8192");
  // The panel's prediction is the schedule's at the trace's sizes: 128 CTAs
  // of 8 iterations instead of 2048 of 128.
  const timeline::Prediction &atTrace = app.timelinePrediction();
  ASSERT_TRUE(atTrace.ok) << atTrace.error;
  EXPECT_NE(&atTrace, &app.prediction());
  EXPECT_LT(atTrace.waves, 1.0);
  EXPECT_GT(app.prediction().waves, 15.0);
  EXPECT_LT(atTrace.totalNs, app.prediction().totalNs / 100);
  // Another schedule: the trace is not shown, nor its prediction.
  ASSERT_TRUE(app.setWait("MMA", 0).applied);
  EXPECT_EQ(app.shownTrace().trace, nullptr);
  EXPECT_EQ(&app.timelinePrediction(), &app.prediction());
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(&app.timelinePrediction(), &*app.loadedTrace()->prediction);

  // At the IR's own sizes: the IR's prediction.
  ASSERT_TRUE(app.openMeasuredTrace(traceAt("same.json", R"({"kind": "gemm", "M": 8192, "N": 8192, "K": 8192})")));
  EXPECT_FALSE(app.loadedTrace()->prediction.has_value());
  EXPECT_EQ(&app.timelinePrediction(), &app.prediction());
  // A size the kernel does not have: said, and left out.
  ASSERT_TRUE(app.openMeasuredTrace(traceAt("odd.json", R"({"kind": "gemm", "M": 1024, "Q": 3})")));
  EXPECT_EQ(app.status().level, StatusLevel::Warning) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "its sizes Q are none of this kernel's")) << app.status().text;
  EXPECT_EQ(app.loadedTrace()->sizes, "M=1024");
  // A size the kernel cannot take: said, and the prediction stays at the IR's sizes.
  ASSERT_TRUE(app.openMeasuredTrace(traceAt("zero.json", R"({"kind": "gemm", "M": 0})")));
  EXPECT_EQ(app.status().level, StatusLevel::Warning) << app.status().text;
  EXPECT_TRUE(contains(app.status().text, "it was measured at M=0, where the schedule cannot be predicted"))
      << app.status().text;
  EXPECT_EQ(&app.timelinePrediction(), &app.prediction());
}

TEST(AppStateTrace, MalformedJsonIsRefusedNeverACrash) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  std::string dir = test::tempDir("bad-trace");
  std::string path = dir + "/cut.json";
  std::ofstream(path) << "{\"traceEvents\": [\n  {\"name\": \"MMA\", \"ph\": \"X\",";
  EXPECT_FALSE(app.openMeasuredTrace(path));
  EXPECT_EQ(app.status().level, StatusLevel::Error);
  EXPECT_TRUE(contains(app.status().text, "cannot read the measured timeline " + path + ": not JSON: line 2 column "))
      << app.status().text;
  EXPECT_EQ(app.loadedTrace(), nullptr);
  // Binary junk, an empty file, a directory, a missing file.
  std::ofstream(dir + "/junk.json") << std::string("\x89PNG\r\n\x1a\n\0\0", 10);
  std::ofstream(dir + "/empty.json");
  for (const std::string &p : {dir + "/junk.json", dir + "/empty.json", dir, dir + "/missing.json"}) {
    EXPECT_FALSE(app.openMeasuredTrace(p)) << p;
    EXPECT_EQ(app.status().level, StatusLevel::Error) << p;
    EXPECT_TRUE(contains(app.status().text, p)) << app.status().text;
  }
  // Without an open kernel there is nothing to check it against.
  AppState empty(test::testConfig());
  EXPECT_FALSE(empty.openMeasuredTrace(tracePath("gemm-ws-h100.trace.json")));
  EXPECT_TRUE(contains(empty.status().text, "open the IR of its kernel first")) << empty.status().text;
}

} // namespace
