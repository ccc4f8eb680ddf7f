// Kernel durations from CUPTI activity records (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL).
//
// The GPU stamps each kernel's start and end, so the time excludes launch overhead and host
// jitter, and it covers every kernel a call launches (cuBLAS may launch two). The runner times
// one repetition per window: flush and drop old records, launch, synchronize, flush, read the
// records of that window. CONCURRENT_KERNEL (unlike KIND_KERNEL) does not serialize kernels.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stagecraft::profiler {

class CuptiError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct KernelRecord {
  std::string name;
  uint64_t startNs = 0;
  uint64_t endNs = 0;
};

class CuptiTimer {
public:
  // Registers the buffer callbacks and enables kernel records. Throws CuptiError.
  CuptiTimer();
  ~CuptiTimer();
  CuptiTimer(const CuptiTimer &) = delete;
  CuptiTimer &operator=(const CuptiTimer &) = delete;

  // Flushes and discards every record so far (call before the work to time).
  void beginWindow();
  // Flushes and returns the kernel records since beginWindow(). Call after synchronizing.
  std::vector<KernelRecord> endWindow();

  // Records CUPTI reported as dropped (buffer overflow) since start; non-zero makes timings suspect.
  uint64_t droppedRecords() const;
};

// Span from the first start to the last end of the records, in microseconds. Throws CuptiError
// when there are none.
double spanMicroseconds(const std::vector<KernelRecord> &records, const std::string &what);

}  // namespace stagecraft::profiler
