// cuBLASLt's FP8 matmul on the manifest's gemm_fp8 peer: the second check of an FP8 GEMM (fp32
// output, accurate accumulation) and its timed peer (the kernel's output type, fast
// accumulation: FP8 wgmma accumulating in place, as the kernel does).
//
// Row-major C[M,N] = sa * sb * A[M,K] * B[N,K]^T is the column-major C^T = B^T' * A^T: cuBLASLt's
// "A" is our B (K x N, ld K, transposed) and its "B" is our A (K x M, ld K): the TN layout FP8
// matmuls require. The scales are device pointers to element 0 of f32 tensors.
#pragma once

#include "device_buffer.h"
#include "error_metrics.h"
#include "launch.h"
#include "manifest.h"
#include "runner_kernels.h"

#include <cuda.h>

#include <functional>
#include <string>

namespace stagecraft::profiler {

class CublasLtFp8 {
public:
  // Creates the handle and a 32 MiB workspace on the current context. Throws CublasError.
  CublasLtFp8();
  ~CublasLtFp8();
  CublasLtFp8(const CublasLtFp8 &) = delete;
  CublasLtFp8 &operator=(const CublasLtFp8 &) = delete;

  // C (cType: bf16, f16 or f32) = sa * sb * A * B^T with fp32 compute; a missing scale (0) is 1.
  void matmul(const GemmFp8Reference &g, DType aType, DType bType, CUdeviceptr a, CUdeviceptr b,
              CUdeviceptr scaleA, CUdeviceptr scaleB, CUdeviceptr c, DType cType, bool fastAccum,
              CUstream s);

  // "cublasLtMatmul e4m3 x e4m3 -> bf16 (fp32 compute, fast accumulation)".
  static std::string describe(DType aType, DType bType, DType cType, bool fastAccum);

private:
  void *handle_ = nullptr;  // cublasLtHandle_t
  DeviceBuffer workspace_;
  DeviceBuffer one_;  // a device 1.0f for a missing scale
};

// Compares the kernel's C (input set 0) with cuBLASLt's FP8 matmul written in fp32 (accurate
// accumulation). `wait` as in verify.h.
ErrorSummary verifyGemmFp8(const GemmFp8Reference &g, const Manifest &m, const LoadedBundle &bundle,
                           CublasLtFp8 &lt, const RunnerKernels &kernels, CUstream stream,
                           const std::function<void(CUstream, const char *)> &wait);

}  // namespace stagecraft::profiler
