// One GPU, one process: the driver, the primary context, the runner's kernels, CUPTI and cuBLAS,
// set up once and reused by every request (--serve handles many).
#pragma once

#include "cublas_reference.h"
#include "cublaslt_fp8.h"
#include "cupti_timer.h"
#include "launch.h"
#include "manifest.h"
#include "protocol.h"
#include "runner_kernels.h"
#include "watchdog.h"

#include <cuda.h>

#include <memory>
#include <string>

namespace stagecraft::profiler {

class GpuSession {
public:
  // Loads the driver, picks device 0, and sets up everything. Returns nullptr with `error` set
  // to "no CUDA device: <driver's reason>" when there is no usable GPU, or to another message.
  // With `timing` false, CUPTI is left alone (requests must be untimed).
  static std::unique_ptr<GpuSession> open(std::string *error, bool timing = true);
  ~GpuSession();

  // Runs one bundle request. Never throws: every failure becomes a Result with a status.
  Result run(const Request &request);
  // Answers a "ping" request with the device description.
  Result ping(const Request &request) const;

  // True after a sticky fault: the context is unusable and the process must exit.
  bool contextDead() const { return dead_; }
  const DeviceInfo &device() const { return device_; }

private:
  GpuSession() = default;
  // `verdict`: what the watchdog says happened, if this wait never returns (default: the kernel
  // hangs or is too slow).
  void waitStream(CUstream stream, const char *what, double seconds = -1, const char *verdict = nullptr);
  void runOrThrow(const Request &request, Result &r);
  // Runs the instrumented kernel (after timing), times it the same way and fills r.trace.
  void measureTimeline(const Request &request, const Manifest &m, LoadedBundle &bundle, int sets, Result &r);

  CUdevice cuDevice_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  DeviceInfo device_;
  std::unique_ptr<RunnerKernels> kernels_;
  std::unique_ptr<CuptiTimer> cupti_;
  std::unique_ptr<CublasGemm> cublas_;  // created on first use
  std::unique_ptr<CublasLtFp8> cublasLt_;  // created on first use (FP8 peers)
  Watchdog watchdog_;
  double watchdogSeconds_ = kDefaultWatchdogSeconds;
  const Result *current_ = nullptr;  // the request in flight, for the watchdog's timeout line
  bool dead_ = false;
};

// Fills the launch-independent fields every result carries (id, bundle, defaults).
Result newResult(const Request &request);

}  // namespace stagecraft::profiler
