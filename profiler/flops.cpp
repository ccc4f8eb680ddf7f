#include "flops.h"

namespace stagecraft::profiler {

double gemmFlops(int64_t M, int64_t N, int64_t K) {
  // In double: 2*M*N*K overflows nothing here and stays exact up to 2^53 (9e15).
  return 2.0 * double(M) * double(N) * double(K);
}

double attentionFlops(int64_t batch, int64_t heads, int64_t seqQ, int64_t seqKv, int64_t headDim,
                      bool causal) {
  double pairs;
  if (causal) {
    // Query i sees keys 0..i (keys aligned to the end when seq_kv > seq_q is not supported by
    // the reference; the manifest validation requires seq_q == seq_kv with causal).
    pairs = double(seqQ) * double(seqQ + 1) / 2.0;
  } else {
    pairs = double(seqQ) * double(seqKv);
  }
  return 4.0 * double(batch) * double(heads) * pairs * double(headDim);
}

double referenceFlops(const ReferenceSpec &ref) {
  switch (ref.kind) {
  case ReferenceSpec::Kind::Gemm: return gemmFlops(ref.gemm.M, ref.gemm.N, ref.gemm.K);
  case ReferenceSpec::Kind::Attention: {
    const auto &a = ref.attention;
    return attentionFlops(a.batch, a.heads, a.seqQ, a.seqKv, a.headDim, a.causal);
  }
  case ReferenceSpec::Kind::Ir:
  case ReferenceSpec::Kind::None: return 0.0;
  }
  return 0.0;
}

double tflops(double flops, double microseconds) {
  if (!(microseconds > 0.0)) return 0.0;
  return flops / (microseconds * 1e-6) / 1e12;
}

}  // namespace stagecraft::profiler
