#include "verify.h"

#include "cublas_reference.h"
#include "cuda_driver.h"

#include <cstring>

namespace stagecraft::profiler {

ErrorAccumulator::ErrorAccumulator(const RunnerKernels &kernels, CUstream stream, float excludeAbove)
    : kernels_(kernels), stream_(stream), stats_(sizeof(ErrorStatsDevice), "error statistics"),
      excludeAbove_(excludeAbove) {
  CU_CHECK(driver().cuMemsetD8Async(stats_.get(), 0, sizeof(ErrorStatsDevice), stream_));
}

void ErrorAccumulator::add(CUdeviceptr out, DType outType, CUdeviceptr refF32, uint64_t count) {
  kernels_.errorStats(out, outType, refF32, count, stats_.get(), stream_, excludeAbove_);
  count_ += count;
}

ErrorSummary ErrorAccumulator::read(const StreamWait &wait) {
  wait(stream_, "verification");
  ErrorStatsDevice d{};
  CU_CHECK(driver().cuMemcpyDtoH(&d, stats_.get(), sizeof d));
  auto bitsToFloat = [](unsigned int bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return double(f);
  };
  ErrorSummary s;
  s.sumSqDiff = d.sumSqDiff;
  s.sumSqRef = d.sumSqRef;
  s.maxAbsDiff = bitsToFloat(d.maxAbsDiffBits);
  s.maxAbsRef = bitsToFloat(d.maxAbsRefBits);
  s.nonfinite = d.nonfinite;
  s.nonfiniteRef = d.nonfiniteRef;
  s.excluded = d.excluded;
  s.unwritten = d.unwritten;
  s.count = count_;
  return s;
}

ErrorSummary verifyGemm(const GemmReference &g, const Manifest &m, const LoadedBundle &bundle, CublasGemm &cublas,
                        const RunnerKernels &kernels, CUstream stream, const StreamWait &wait) {
  const uint64_t count = uint64_t(g.M) * uint64_t(g.N);
  DeviceBuffer ref(count * sizeof(float), "the fp32 gemm reference");
  cublas.referenceF32(g, bundle.tensor(g.a, 0), bundle.tensor(g.b, 0), ref.get(), stream);
  ErrorAccumulator acc(kernels, stream);
  acc.add(bundle.tensor(g.c), m.findTensor(g.c)->dtype, ref.get(), count);
  return acc.read(wait);
}

}  // namespace stagecraft::profiler
