// How many rotating input sets a timing run uses.
//
// If one launch's inputs fit in L2 (50 MB on an H100), back-to-back launches over the same
// buffers read them from L2 and the timing flatters the kernel. So the runner keeps several
// copies of the inputs and each launch reads the next copy: with the copies together at least
// 3x L2, a launch's inputs have been evicted by the time they are used again.
#pragma once

#include <cstdint>

namespace stagecraft::profiler {

constexpr int kMaxInputSets = 64;

// setBytes: one set of inputs; l2Bytes: the device's L2; spareBytes: device memory the copies
// may take. At least 2 sets when affordable (so consecutive launches never share buffers), at
// most kMaxInputSets, and 1 when not even a second copy fits.
int inputSetsFor(int64_t setBytes, int64_t l2Bytes, int64_t spareBytes);

}  // namespace stagecraft::profiler
