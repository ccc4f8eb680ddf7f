// How the attention reference is cut into chunks (pure arithmetic, testable without a GPU).
//
// The fp32 score matrix of one head is seq_q x seq_kv x 4 bytes (256 MiB at S = 8192), so the
// reference works on a few heads at a time, or on a block of query rows of one head when even
// one head is over the budget; device memory then stays bounded at any problem size.
#pragma once

#include "manifest.h"

#include <cstdint>

namespace stagecraft::profiler {

struct AttentionChunking {
  int64_t headsPerChunk = 1;    // of the batch * heads flattened heads
  int64_t queriesPerChunk = 1;  // query rows per chunk (all of them unless one head is too big)
};

// Default score memory per chunk. STAGECRAFT_ATTENTION_CHUNK_BYTES overrides it (used to
// exercise the query-row split on small problems).
constexpr int64_t kDefaultAttentionChunkBytes = int64_t(1) << 30;

AttentionChunking chooseAttentionChunking(const AttentionReference &a, int64_t scoreBytesBudget);

}  // namespace stagecraft::profiler
