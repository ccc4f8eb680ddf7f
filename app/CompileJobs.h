//===- CompileJobs.h - background compiles, newest edit wins ------*- C++ -*-===//
//
// Every schedule edit asks for a compile; a user dragging cards makes several
// a second. One worker thread runs them through stagecraft::compile (the
// same driver as the CLI), one call per job whose results come out in three
// phases: the schedule checked (parse, apply, legality: milliseconds), the
// kernel's PTX (what the user waits for), then everything (the reference,
// the cubin, the IR after each pass), whose bundle is written on the worker
// too.
//
// Supersession: submitting a job sets the cancel flag of the running one (the
// driver stops at the next pass boundary) and replaces any queued one. Only
// results of the newest job are handed out; stale ones are dropped, so an
// old, slow compile can never overwrite a newer state.
//
// The UI thread only calls submit() and take(): both take a mutex held for a
// few instructions, never for a compile.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_COMPILEJOBS_H
#define STAGECRAFT_APP_COMPILEJOBS_H

#include "passes/Driver/CompileDriver.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace stagecraft::app {

/// The compile back end, replaceable in tests.
struct CompileBackend {
  std::function<CompileResult(const std::string &source,
                              const std::string &sourceName,
                              const CompileOptions &options)>
      compile;
  /// Writes a bundle; returns "" or an error message.
  std::function<std::string(const CompileResult &, const std::string &dir)>
      writeBundle;
  /// The real driver: stagecraft::compile and stagecraft::writeBundle.
  static CompileBackend driver();
};

struct CompileRequest {
  std::string source;
  std::string sourceName;
  /// onScheduleChecked and onPtx are the worker's own.
  CompileOptions options;
  /// Run only the schedule check (e.g. while the lowering is missing).
  bool scheduleOnly = false;
  /// Where to write the bundle of a successful full compile ("" = none).
  std::string bundleDir;
};

struct CompileOutcome {
  /// ScheduleChecked: the check, or the compile that failed it. Ptx: the
  /// kernel's PTX and manifest, before the reference, the cubin and the IR
  /// text. Full: the finished compile (also one that failed in codegen).
  enum class Phase { ScheduleChecked, Ptx, Full };
  uint64_t job = 0;
  Phase phase = Phase::Full;
  CompileResult result;
  double seconds = 0;       // from the job's start
  std::string bundleDir;    // written when non-empty
  std::string bundleError;  // writing the bundle failed
};

class CompileJobs {
public:
  explicit CompileJobs(CompileBackend backend);
  ~CompileJobs();
  CompileJobs(const CompileJobs &) = delete;
  CompileJobs &operator=(const CompileJobs &) = delete;

  /// Queues a job, cancelling the running one and dropping a queued one.
  /// Returns its id (increasing from 1).
  uint64_t submit(CompileRequest request);
  /// The next result of the newest job, if one is ready. Never blocks.
  std::optional<CompileOutcome> take();

  /// True while a job runs or waits.
  bool busy() const;
  /// The newest job id (0: none yet).
  uint64_t newest() const;
  /// Seconds the running job has taken so far (0 when idle).
  double runningSeconds() const;
  /// Jobs cancelled or dropped so far (for tests and the status line).
  uint64_t supersededCount() const;

private:
  struct Job {
    uint64_t id = 0;
    CompileRequest request;
    std::shared_ptr<std::atomic<bool>> cancel;
  };
  void workerLoop();
  void publish(CompileOutcome outcome);

  CompileBackend backend_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> queued_;
  std::shared_ptr<std::atomic<bool>> runningCancel_;
  uint64_t runningId_ = 0;
  std::chrono::steady_clock::time_point runningSince_;
  std::deque<CompileOutcome> results_;
  uint64_t newest_ = 0;
  uint64_t superseded_ = 0;
  bool stopping_ = false;
  std::thread worker_;
};

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_COMPILEJOBS_H
