//===- RunnerProtocol.h - the app's side of the runner protocol ---*- C++ -*-===//
//
// One JSON request per line to `stagecraft-run --serve`, one JSON result per
// line back (docs/runner-protocol.md). Pure functions, tested without a
// process.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_RUNNERPROTOCOL_H
#define STAGECRAFT_APP_RUNNERPROTOCOL_H

#include "core/Timeline/Timeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::app {

/// One sampled CTA of a measured timeline: a row per warp group, times in ns
/// from the CTA's first event (so it lines up with a predicted CTA).
struct MeasuredCta {
  int64_t cta = 0;
  int64_t sm = -1; // -1: it recorded nothing
  timeline::Timeline timeline;
};

/// The result's "trace" object (docs/runner-protocol.md), or a trace file
/// (MeasuredTraceFile.h).
struct MeasuredTrace {
  double overhead = 0; // instrumented / plain median - 1
  double plainMedianUs = 0, instrumentedMedianUs = 0;
  /// The instrumented kernel with no CTA recording (0: not timed, an older
  /// runner or bundle): against the plain median what ptxas's schedule of
  /// the instrumented code costs, against the instrumented one the records.
  double idleMedianUs = 0;
  std::vector<MeasuredCta> ctas;
  std::vector<std::string> warnings;
  /// What the trace says it belongs to (a loaded file is checked with them):
  /// the schedule group of each unit, parallel to every CTA's
  /// timeline.units (empty when the trace does not say), and the schedule the
  /// kernel was compiled with as JSON ("" when the trace does not say).
  std::vector<int64_t> unitGroups;
  std::string scheduleJson;
};

struct RunnerReply {
  std::optional<uint64_t> id;  // absent when the runner could not read one
  std::string status;          // ok | error | fault | timeout | verify_failed
  std::string error;
  bool verified = false;
  std::optional<double> tflops, referenceTflops, ratioToReference;
  std::optional<double> medianUs, maxRelErr;
  std::optional<int> registersPerThread;
  std::string referenceName;
  /// What the runner warns of: a peer it could not time, an output verified
  /// only within the reference's own rounding (docs/runner-protocol.md).
  std::vector<std::string> warnings;
  std::string deviceName;
  std::string kernel;                  // the entry the runner ran
  std::string bundle;                  // the directory the runner used
  std::optional<bool> probe;           // a ping's probe: can it read the app's files?
  std::optional<int> receivedFiles;    // files of an uploaded bundle it wrote
  /// The measured timeline, when the request asked for one and the bundle
  /// has an instrumented kernel; else why not (traceError).
  std::optional<MeasuredTrace> trace;
  std::string traceError;
  std::string line;  // as received, for the log
};

/// {"id": N, "bundle": "/abs/path"} (with "trace": true when `trace`)
std::string runRequestLine(uint64_t id, const std::string &bundleDir, bool trace = false);
/// {"id": N, "upload": {"manifest.json": BASE64, ...}}: the bundle itself,
/// for a runner that cannot read the app's files (docs/runner-protocol.md).
/// Reads the files the runner needs from `bundleDir` (the instrumented
/// kernel's too, when there is one); false (with `error`) when they cannot
/// be read or exceed the runner's limits.
bool uploadRunRequestLine(uint64_t id, const std::string &bundleDir,
                          std::string &line, std::string &error, bool trace = false);
/// {"id": N, "cmd": "ping"}: the runner answers with its device.
std::string pingRequestLine(uint64_t id);
/// The same with a probe: the runner also says whether it can read the file
/// `path` and finds `token` in it.
std::string pingRequestLine(uint64_t id, const std::string &probePath,
                            const std::string &token);

/// Parses a result line; false (with `error`) when it is not a JSON object
/// with a status.
bool parseRunnerReply(const std::string &line, RunnerReply &reply,
                      std::string &error);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_RUNNERPROTOCOL_H
