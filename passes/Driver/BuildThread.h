//===- BuildThread.h - a compile side job on a thread of its own -*- C++ -*-===//
//
// The reference kernel and the instrumented (timeline) kernel are built from
// the scheduled IR's text in MLIRContexts of their own, on threads of their
// own, while the kernel's PTX, ptxas and the IR text go on. A build is a
// struct with `void run()` and `std::atomic<bool> abandon` (stop at the next
// step). The thread is joined when the holder is destroyed, abandoned first
// when nobody joined it, so no return path of the driver leaves it running.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_BUILDTHREAD_H
#define STAGECRAFT_PASSES_DRIVER_BUILDTHREAD_H

#include <memory>
#include <thread>

namespace stagecraft {

template <typename Build> class BuildThread {
public:
  explicit BuildThread(std::unique_ptr<Build> build) : build_(std::move(build)) {}
  BuildThread(const BuildThread &) = delete;
  BuildThread &operator=(const BuildThread &) = delete;
  ~BuildThread() {
    if (thread_.joinable()) {
      build_->abandon.store(true);
      thread_.join();
    }
  }

  void start() {
    if (!started())
      thread_ = std::thread([b = build_.get()] { b->run(); });
  }
  bool started() const { return thread_.joinable() || joined_; }
  /// Waits for the build (starting it here when it was not) and returns it.
  Build &join() {
    start();
    if (thread_.joinable())
      thread_.join();
    joined_ = true;
    return *build_;
  }

private:
  std::unique_ptr<Build> build_;
  std::thread thread_;
  bool joined_ = false;
};

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_BUILDTHREAD_H
