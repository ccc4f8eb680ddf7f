//===- MeasuredTraceFileTest.cpp - trace files and whose they are ---------===//
//
// Reading the measured timelines stagecraft-run leaves on a GPU host (the
// Chrome trace of --trace, the result JSON) from H100 traces trimmed into
// test/Inputs/traces, refusing what is not one with a message that says
// what is wrong, and checking that a trace belongs to a kernel and schedule
// as far as the file says.
//
//===----------------------------------------------------------------------===//
#include "app/MeasuredTraceFile.h"
#include "app/SessionLoader.h"
#include "app/TraceMatch.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace stagecraft;
using namespace stagecraft::app;
using timeline::RowKind;

namespace {

std::string tracePath(const std::string &name) {
  return std::string(STAGECRAFT_TEST_INPUTS_DIR) + "/traces/" + name;
}

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

MeasuredTraceFile read(const std::string &name) {
  MeasuredTraceFile f;
  std::string error;
  EXPECT_TRUE(readMeasuredTraceFile(tracePath(name), f, error)) << error;
  return f;
}

/// The error of parsing `text`, "" when it parsed.
std::string parseError(const std::string &text) {
  MeasuredTraceFile f;
  std::string error;
  if (parseMeasuredTraceFile(text, f, error))
    return "";
  EXPECT_FALSE(error.empty());
  return error;
}

struct Loop {
  LoadedIr ir;
  explicit Loop(const std::string &asset) : ir(loadLoopIr(test::readAsset(asset), asset)) {
    EXPECT_TRUE(ir.ok);
  }
  /// The IR's schedule with `json` applied (as --schedule does).
  Schedule schedule(const std::string &json = "") const {
    Schedule s = ir.graph.initialSchedule;
    if (!json.empty()) {
      llvm::Expected<Schedule> given = Schedule::fromJson(json, "test");
      EXPECT_TRUE(static_cast<bool>(given));
      if (given)
        for (const ScheduleEntry &e : given->entries())
          s.set(e.name, e.sched);
    }
    return s;
  }
  std::string check(const MeasuredTraceFile &f, const std::string &json = "") const {
    return checkTraceMatches(f, ir.kernel, ir.graph, schedule(json));
  }
};

const char *kSingleGroup = R"({"format": "stagecraft-schedule", "version": 1, "ops": [
  {"name": "MMA", "stage": 1, "order": 0, "group": 1},
  {"name": "loadA", "stage": 0, "order": 1, "group": 1},
  {"name": "loadB", "stage": 0, "order": 2, "group": 1}]})";

TEST(MeasuredTraceFile, ReadsTheChromeTraceOfStagecraftRun) {
  MeasuredTraceFile f = read("gemm-ws-h100.trace.json");
  EXPECT_EQ(f.format, MeasuredTraceFile::Format::ChromeTrace);
  EXPECT_EQ(f.kernel, "gemm");
  EXPECT_EQ(f.device, "NVIDIA H100 80GB HBM3");
  EXPECT_NEAR(f.trace.overhead, 0.004472712563151404, 1e-15);
  EXPECT_NEAR(f.trace.plainMedianUs, 1452.3625, 1e-9);
  // A CTA per process, named as the runner names it; a row per warp group.
  ASSERT_EQ(f.trace.ctas.size(), 2u);
  const MeasuredCta &c = f.trace.ctas[0];
  EXPECT_EQ(c.timeline.title, "CTA 0 (SM 124)");
  EXPECT_EQ(c.cta, 0);
  EXPECT_EQ(c.sm, 124);
  EXPECT_EQ(f.trace.ctas[1].cta, 512);
  EXPECT_EQ(f.trace.ctas[1].sm, 52);
  ASSERT_EQ(c.timeline.rows.size(), 3u);
  EXPECT_EQ(c.timeline.rows[0].name, "producer");
  EXPECT_EQ(c.timeline.rows[0].kind, RowKind::Producer);
  EXPECT_EQ(c.timeline.rows[2].name, "consumer 1");
  EXPECT_EQ(c.timeline.rows[2].kind, RowKind::Consumer);
  ASSERT_EQ(c.timeline.units.size(), 3u);
  EXPECT_GE(c.timeline.findUnit("loadA"), 0);
  EXPECT_GE(c.timeline.findUnit("MMA"), 0);
  // 12 iterations of 2 loads and 2 MMAs per CTA; times from the CTA's start,
  // exact nanoseconds (args.start_ns), the iteration of each zone kept.
  EXPECT_EQ(c.timeline.zones.size(), 48u);
  EXPECT_EQ(f.eventCount(), 96u);
  double first = 1e300;
  for (const timeline::Zone &z : f.trace.ctas[1].timeline.zones)
    first = std::min(first, z.start);
  EXPECT_EQ(first, 0);
  int maxIteration = 0;
  for (const timeline::Zone &z : c.timeline.zones) {
    EXPECT_GE(z.end, z.start);
    maxIteration = std::max(maxIteration, z.iteration);
    if (c.timeline.units[z.unit].name == "MMA")
      EXPECT_NE(c.timeline.rows[z.row].kind, RowKind::Producer);
  }
  EXPECT_EQ(maxIteration, 11);
  // An older file: it cannot say its units' groups or its schedule.
  EXPECT_TRUE(f.trace.unitGroups.empty());
  EXPECT_TRUE(f.trace.scheduleJson.empty());
  ASSERT_FALSE(f.notes.empty());
  EXPECT_NE(f.notes.front().find("schedule"), std::string::npos) << f.notes.front();
}

