#include "timing_plan.h"

#include <algorithm>

namespace stagecraft::profiler {

int inputSetsFor(int64_t setBytes, int64_t l2Bytes, int64_t spareBytes) {
  if (setBytes <= 0) return 1;
  int64_t want = (3 * l2Bytes + setBytes - 1) / setBytes;
  want = std::clamp<int64_t>(want, 2, kMaxInputSets);
  int64_t affordable = spareBytes > 0 ? spareBytes / setBytes : 0;
  return int(std::max<int64_t>(1, std::min(want, affordable)));
}

}  // namespace stagecraft::profiler
