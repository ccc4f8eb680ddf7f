// The attention reference: O = softmax(sm_scale * Q K^T [+ causal mask]) V in fp32 on the GPU.
//
// Computed in chunks of heads (and of query rows when one head's score matrix is too large), so
// device memory stays bounded (about 1 GiB of scores) at any sequence length: at B4 H16 S8192
// D128 a full fp32 score tensor would take 16 GiB. Each chunk: Q, K, V to fp32; scores with one
// strided-batched fp32 cuBLAS GEMM (sm_scale as alpha); a row softmax kernel that applies the
// mask; P V with a second GEMM; then the chunk's output is compared with the kernel's right away.
#pragma once

#include "attention_chunking.h"
#include "error_metrics.h"
#include "launch.h"
#include "manifest.h"
#include "runner_kernels.h"
#include "verify.h"

#include <cstdint>

namespace stagecraft::profiler {

class CublasGemm;

ErrorSummary verifyAttention(const AttentionReference &a, const Manifest &m, const LoadedBundle &bundle,
                             CublasGemm &cublas, const RunnerKernels &kernels, CUstream stream,
                             const StreamWait &wait);

}  // namespace stagecraft::profiler
