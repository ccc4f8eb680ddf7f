// The CUDA driver API, loaded at run time.
//
// Why not link libcuda: the binary would then need libcuda.so.1 before main() runs, and on a
// machine without an NVIDIA driver (a build machine, CI) the dynamic loader would kill it with
// "cannot open shared object file" instead of the runner's own JSON error. So the runner
// dlopen()s libcuda.so.1, takes cuGetProcAddress from it, and resolves every entry point it uses
// through that at the CUDA version of the headers (which picks the right _v2/_v3 variants).
// cuBLAS and CUPTI do not link libcuda either (they find the driver themselves when first
// used), so nothing loads before main that needs a GPU.
#pragma once

#include <cuda.h>

#include <stdexcept>
#include <string>

namespace stagecraft::profiler {

// X-macro of every driver function the runner calls. The declared names in cuda.h may be macros
// for versioned symbols (cuMemAlloc -> cuMemAlloc_v2); decltype follows the macro, and the
// stringized name (not macro-expanded) is what cuGetProcAddress expects.
#define STAGECRAFT_DRIVER_FUNCTIONS(X) \
  X(cuInit)                            \
  X(cuDriverGetVersion)                \
  X(cuGetErrorName)                    \
  X(cuGetErrorString)                  \
  X(cuDeviceGetCount)                  \
  X(cuDeviceGet)                       \
  X(cuDeviceGetName)                   \
  X(cuDeviceGetAttribute)              \
  X(cuDeviceTotalMem)                  \
  X(cuDevicePrimaryCtxRetain)          \
  X(cuDevicePrimaryCtxRelease)         \
  X(cuCtxSetCurrent)                   \
  X(cuCtxSynchronize)                  \
  X(cuStreamCreate)                    \
  X(cuStreamDestroy)                   \
  X(cuStreamSynchronize)               \
  X(cuModuleLoadData)                  \
  X(cuModuleLoadDataEx)                \
  X(cuModuleUnload)                    \
  X(cuModuleGetFunction)               \
  X(cuFuncGetAttribute)                \
  X(cuFuncSetAttribute)                \
  X(cuLaunchKernel)                    \
  X(cuLaunchKernelEx)                  \
  X(cuOccupancyMaxActiveClusters)      \
  X(cuMemAlloc)                        \
  X(cuMemFree)                         \
  X(cuMemGetInfo)                      \
  X(cuMemcpyHtoD)                      \
  X(cuMemcpyDtoH)                      \
  X(cuMemcpyDtoDAsync)                 \
  X(cuMemsetD8Async)                   \
  X(cuMemsetD16Async)                  \
  X(cuMemsetD32Async)                  \
  X(cuTensorMapEncodeTiled)

struct DriverApi {
#define STAGECRAFT_DECLARE_POINTER(name) decltype(&::name) name = nullptr;
  STAGECRAFT_DRIVER_FUNCTIONS(STAGECRAFT_DECLARE_POINTER)
#undef STAGECRAFT_DECLARE_POINTER
};

// Loads libcuda.so.1, calls cuInit(0) and resolves all functions. Returns nullptr and sets `error` (the loader's
// or driver's text) when there is no usable driver. The table lives for the whole process.
const DriverApi *loadDriver(std::string *error);

// The loaded table; only valid after loadDriver() succeeded.
const DriverApi &driver();

// "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered".
std::string cudaErrorText(CUresult r);
std::string cudaErrorName(CUresult r);

// A failed driver call. `sticky` errors leave the context unusable (the process must exit after
// answering).
class CudaError : public std::runtime_error {
public:
  CudaError(CUresult code, const std::string &what);
  CUresult code() const { return code_; }
  bool sticky() const;

private:
  CUresult code_;
};

// True for the errors after which the CUDA context is corrupted for good: every later call in
// this process returns the same error.
bool isStickyError(CUresult r);

// Throws CudaError("<call>: CUDA_ERROR_...: text") when r != CUDA_SUCCESS.
void check(CUresult r, const char *call);

}  // namespace stagecraft::profiler

// CU_CHECK(driver().cuMemAlloc(&p, n)) names the failing call in the message.
#define CU_CHECK(expr) ::stagecraft::profiler::check((expr), #expr)
