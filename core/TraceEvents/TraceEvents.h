//===- TraceEvents.h - Chrome trace-event JSON ----------------------*- C++ -*-===//
//
// One writer for every timeline the project exports: the predicted timeline
// of stagecraft-compile --timeline and the measured one of stagecraft-run
// --trace. The output is the Trace Event Format that Perfetto and
// chrome://tracing open:
//
//   {"traceEvents": [
//      {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "CTA 0 (SM 3)"}},
//      {"name": "thread_name",  "ph": "M", "pid": 1, "tid": 2, "args": {"name": "consumer 0"}},
//      {"name": "MMA0", "cat": "dot", "ph": "X", "ts": 1.234, "dur": 0.512, "pid": 1, "tid": 2,
//       "args": {"iteration": 5}}, ...],
//    "displayTimeUnit": "ns", "otherData": {...}}
//
// Timestamps and durations are in microseconds (the format's unit), written
// with nanosecond precision. Plain C++17 with no dependency, so the profiler
// (which must build alone on a GPU host, without LLVM) uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TRACEEVENTS_TRACEEVENTS_H
#define STAGECRAFT_CORE_TRACEEVENTS_TRACEEVENTS_H

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::trace {

/// An argument of an event (shown in Perfetto's details pane) or of the
/// document's otherData: a number, a string, or a JSON value written as it
/// is (arrays and objects: what a measured trace says about its kernel).
struct Arg {
  std::string key;
  bool isNumber = false;
  bool isJson = false; // `text` is JSON, written verbatim
  double number = 0;
  std::string text;

  static Arg num(std::string key, double value);
  static Arg str(std::string key, std::string value);
  /// `jsonText` must be one valid JSON value (the caller serialized it).
  static Arg json(std::string key, std::string jsonText);
};

/// A complete event ("ph": "X"): one unit of one iteration on one warp group.
struct Event {
  std::string name;
  std::string category; // "load", "dot", "compute", ... ("" writes no "cat")
  int64_t pid = 0, tid = 0;
  double tsUs = 0, durUs = 0;
  std::vector<Arg> args;
};

/// A process (a CTA, or "predicted") and a thread (a warp group, or a
/// hardware unit of the predicted timeline); sortIndex orders them in the UI.
struct Process {
  int64_t pid = 0;
  std::string name;
  int64_t sortIndex = 0;
};
struct Thread {
  int64_t pid = 0, tid = 0;
  std::string name;
  int64_t sortIndex = 0;
};

struct Document {
  std::vector<Process> processes;
  std::vector<Thread> threads;
  std::vector<Event> events;
  /// Free-form facts about the trace (kernel, device, overhead, ...).
  std::vector<Arg> otherData;
};

/// The JSON text. Non-finite numbers are written as null (JSON has no NaN);
/// negative durations as 0.
std::string toJson(const Document &doc);

/// `text` as a JSON string literal, quotes included.
std::string quote(const std::string &text);

/// Writes `text` to `path` through a temporary file in the same directory and
/// a rename, so a failure never leaves a half-written trace. Returns "" or
/// the reason ("cannot write /x/t.json: Permission denied").
std::string writeFileAtomically(const std::string &path, const std::string &text);

} // namespace stagecraft::trace

#endif // STAGECRAFT_CORE_TRACEEVENTS_TRACEEVENTS_H