TEST(MeasuredTraceFile, ReadsWhatANewerTraceSaysAboutItsSchedule) {
  MeasuredTraceFile f = read("gemm-ws-h100-with-schedule.trace.json");
  EXPECT_EQ(f.trace.unitGroups, (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(f.trace.ctas[0].timeline.units[2].name, "MMA");
  EXPECT_NE(f.trace.scheduleJson.find("\"wait\":1"), std::string::npos) << f.trace.scheduleJson;
  EXPECT_TRUE(f.notes.empty()) << f.notes.front();
}

TEST(MeasuredTraceFile, ReadsARunnerResultWithItsTrace) {
  MeasuredTraceFile f = read("gemm-single-h100.result.json");
  EXPECT_EQ(f.format, MeasuredTraceFile::Format::RunnerResult);
  EXPECT_EQ(f.kernel, "gemm");
  EXPECT_EQ(f.device, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(f.trace.ctas.size(), 2u);
  EXPECT_EQ(f.trace.ctas[0].timeline.title, "CTA 0 (SM 128)");
  // One warp group issues the loads: no producer.
  ASSERT_EQ(f.trace.ctas[0].timeline.rows.size(), 2u);
  EXPECT_EQ(f.trace.unitGroups, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(f.trace.warnings.size(), 1u); // its overhead was over 5%
  // The sizes it ran at, from the result's problem (its kind is no size).
  using Sizes = std::vector<std::pair<std::string, int64_t>>;
  EXPECT_EQ(f.sizes, (Sizes{{"K", 8192}, {"M", 8192}, {"N", 8192}}));
  // A trace written before the runner recorded them does not say.
  EXPECT_TRUE(read("gemm-ws-h100-with-schedule.trace.json").sizes.empty());
}

TEST(MeasuredTraceFile, RefusesWhatIsNotAMeasuredTraceAndSaysWhy) {
  std::string ok = readText(tracePath("gemm-ws-h100.trace.json"));
  ASSERT_EQ(parseError(ok), "");
  // Cut short: the JSON error with its line and column.
  std::string e = parseError(ok.substr(0, ok.size() / 2));
  EXPECT_NE(e.find("not JSON: line "), std::string::npos) << e;
  EXPECT_NE(parseError("").find("not JSON"), std::string::npos);
  EXPECT_NE(parseError("[]").find("JSON array"), std::string::npos);
  EXPECT_NE(parseError("42").find("not a JSON object"), std::string::npos);
  EXPECT_NE(parseError("{\"a\": 1}").find("neither a trace"), std::string::npos);
  EXPECT_NE(parseError("{\"traceEvents\": {}}").find("\"traceEvents\" is not an array"),
            std::string::npos);
  EXPECT_NE(parseError("{\"traceEvents\": []}").find("no complete events"), std::string::npos);
  // A predicted timeline (stagecraft-compile --timeline) is not a measurement.
  e = parseError(R"({"traceEvents": [{"name": "MMA", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1,
    "args": {"iteration": 0}}], "otherData": {"kind": "predicted", "kernel": "gemm"}})");
  EXPECT_NE(e.find("predicted timeline"), std::string::npos) << e;
  // The event at fault, and what it lacks.
  e = parseError(R"({"traceEvents": [{"name": "MMA", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1,
    "args": {"iteration": 0}}, {"name": "MMA", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1}]})");
  EXPECT_NE(e.find("traceEvents[1] (MMA) has no args.iteration"), std::string::npos) << e;
  e = parseError(R"({"traceEvents": [{"name": "MMA", "ph": "X", "ts": 0, "dur": -1, "pid": 1, "tid": 1,
    "args": {"iteration": 0}}]})");
  EXPECT_NE(e.find("traceEvents[0] (MMA)"), std::string::npos) << e;
  // Times no kernel spans, and iterations past an int.
  e = parseError(R"({"traceEvents": [{"name": "MMA", "ph": "X", "ts": 1e308, "dur": 1, "pid": 1, "tid": 1,
    "args": {"iteration": 0}}]})");
  EXPECT_NE(e.find("traceEvents[0] (MMA) ends more than an hour after the trace's start"),
            std::string::npos) << e;
  e = parseError(R"({"traceEvents": [{"name": "MMA", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1,
    "args": {"iteration": 2147483648}}]})");
  EXPECT_NE(e.find("traceEvents[0] (MMA) has iteration 2147483648, outside 0 to 2^31-1"),
            std::string::npos) << e;
  e = parseError(R"({"traceEvents": [7]})");
  EXPECT_NE(e.find("traceEvents[0] is not an object"), std::string::npos) << e;
  e = parseError(R"({"traceEvents": [{"name": "X1", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1,
    "args": {"iteration": 0}}], "otherData": {"kind": "measured", "units": [{"id": 0, "name": "MMA"}]}})");
  EXPECT_NE(e.find("names the unit \"X1\", which otherData.units does not list"), std::string::npos) << e;
  // A runner result without a trace, or whose run failed.
  e = parseError(R"({"id": null, "status": "ok", "kernel": "gemm", "trace": null})");
  EXPECT_NE(e.find("has no measured timeline"), std::string::npos) << e;
  e = parseError(R"({"status": "ok", "trace": {"error": "the bundle has no instrumented kernel"}})");
  EXPECT_NE(e.find("the bundle has no instrumented kernel"), std::string::npos) << e;
  // A file that is not there.
  MeasuredTraceFile f;
  std::string error;
  EXPECT_FALSE(readMeasuredTraceFile(tracePath("missing.json"), f, error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
  // A device never ends: refused before reading (it grew the app to 24 GB).
  EXPECT_FALSE(readMeasuredTraceFile("/dev/zero", f, error));
  EXPECT_NE(error.find("is not a regular file"), std::string::npos) << error;
}

TEST(TraceMatch, AThreadNoMetadataNamesIsNotTakenForAConsumer) {
  // gemm-ws-h100.trace.json with its first CTA's loadA zones on a tid no thread_name names:
  // it was taken for a consumer, and the trace refused as "loadA ran on a consumer warp group
  // there, and on the producer here" (the ninth sweep's M15).
  Loop gemm("gemm.mlir");
  std::string e = gemm.check(read("gemm-unnamed-thread.trace.json"));
  EXPECT_NE(e.find("have no thread_name metadata: which warp group ran loadA cannot be told"),
            std::string::npos)
      << e;
}

TEST(TraceMatch, AcceptsATraceOfThisKernelAndSchedule) {
  Loop gemm("gemm.mlir");
  EXPECT_EQ(gemm.check(read("gemm-ws-h100.trace.json")), "");
  EXPECT_EQ(gemm.check(read("gemm-ws-h100-with-schedule.trace.json")), "");
  EXPECT_EQ(gemm.check(read("gemm-single-h100.result.json"), kSingleGroup), "");
  // Only stage differences matter: every stage one later is the same schedule.
  EXPECT_EQ(gemm.check(read("gemm-ws-h100-with-schedule.trace.json"),
                       R"({"format": "stagecraft-schedule", "version": 1, "ops": [
                         {"name": "MMA", "stage": 3, "order": 0, "group": 1, "wait": 1},
                         {"name": "loadA", "stage": 1, "order": 1, "group": 0},
                         {"name": "loadB", "stage": 1, "order": 2, "group": 0}]})"),
            "");
}

