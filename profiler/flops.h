// FLOP arithmetic: the work a reference problem represents, and TFLOP/s from a time.
//
// The manifest's `flops` is authoritative for the kernel's TFLOP/s (the compiler knows what it
// generated); these functions give the runner an independent count to warn about disagreement,
// and the count for cuBLAS, which is timed on the same problem.
#pragma once

#include "manifest.h"

#include <cstdint>

namespace stagecraft::profiler {

// C[M,N] = A[M,K] * B: one multiply-add per (m, n, k), counted as 2 FLOPs.
double gemmFlops(int64_t M, int64_t N, int64_t K);

// softmax(Q K^T) V per (batch, head): two matrix products of 2 * seq_q * seq_kv * head_dim each.
// With the causal mask only the unmasked (query, key) pairs are counted: key <= query, i.e.
// S*(S+1)/2 pairs for seq_q == seq_kv (softmax's own exp/sum work is not counted, by convention).
double attentionFlops(int64_t batch, int64_t heads, int64_t seqQ, int64_t seqKv, int64_t headDim,
                      bool causal);

// The FLOPs of the manifest's reference problem, or 0 for reference "none".
double referenceFlops(const ReferenceSpec &ref);

// TFLOP/s for `flops` done in `microseconds`; 0 when the time is not positive.
double tflops(double flops, double microseconds);

}  // namespace stagecraft::profiler
