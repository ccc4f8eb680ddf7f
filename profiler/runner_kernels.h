// Host side of runner_kernels.cu: loads the embedded fatbin and launches its kernels.
#pragma once

#include "manifest.h"

#include <cuda.h>

#include <cstdint>

namespace stagecraft::profiler {

// Must match the enum in runner_kernels.cu.
int dtypeCode(DType t);

// Must match struct ErrorStats in runner_kernels.cu.
struct ErrorStatsDevice {
  double sumSqDiff;
  double sumSqRef;
  unsigned int maxAbsDiffBits;
  unsigned int maxAbsRefBits;
  unsigned long long nonfinite;
  unsigned long long nonfiniteRef;
  unsigned long long excluded;
  unsigned long long unwritten;
};

class RunnerKernels {
public:
  // Loads the module into the current context. Throws CudaError.
  RunnerKernels();
  ~RunnerKernels();
  RunnerKernels(const RunnerKernels &) = delete;
  RunnerKernels &operator=(const RunnerKernels &) = delete;

  void fillRandom(CUdeviceptr p, DType dtype, uint64_t count, const InitSpec &init, CUstream s) const;
  void toF32(CUdeviceptr src, DType dtype, CUdeviceptr dst, uint64_t count, CUstream s) const;
  // Adds the comparison of out[0..count) with ref[0..count) into *stats (device memory); elements
  // that differ by more than `excludeAbove` are counted apart (ErrorSummary::excluded).
  void errorStats(CUdeviceptr out, DType dtype, CUdeviceptr ref, uint64_t count, CUdeviceptr stats,
                  CUstream s, float excludeAbove) const;
  void softmaxRows(CUdeviceptr scores, int64_t rows, int cols, int rowsPerHead, int queryOffset,
                   bool causal, CUstream s) const;

private:
  CUmodule module_ = nullptr;
  CUfunction fill_ = nullptr, toF32_ = nullptr, errorStats_ = nullptr, softmax_ = nullptr;
};

}  // namespace stagecraft::profiler
