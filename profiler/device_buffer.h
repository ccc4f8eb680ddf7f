// An owned device allocation (cuMemAlloc / cuMemFree), movable, freed on scope exit so that a
// failed request in --serve mode leaks nothing into the next one.
#pragma once

#include "cuda_driver.h"

#include <cstddef>
#include <string>
#include <utility>

namespace stagecraft::profiler {

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  // `what` names the buffer in the out-of-memory message.
  DeviceBuffer(size_t bytes, const std::string &what) : bytes_(bytes) {
    if (bytes == 0) return;
    CUresult r = driver().cuMemAlloc(&ptr_, bytes);
    if (r != CUDA_SUCCESS)
      throw CudaError(r, "cuMemAlloc(" + std::to_string(bytes) + " bytes for " + what + "): " + cudaErrorText(r));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer &&o) noexcept : ptr_(std::exchange(o.ptr_, 0)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, 0);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

  void reset() {
    // A failure here (after a sticky fault) cannot be handled; the process exits soon after.
    if (ptr_) driver().cuMemFree(ptr_);
    ptr_ = 0;
    bytes_ = 0;
  }

private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

}  // namespace stagecraft::profiler