TEST(TraceMatch, TheEpilogueIsNoUnitOfTheLoop) {
  // A trace of a bundle compiled since the epilogue is recorded: otherData
  // lists it with "kind": "epilogue", and its events follow each tile's loop.
  std::string text = readText(tracePath("gemm-ws-h100-with-schedule.trace.json"));
  const std::string units = R"({"id": 2, "name": "MMA", "group": 1}])";
  ASSERT_NE(text.find(units), std::string::npos);
  text.replace(text.find(units), units.size(),
               R"({"id": 2, "name": "MMA", "group": 1}, {"id": 3, "name": "epilogue", "group": 1, "kind": "epilogue"}])");
  const std::string events = "{\"traceEvents\": [";
  text.replace(text.find(events), events.size(),
               events + R"({"name": "epilogue", "cat": "consumer", "ph": "X", "ts": 90.0, "dur": 2.0, "pid": 1, "tid": 2, "args": {"iteration": 128, "start_ns": 90000, "duration_ns": 2000}},)");
  MeasuredTraceFile f;
  std::string error;
  ASSERT_TRUE(parseMeasuredTraceFile(text, f, error)) << error;
  const timeline::Timeline &t = f.trace.ctas[0].timeline;
  int epilogue = t.findUnit("epilogue");
  ASSERT_GE(epilogue, 0);
  EXPECT_EQ(t.units[epilogue].kind, timeline::ZoneKind::Epilogue);
  EXPECT_EQ(t.units[t.findUnit("MMA")].kind, timeline::ZoneKind::Other); // the app colours it
  size_t zones = 0;
  for (const timeline::Zone &z : t.zones)
    zones += z.unit == static_cast<uint16_t>(epilogue);
  EXPECT_EQ(zones, 1u);
  Loop gemm("gemm.mlir");
  EXPECT_EQ(gemm.check(f), "");
  // A unit the loop does not have is still refused.
  f.trace.ctas[0].timeline.units[epilogue].kind = timeline::ZoneKind::Other;
  EXPECT_NE(gemm.check(f).find("its unit \"epilogue\" is not in this kernel's loop"), std::string::npos);
}

