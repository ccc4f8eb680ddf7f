// Verification: recompute the kernel's output in higher precision on the GPU and measure the
// difference (error_metrics.h says how it is judged).
#pragma once

#include "device_buffer.h"
#include "error_metrics.h"
#include "launch.h"
#include "manifest.h"
#include "runner_kernels.h"

#include <cuda.h>

#include <functional>
#include <limits>

namespace stagecraft::profiler {

class CublasGemm;

// Blocks until `stream` is idle; the runner's implementation arms the watchdog around the wait.
using StreamWait = std::function<void(CUstream, const char *what)>;

// Sums error statistics over one or more (output, reference) pieces on the device.
class ErrorAccumulator {
public:
  // Elements that differ by more than `excludeAbove` are counted apart (ErrorSummary::excluded).
  ErrorAccumulator(const RunnerKernels &kernels, CUstream stream,
                   float excludeAbove = std::numeric_limits<float>::infinity());
  void add(CUdeviceptr out, DType outType, CUdeviceptr refF32, uint64_t count);
  // Waits for the stream and reads the totals.
  ErrorSummary read(const StreamWait &wait);

private:
  const RunnerKernels &kernels_;
  CUstream stream_;
  DeviceBuffer stats_;
  uint64_t count_ = 0;
  float excludeAbove_;
};

// Compares the gemm output of the last launch (input set 0) with cuBLAS in fp32.
ErrorSummary verifyGemm(const GemmReference &g, const Manifest &m, const LoadedBundle &bundle, CublasGemm &cublas,
                        const RunnerKernels &kernels, CUstream stream, const StreamWait &wait);

}  // namespace stagecraft::profiler
