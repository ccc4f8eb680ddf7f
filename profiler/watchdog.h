// Cuts off a hung kernel.
//
// A kernel that never finishes blocks cuStreamSynchronize forever, and nothing inside CUDA can
// interrupt it. So every wait on the GPU runs under an armed watchdog: if the wait outlives its
// deadline, the watchdog thread writes the prepared "timeout" result line to stdout, flushes,
// and _exit()s the process; the driver then tears the context down and the kernel with it. The
// caller (the app, or a shell) sees one answer and a non-zero exit, and restarts the runner.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace stagecraft::profiler {

// Exit status of a process ended by the watchdog.
constexpr int kExitTimeout = 4;

// Serializes writes of whole lines to stdout between the main thread and the watchdog thread.
void writeStdoutLine(const std::string &line);

class Watchdog {
public:
  Watchdog();
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

  // From now on, if disarm() is not called within `seconds`, print `timeoutLine` and exit.
  void arm(double seconds, std::string timeoutLine, std::string logMessage);
  void disarm();

private:
  void loop();

  std::mutex mutex_;
  std::condition_variable cv_;
  bool armed_ = false;
  bool stop_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::string line_, log_;
  std::thread thread_;
};

// Arms on construction, disarms on destruction (also when the wait throws).
class WatchdogScope {
public:
  WatchdogScope(Watchdog &w, double seconds, std::string timeoutLine, std::string logMessage) : w_(w) {
    w_.arm(seconds, std::move(timeoutLine), std::move(logMessage));
  }
  ~WatchdogScope() { w_.disarm(); }
  WatchdogScope(const WatchdogScope &) = delete;
  WatchdogScope &operator=(const WatchdogScope &) = delete;

private:
  Watchdog &w_;
};

}  // namespace stagecraft::profiler
