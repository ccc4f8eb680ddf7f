#include "cublas_reference.h"

#include <cublas_v2.h>

namespace stagecraft::profiler {

namespace {

void checkCublas(cublasStatus_t st, const char *call) {
  if (st == CUBLAS_STATUS_SUCCESS) return;
  throw CublasError(std::string(call) + ": " + cublasGetStatusName(st) + ": " + cublasGetStatusString(st));
}

#define CUBLAS_CHECK(expr) checkCublas((expr), #expr)

cudaDataType_t cudaType(DType t) {
  switch (t) {
  case DType::BF16: return CUDA_R_16BF;
  case DType::F16: return CUDA_R_16F;
  case DType::F32: return CUDA_R_32F;
  default: throw CublasError(std::string("cuBLAS reference: unsupported output dtype ") + dtypeName(t));
  }
}

}  // namespace

CublasGemm::CublasGemm() {
  cublasHandle_t h = nullptr;
  CUBLAS_CHECK(cublasCreate(&h));
  handle_ = h;
  // Default math: fp32 accumulate, no TF32 shortcuts for the fp32 reference GEMMs.
  CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
}

CublasGemm::~CublasGemm() {
  if (handle_) cublasDestroy(static_cast<cublasHandle_t>(handle_));
}

std::string CublasGemm::describe(DType cType) {
  return std::string("cublasGemmEx bf16 x bf16 -> ") + dtypeName(cType) + " (fp32 compute)";
}

void CublasGemm::gemm(const GemmReference &g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, DType cType, CUstream s) {
  auto h = static_cast<cublasHandle_t>(handle_);
  // cudaStream_t and CUstream are the same type.
  CUBLAS_CHECK(cublasSetStream(h, reinterpret_cast<cudaStream_t>(s)));
  const float alpha = 1.0f, beta = 0.0f;
  const int M = int(g.M), N = int(g.N), K = int(g.K);
  // Column-major view: C^T [N x M] = op(B)^T [N x K] * A^T [K x M].
  //  - A row-major [M,K] is A^T column-major [K x M], ld = K, no transpose.
  //  - B row-major [N,K] (transpose_b) is column-major [K x N], ld = K: transpose to [N x K].
  //  - B row-major [K,N] is column-major [N x K], ld = N: as is.
  cublasOperation_t opB = g.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N;
  int ldb = g.transposeB ? K : N;
  CUBLAS_CHECK(cublasGemmEx(h, opB, CUBLAS_OP_N, N, M, K, &alpha, reinterpret_cast<const void *>(b), CUDA_R_16BF,
                            ldb, reinterpret_cast<const void *>(a), CUDA_R_16BF, K, &beta,
                            reinterpret_cast<void *>(c), cudaType(cType), N, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
}

void CublasGemm::referenceF32(const GemmReference &g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr cF32, CUstream s) {
  gemm(g, a, b, cF32, DType::F32, s);
}

void CublasGemm::timedGemm(const GemmReference &g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, DType cType,
                           CUstream s) {
  gemm(g, a, b, c, cType, s);
}

void CublasGemm::f32StridedBatched(bool transA, bool transB, int m, int n, int k, float alpha, CUdeviceptr A,
                                   int lda, long long strideA, CUdeviceptr B, int ldb, long long strideB,
                                   CUdeviceptr C, int ldc, long long strideC, int batch, CUstream s) {
  auto h = static_cast<cublasHandle_t>(handle_);
  CUBLAS_CHECK(cublasSetStream(h, reinterpret_cast<cudaStream_t>(s)));
  const float beta = 0.0f;
  CUBLAS_CHECK(cublasGemmStridedBatchedEx(
      h, transA ? CUBLAS_OP_T : CUBLAS_OP_N, transB ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, &alpha,
      reinterpret_cast<const void *>(A), CUDA_R_32F, lda, strideA, reinterpret_cast<const void *>(B), CUDA_R_32F,
      ldb, strideB, &beta, reinterpret_cast<void *>(C), CUDA_R_32F, ldc, strideC, batch,
      CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
}

}  // namespace stagecraft::profiler
