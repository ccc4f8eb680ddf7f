#include "attention_chunking.h"

#include <algorithm>

namespace stagecraft::profiler {

AttentionChunking chooseAttentionChunking(const AttentionReference &a, int64_t budget) {
  const int64_t heads = a.batch * a.heads;
  const int64_t rowBytes = a.seqKv * int64_t(sizeof(float));
  AttentionChunking c;
  c.queriesPerChunk = std::clamp<int64_t>(budget / rowBytes, 1, a.seqQ);
  if (c.queriesPerChunk == a.seqQ)
    c.headsPerChunk = std::clamp<int64_t>(budget / (rowBytes * a.seqQ), 1, heads);
  return c;
}

}  // namespace stagecraft::profiler
