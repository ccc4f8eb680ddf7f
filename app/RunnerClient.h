//===- RunnerClient.h - the runner process, supervised ------------*- C++ -*-===//
//
// The app runs kernels through a child process, `stagecraft-run --serve`, or
// any command that speaks its protocol (e.g. `ssh gpu-host stagecraft-run
// --serve`): requests on its stdin, JSON results on its stdout, one per line.
//
// The UI thread never blocks on it: a reader thread moves the child's output
// lines into a queue, writes are non-blocking, and poll() (called once a
// frame) matches replies to requests, notices the child's exit, and enforces
// timeouts. A runner that exits before answering its first ping is
// "unavailable" (no GPU, command not found) and stays so until restart(); a
// runner that dies or hangs while running a kernel is killed (SIGKILL to its
// whole process group), reported against that request and restarted.
//
// Every submitted request gets exactly one RunnerEvent: a Result or a
// Failed with the reason in words.
//
// Bundles travel by path when the runner can read the app's files, and
// inside the request otherwise (docs/runner-protocol.md): in Auto mode the
// first ping carries a probe, a file with a random token next to the
// bundles; a runner that cannot read it (another host, another mount
// namespace) gets every bundle uploaded.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_RUNNERCLIENT_H
#define STAGECRAFT_APP_RUNNERCLIENT_H

#include "app/RunnerProtocol.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace stagecraft::app {

enum class RunnerState {
  Stopped,     // not started (or no command configured)
  Starting,    // spawned, waiting for the answer to the first ping
  Ready,       // answered the ping with a device
  Unavailable, // exited, failed to start, or answered without a GPU
};
const char *runnerStateName(RunnerState state);

enum class UploadMode {
  Auto,   // upload when the runner says it cannot read the probe file
  Always, // always send the bundle in the request
  Never,  // always send the path
};
const char *uploadModeName(UploadMode mode);
/// "auto", "always", "never"; false for anything else.
bool parseUploadMode(const std::string &text, UploadMode &mode);

struct RunnerOptions {
  std::string command;
  UploadMode upload = UploadMode::Auto;
  /// Where the Auto probe file goes (the app's bundle directory); without
  /// one, Auto sends paths.
  std::string probeDir;
  /// For the first answer (connecting to a host, creating a CUDA context).
  double startTimeoutSeconds = 60;
  /// For one run; the runner's own watchdog (20 s a launch) is shorter.
  double requestTimeoutSeconds = 300;
  /// Automatic restarts in a row (after a crash or hang) before giving up.
  int maxAutoRestarts = 3;
  /// Ask for the measured timeline with every run (the runner runs the
  /// bundle's instrumented kernel after timing it).
  bool trace = true;
  /// What the status says when there is no command ("" : that none is set).
  std::string noCommandReason;
};

struct RunnerEvent {
  enum class Kind { Result, Failed };
  Kind kind = Kind::Failed;
  uint64_t request = 0;
  RunnerReply reply;   // Result
  std::string reason;  // Failed
};

class RunnerClient {
public:
  explicit RunnerClient(RunnerOptions options = {});
  ~RunnerClient();
  RunnerClient(const RunnerClient &) = delete;
  RunnerClient &operator=(const RunnerClient &) = delete;

  const RunnerOptions &options() const { return options_; }
  /// Changes the command and restarts when running.
  void setCommand(const std::string &command);
  void start();
  void stop();
  /// stop() then start(); also clears the automatic-restart count.
  void restart();

  /// Queues a run of a bundle; the request is sent when the runner is ready.
  uint64_t submit(const std::string &bundleDir);
  /// Non-blocking: reads replies, notices exits and timeouts, sends queued
  /// requests. Returns the requests finished since the last call.
  std::vector<RunnerEvent> poll();

  RunnerState state() const { return state_; }
  /// In words: "ready: NVIDIA H100 80GB HBM3", "unavailable: no CUDA device".
  std::string stateText() const;
  const std::string &deviceName() const { return device_; }
  const std::string &unavailableReason() const { return reason_; }
  /// Whether bundles go inside the requests (decided at the first ping).
  bool uploading() const { return uploading_; }
  void setProbeDir(const std::string &dir) { options_.probeDir = dir; }
  void setUploadMode(UploadMode mode);
  /// The child's last stderr lines (for the log panel).
  std::vector<std::string> stderrTail() const;
  /// Requests waiting or running.
  size_t pending() const { return queue_.size() + (inFlight_ ? 1 : 0); }
  bool running() const { return inFlight_.has_value(); }
  int restarts() const { return totalRestarts_; }

private:
  using Clock = std::chrono::steady_clock;
  struct Request {
    uint64_t id;
    std::string bundleDir;
    Clock::time_point sent;
  };

  bool spawn();
  void killChild(const std::string &why);
  void readerLoop(int outFd, int errFd);
  void handleExit(const std::string &how, std::vector<RunnerEvent> &events);
  void handleLine(const std::string &line, std::vector<RunnerEvent> &events);
  void failQueued(const std::string &reason, std::vector<RunnerEvent> &events);
  void flushWrites();
  void reapZombies();
  std::string lastStderrLine() const;
  void removeProbe();

  RunnerOptions options_;
  RunnerState state_ = RunnerState::Stopped;
  std::string device_, reason_;

  pid_t pid_ = -1;
  int inFd_ = -1;
  std::string writeBuffer_;
  std::thread reader_;
  std::atomic<bool> stopReader_{false};
  std::vector<pid_t> zombies_;

  mutable std::mutex linesMutex_;
  std::deque<std::string> outLines_;
  std::deque<std::string> errLines_;  // the last few

  uint64_t nextId_ = 1;
  uint64_t pingId_ = 0;
  Clock::time_point startedAt_;
  std::deque<Request> queue_;
  std::optional<Request> inFlight_;
  int autoRestarts_ = 0, totalRestarts_ = 0;
  bool uploading_ = false;
  std::string probeFile_, probeToken_;
};

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_RUNNERCLIENT_H
