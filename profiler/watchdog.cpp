#include "watchdog.h"

#include "upload.h"

#include <unistd.h>


namespace stagecraft::profiler {

namespace {

std::mutex g_stdoutMutex;

// write(2) until done: the watchdog must not depend on stdio buffering, which the main thread
// may have left in any state.
void writeAll(int fd, const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += size_t(n);
  }
}

}  // namespace

void writeStdoutLine(const std::string &line) {
  std::lock_guard<std::mutex> lock(g_stdoutMutex);
  writeAll(STDOUT_FILENO, line + "\n");
}

Watchdog::Watchdog() : thread_([this] { loop(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Watchdog::arm(double seconds, std::string timeoutLine, std::string logMessage) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    line_ = std::move(timeoutLine);
    log_ = std::move(logMessage);
  }
  cv_.notify_all();
}

void Watchdog::disarm() {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = false;
}

void Watchdog::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (stop_) return;
    if (!armed_) {
      cv_.wait(lock);
      continue;
    }
    auto deadline = deadline_;
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && armed_ && !stop_ &&
        deadline_ == deadline && std::chrono::steady_clock::now() >= deadline_) {
      writeAll(STDERR_FILENO, "stagecraft-run: watchdog: " + log_ + "\n");
      {
        // Take the stdout lock so the line cannot interleave with a result being written; the
        // main thread is blocked in the driver, not holding it.
        std::lock_guard<std::mutex> out(g_stdoutMutex);
        writeAll(STDOUT_FILENO, line_ + "\n");
      }
      removeLiveUploads();  // a bundle uploaded for this request
      ::_exit(kExitTimeout);
    }
  }
}

}  // namespace stagecraft::profiler
