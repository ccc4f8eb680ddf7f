//===- MeasuredTraceFile.h - a measured timeline read from a file -*- C++ -*-===//
//
// A kernel measured on a remote GPU with `stagecraft-run BUNDLE --trace
// FILE.json` leaves a Chrome trace-event file (docs/runner-protocol.md:
// a process per sampled CTA, a thread per warp group, one complete event per
// unit per iteration); `stagecraft-run BUNDLE > result.json` leaves the
// runner's result, whose "trace" object has the same events. This reads
// either into the MeasuredTrace the timeline panel shows for a run, with
// what the file says it belongs to (kernel, device, units and their schedule
// groups, the schedule). Whether it belongs to the open kernel and schedule
// is TraceMatch's job. No ImGui, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_MEASUREDTRACEFILE_H
#define STAGECRAFT_APP_MEASUREDTRACEFILE_H

#include "app/RunnerProtocol.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace stagecraft::app {

struct MeasuredTraceFile {
  enum class Format { ChromeTrace, RunnerResult };
  Format format = Format::ChromeTrace;
  std::string kernel; // the kernel it was measured for ("" when it does not say)
  std::string device; // the GPU ("" when it does not say)
  MeasuredTrace trace;
  /// The problem sizes it was measured at, by name (the runner's "problem":
  /// otherData.problem of a trace, "problem" of a result); empty when the
  /// file does not say (written before stagecraft-run recorded them).
  std::vector<std::pair<std::string, int64_t>> sizes;
  /// What the file does not say, so that a check had to be skipped (files
  /// written before the trace carried its units and schedule).
  std::vector<std::string> notes;
  size_t eventCount() const;
};

/// Files larger than this are refused before they are read.
inline constexpr uint64_t kMaxTraceFileBytes = 512ull << 20;

/// Parses the text of a trace file. False with `error` saying what is wrong
/// (JSON errors with their line and column, the event and field at fault);
/// the caller names the file.
bool parseMeasuredTraceFile(llvm::StringRef text, MeasuredTraceFile &out, std::string &error);

/// Reads and parses `path`; errors as parseMeasuredTraceFile, plus a file
/// that cannot be read or is too large.
bool readMeasuredTraceFile(const std::string &path, MeasuredTraceFile &out, std::string &error);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_MEASUREDTRACEFILE_H
