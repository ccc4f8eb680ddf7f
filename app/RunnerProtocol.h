//===- RunnerProtocol.h - the app's side of the runner protocol ---*- C++ -*-===//
//
// One JSON request per line to `stagecraft-run --serve`, one JSON result per
// line back (docs/runner-protocol.md). Pure functions, tested without a
// process.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_RUNNERPROTOCOL_H
#define STAGECRAFT_APP_RUNNERPROTOCOL_H

#include <cstdint>
#include <optional>
#include <string>

namespace stagecraft::app {

struct RunnerReply {
  std::optional<uint64_t> id;  // absent when the runner could not read one
  std::string status;          // ok | error | fault | timeout | verify_failed
  std::string error;
  bool verified = false;
  std::optional<double> tflops, referenceTflops, ratioToReference;
  std::optional<double> medianUs, maxRelErr;
  std::optional<int> registersPerThread;
  std::string referenceName;
  std::string deviceName;
  std::string bundle;                  // the directory the runner used
  std::optional<bool> probe;           // a ping's probe: can it read the app's files?
  std::optional<int> receivedFiles;    // files of an uploaded bundle it wrote
  std::string line;  // as received, for the log
};

/// {"id": N, "bundle": "/abs/path"}
std::string runRequestLine(uint64_t id, const std::string &bundleDir);
/// {"id": N, "upload": {"manifest.json": BASE64, ...}}: the bundle itself,
/// for a runner that cannot read the app's files (docs/runner-protocol.md).
/// Reads the files the runner needs from `bundleDir`; false (with `error`)
/// when they cannot be read or exceed the runner's limits.
bool uploadRunRequestLine(uint64_t id, const std::string &bundleDir,
                          std::string &line, std::string &error);
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
