// cuBLAS on the manifest's GEMM: the fp32 reference for verification, and the speed to beat.
//
// Row-major C[M,N] = A[M,K] * op(B) is computed as the column-major C^T = op(B)^T * A^T, so no
// data is transposed: a row-major [R, C] buffer is a column-major [C, R] matrix with ld = C.
#pragma once

#include "manifest.h"

#include <cuda.h>

#include <stdexcept>
#include <string>

namespace stagecraft::profiler {

class CublasError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class CublasGemm {
public:
  // Creates the handle on the current context. Throws CublasError.
  CublasGemm();
  ~CublasGemm();
  CublasGemm(const CublasGemm &) = delete;
  CublasGemm &operator=(const CublasGemm &) = delete;

  // C (fp32, [M,N]) = A (bf16) * op(B) (bf16), fp32 accumulation: the verification reference.
  void referenceF32(const GemmReference &g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr cF32, CUstream s);

  // The same product with C in `cType` (the kernel's output type), fp32 accumulation: what the
  // kernel is compared with for speed.
  void timedGemm(const GemmReference &g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, DType cType, CUstream s);

  // Column-major fp32 strided-batched product C = alpha * op(A) * op(B), fp32 compute without
  // TF32: the building block of the attention reference.
  void f32StridedBatched(bool transA, bool transB, int m, int n, int k, float alpha, CUdeviceptr A, int lda,
                         long long strideA, CUdeviceptr B, int ldb, long long strideB, CUdeviceptr C, int ldc,
                         long long strideC, int batch, CUstream s);

  // A name for results: "cublasGemmEx bf16xbf16->bf16 (fp32 compute)".
  static std::string describe(DType cType);

private:
  void gemm(const GemmReference &g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, DType cType, CUstream s);
  void *handle_ = nullptr;  // cublasHandle_t, kept opaque to keep cublas_v2.h out of this header
};

}  // namespace stagecraft::profiler
