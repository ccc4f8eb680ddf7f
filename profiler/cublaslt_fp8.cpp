#include "cublaslt_fp8.h"

#include "cublas_reference.h"
#include "verify.h"

#include <cublasLt.h>

#include <memory>

namespace stagecraft::profiler {

namespace {

constexpr size_t kWorkspaceBytes = size_t(32) << 20;

void checkLt(cublasStatus_t st, const char *call) {
  if (st == CUBLAS_STATUS_SUCCESS) return;
  throw CublasError(std::string(call) + ": " + cublasGetStatusName(st) + ": " + cublasGetStatusString(st));
}
#define LT_CHECK(expr) checkLt((expr), #expr)

cudaDataType_t ltType(DType t) {
  switch (t) {
  case DType::E4M3: return CUDA_R_8F_E4M3;
  case DType::E5M2: return CUDA_R_8F_E5M2;
  case DType::BF16: return CUDA_R_16BF;
  case DType::F16: return CUDA_R_16F;
  case DType::F32: return CUDA_R_32F;
  default: throw CublasError(std::string("cuBLASLt FP8 matmul: unsupported dtype ") + dtypeName(t));
  }
}

// Owners of the cuBLASLt descriptors, destroyed on every path.
struct DescDeleter {
  void operator()(cublasLtMatmulDescOpaque_t *d) const { cublasLtMatmulDescDestroy(d); }
  void operator()(cublasLtMatrixLayoutOpaque_t *l) const { cublasLtMatrixLayoutDestroy(l); }
  void operator()(cublasLtMatmulPreferenceOpaque_t *p) const { cublasLtMatmulPreferenceDestroy(p); }
};
template <typename T> using Owned = std::unique_ptr<T, DescDeleter>;

Owned<cublasLtMatrixLayoutOpaque_t> layout(cudaDataType_t type, uint64_t rows, uint64_t cols, int64_t ld) {
  cublasLtMatrixLayout_t l = nullptr;
  LT_CHECK(cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld));
  return Owned<cublasLtMatrixLayoutOpaque_t>(l);
}

}  // namespace

CublasLtFp8::CublasLtFp8()
    : workspace_(kWorkspaceBytes, "the cuBLASLt workspace"), one_(sizeof(float), "the cuBLASLt unit scale") {
  cublasLtHandle_t h = nullptr;
  LT_CHECK(cublasLtCreate(&h));
  handle_ = h;
  const float one = 1.0f;
  CU_CHECK(driver().cuMemcpyHtoD(one_.get(), &one, sizeof one));
}

CublasLtFp8::~CublasLtFp8() {
  if (handle_) cublasLtDestroy(static_cast<cublasLtHandle_t>(handle_));
}

std::string CublasLtFp8::describe(DType aType, DType bType, DType cType, bool fastAccum) {
  return std::string("cublasLtMatmul ") + dtypeName(aType) + " x " + dtypeName(bType) + " -> " + dtypeName(cType) +
         (fastAccum ? " (fp32 compute, fast accumulation)" : " (fp32 compute)");
}

void CublasLtFp8::matmul(const GemmFp8Reference &g, DType aType, DType bType, CUdeviceptr a, CUdeviceptr b,
                         CUdeviceptr scaleA, CUdeviceptr scaleB, CUdeviceptr c, DType cType, bool fastAccum,
                         CUstream s) {
  auto h = static_cast<cublasLtHandle_t>(handle_);
  cublasLtMatmulDesc_t raw = nullptr;
  LT_CHECK(cublasLtMatmulDescCreate(&raw, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  Owned<cublasLtMatmulDescOpaque_t> desc(raw);
  const cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
  LT_CHECK(cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT));
  LT_CHECK(cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN));
  const int8_t fast = fastAccum ? 1 : 0;
  LT_CHECK(cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
  // cuBLASLt's A is our B and its B our A.
  const void *ltScaleA = reinterpret_cast<const void *>(scaleB ? scaleB : one_.get());
  const void *ltScaleB = reinterpret_cast<const void *>(scaleA ? scaleA : one_.get());
  LT_CHECK(cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &ltScaleA,
                                          sizeof ltScaleA));
  LT_CHECK(cublasLtMatmulDescSetAttribute(desc.get(), CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &ltScaleB,
                                          sizeof ltScaleB));
  const uint64_t M = uint64_t(g.M), N = uint64_t(g.N), K = uint64_t(g.K);
  auto la = layout(ltType(bType), K, N, int64_t(K));  // our B [N,K] row-major: K x N column-major
  auto lb = layout(ltType(aType), K, M, int64_t(K));  // our A [M,K] row-major: K x M column-major
  auto lc = layout(ltType(cType), N, M, int64_t(N));  // our C [M,N] row-major: N x M column-major

  cublasLtMatmulPreference_t rawPref = nullptr;
  LT_CHECK(cublasLtMatmulPreferenceCreate(&rawPref));
  Owned<cublasLtMatmulPreferenceOpaque_t> pref(rawPref);
  const size_t ws = workspace_.bytes();
  LT_CHECK(cublasLtMatmulPreferenceSetAttribute(pref.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                                sizeof ws));
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(h, desc.get(), la.get(), lb.get(), lc.get(), lc.get(), pref.get(), 1,
                                          &heuristic, &found));
  if (found == 0)
    throw CublasError("cuBLASLt has no FP8 matmul for " + describe(aType, bType, cType, fastAccum) + " at " +
                      std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K));
  const float alpha = 1.0f, beta = 0.0f;
  LT_CHECK(cublasLtMatmul(h, desc.get(), &alpha, reinterpret_cast<const void *>(b), la.get(),
                          reinterpret_cast<const void *>(a), lb.get(), &beta, reinterpret_cast<const void *>(c),
                          lc.get(), reinterpret_cast<void *>(c), lc.get(), &heuristic.algo,
                          reinterpret_cast<void *>(workspace_.get()), ws, reinterpret_cast<cudaStream_t>(s)));
}


ErrorSummary verifyGemmFp8(const GemmFp8Reference &g, const Manifest &m, const LoadedBundle &bundle,
                           CublasLtFp8 &lt, const RunnerKernels &kernels, CUstream stream, const StreamWait &wait) {
  const uint64_t count = uint64_t(g.M) * uint64_t(g.N);
  DeviceBuffer ref(count * sizeof(float), "the fp32 cuBLASLt FP8 reference");
  auto scale = [&](const std::string &name) { return name.empty() ? CUdeviceptr(0) : bundle.tensor(name, 0); };
  lt.matmul(g, m.findTensor(g.a)->dtype, m.findTensor(g.b)->dtype, bundle.tensor(g.a, 0), bundle.tensor(g.b, 0),
            scale(g.scaleA), scale(g.scaleB), ref.get(), DType::F32, /*fastAccum=*/false, stream);
  ErrorAccumulator acc(kernels, stream);
  acc.add(bundle.tensor(g.c), m.findTensor(g.c)->dtype, ref.get(), count);
  return acc.read(wait);
}

}  // namespace stagecraft::profiler