TEST(TraceMatch, RefusesAnotherKernel) {
  Loop attention("attention_fwd_d128.mlir");
  std::string e = attention.check(read("gemm-ws-h100.trace.json"));
  EXPECT_EQ(e, "it was measured for kernel \"gemm\", and the open kernel is \"attn_fwd_d128\"");
  // A file that does not name its kernel is still checked by its units.
  MeasuredTraceFile f = read("gemm-ws-h100.trace.json");
  f.kernel.clear();
  e = attention.check(f);
  EXPECT_NE(e.find("is not in this kernel's loop"), std::string::npos) << e;
}

TEST(TraceMatch, RefusesAnotherScheduleAsFarAsTheFileSays) {
  Loop gemm("gemm.mlir");
  // The schedule it carries: the first difference, in words.
  std::string e = gemm.check(read("gemm-ws-h100-with-schedule.trace.json"),
                             R"({"format": "stagecraft-schedule", "version": 1, "ops": [
                               {"name": "MMA", "stage": 1, "order": 0, "group": 1, "wait": 1}]})");
  EXPECT_NE(e.find("another schedule: MMA in stage 2 there, 1 here"), std::string::npos) << e;
  e = gemm.check(read("gemm-ws-h100-with-schedule.trace.json"),
                 R"({"format": "stagecraft-schedule", "version": 1, "ops": [
                   {"name": "MMA", "stage": 2, "order": 0, "group": 1, "wait": 0}]})");
  EXPECT_NE(e.find("MMA with wait 1 there, 0 here"), std::string::npos) << e;
  // Its units' groups (a result): measured in one group, the IR's has a producer.
  e = gemm.check(read("gemm-single-h100.result.json"));
  EXPECT_NE(e.find("loadA in group 1 there, 0 here"), std::string::npos) << e;
  EXPECT_NE(e.find("--schedule"), std::string::npos) << e;
  // An older trace: its loads ran on a producer, this schedule has none.
  e = gemm.check(read("gemm-ws-h100.trace.json"), kSingleGroup);
  EXPECT_NE(e.find("loadA ran on a producer warp group there, and on a consumer here"),
            std::string::npos)
      << e;
}

} // namespace
