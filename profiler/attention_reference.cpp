#include "attention_reference.h"

#include "cublas_reference.h"
#include "device_buffer.h"

#include <algorithm>
#include <cstdlib>

namespace stagecraft::profiler {

ErrorSummary verifyAttention(const AttentionReference &a, const Manifest &m, const LoadedBundle &bundle,
                             CublasGemm &cublas, const RunnerKernels &kernels, CUstream stream,
                             const StreamWait &wait) {
  int64_t budget = kDefaultAttentionChunkBytes;
  if (const char *env = std::getenv("STAGECRAFT_ATTENTION_CHUNK_BYTES")) {
    long long v = std::atoll(env);
    if (v > 0) budget = v;
  }
  const AttentionChunking chunk = chooseAttentionChunking(a, budget);
  const int64_t heads = a.batch * a.heads, Sq = a.seqQ, Skv = a.seqKv, D = a.headDim;
  const int64_t hc = chunk.headsPerChunk, qc = chunk.queriesPerChunk;
  const DType qT = m.findTensor(a.q)->dtype, kT = m.findTensor(a.k)->dtype, vT = m.findTensor(a.v)->dtype;
  const DType oT = m.findTensor(a.o)->dtype;
  const CUdeviceptr Q = bundle.tensor(a.q, 0), K = bundle.tensor(a.k, 0), V = bundle.tensor(a.v, 0);
  const CUdeviceptr O = bundle.tensor(a.o);
  const size_t f = sizeof(float);

  DeviceBuffer qf(size_t(hc * qc * D) * f, "attention reference Q (fp32)");
  DeviceBuffer kf(size_t(hc * Skv * D) * f, "attention reference K (fp32)");
  DeviceBuffer vf(size_t(hc * Skv * D) * f, "attention reference V (fp32)");
  DeviceBuffer scores(size_t(hc * qc * Skv) * f, "attention reference scores");
  DeviceBuffer oref(size_t(hc * qc * D) * f, "attention reference O (fp32)");
  ErrorAccumulator acc(kernels, stream);

  for (int64_t h0 = 0; h0 < heads; h0 += hc) {
    const int64_t nh = std::min(hc, heads - h0);
    // K and V of these heads are contiguous in [B*H, S, D].
    kernels.toF32(K + CUdeviceptr(h0 * Skv * D * int64_t(dtypeSize(kT))), kT, kf.get(), uint64_t(nh * Skv * D), stream);
    kernels.toF32(V + CUdeviceptr(h0 * Skv * D * int64_t(dtypeSize(vT))), vT, vf.get(), uint64_t(nh * Skv * D), stream);
    for (int64_t q0 = 0; q0 < Sq; q0 += qc) {
      const int64_t nq = std::min(qc, Sq - q0);
      for (int64_t h = 0; h < nh; ++h)
        kernels.toF32(Q + CUdeviceptr(((h0 + h) * Sq + q0) * D * int64_t(dtypeSize(qT))), qT,
                      qf.get() + CUdeviceptr(h * nq * D * int64_t(f)), uint64_t(nq * D), stream);
      // Column-major view of row-major buffers: scores [nq, Skv] is [Skv x nq] (ld Skv);
      // K [Skv, D] is [D x Skv] (ld D), transposed to [Skv x D]; Q [nq, D] is [D x nq] (ld D).
      cublas.f32StridedBatched(true, false, int(Skv), int(nq), int(D), float(a.smScale), kf.get(), int(D),
                               Skv * D, qf.get(), int(D), nq * D, scores.get(), int(Skv), nq * Skv, int(nh),
                               stream);
      kernels.softmaxRows(scores.get(), nh * nq, int(Skv), int(nq), int(q0), a.causal, stream);
      // O [nq, D] is [D x nq] = V^T [D x Skv] (V [Skv, D] as is, ld D) * P^T [Skv x nq] (ld Skv).
      cublas.f32StridedBatched(false, false, int(D), int(nq), int(Skv), 1.0f, vf.get(), int(D), Skv * D,
                               scores.get(), int(Skv), nq * Skv, oref.get(), int(D), nq * D, int(nh), stream);
      for (int64_t h = 0; h < nh; ++h)
        acc.add(O + CUdeviceptr(((h0 + h) * Sq + q0) * D * int64_t(dtypeSize(oT))), oT,
                oref.get() + CUdeviceptr(h * nq * D * int64_t(f)), uint64_t(nq * D));
    }
    // Bound how much work is queued between watchdog-guarded waits.
    wait(stream, "attention reference");
  }
  return acc.read(wait);
}

}  // namespace stagecraft::profiler
