#include "cuda_driver.h"

#include <dlfcn.h>

#include <cstdio>

namespace stagecraft::profiler {

namespace {

DriverApi g_driver;
bool g_loaded = false;

}  // namespace

const DriverApi *loadDriver(std::string *error) {
  if (g_loaded) return &g_driver;
  // RTLD_NOW: fail here, not at first use. RTLD_GLOBAL: cuBLAS and CUPTI later dlopen the same
  // libcuda.so.1 and get this copy.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *e = dlerror();
    *error = std::string("cannot load the CUDA driver library libcuda.so.1 (") + (e ? e : "unknown") + ")";
    return nullptr;
  }
  // cuInit and the error-text functions first, straight from the library's symbol table: a stub
  // or broken driver then says why in its own words (e.g. CUDA_ERROR_STUB_LIBRARY, NO_DEVICE).
  g_driver.cuGetErrorName = reinterpret_cast<decltype(g_driver.cuGetErrorName)>(dlsym(lib, "cuGetErrorName"));
  g_driver.cuGetErrorString = reinterpret_cast<decltype(g_driver.cuGetErrorString)>(dlsym(lib, "cuGetErrorString"));
  auto init = reinterpret_cast<decltype(g_driver.cuInit)>(dlsym(lib, "cuInit"));
  if (!init) {
    *error = "libcuda.so.1 has no cuInit: not a CUDA driver";
    return nullptr;
  }
  CUresult initResult = init(0);
  if (initResult != CUDA_SUCCESS) {
    *error = "cuInit: " + cudaErrorText(initResult);
    return nullptr;
  }
  using GetProc = CUresult (*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
  auto getProc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc) {
    *error = "libcuda.so.1 has no cuGetProcAddress_v2: the driver is older than CUDA 12";
    return nullptr;
  }
  DriverApi api;
  std::string missing;
#define STAGECRAFT_RESOLVE(name)                                                                   \
  {                                                                                                \
    void *p = nullptr;                                                                             \
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;                   \
    CUresult r = getProc(#name, &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &found);            \
    if (r != CUDA_SUCCESS || !p || found != CU_GET_PROC_ADDRESS_SUCCESS)                           \
      missing += std::string(missing.empty() ? "" : ", ") + #name;                                 \
    else                                                                                           \
      api.name = reinterpret_cast<decltype(api.name)>(p);                                          \
  }
  STAGECRAFT_DRIVER_FUNCTIONS(STAGECRAFT_RESOLVE)
#undef STAGECRAFT_RESOLVE
  if (!missing.empty()) {
    char v[64];
    std::snprintf(v, sizeof v, "%d.%d", CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
    *error = std::string("the CUDA driver lacks ") + missing + " (the runner was built for CUDA " + v +
             "; update the driver)";
    return nullptr;
  }
  g_driver = api;
  g_loaded = true;
  return &g_driver;
}

const DriverApi &driver() { return g_driver; }

namespace {

// Names for the errors a missing or stub driver gives, whose cuGetErrorName may not work.
const char *fallbackName(CUresult r, const char **text) {
  switch (r) {
  case CUDA_ERROR_STUB_LIBRARY: *text = "the CUDA driver is a stub library (no NVIDIA driver installed)"; return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_NO_DEVICE: *text = "no CUDA-capable device is detected"; return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_NOT_INITIALIZED: *text = "initialization error"; return "CUDA_ERROR_NOT_INITIALIZED";
  default: *text = nullptr; return nullptr;
  }
}

}  // namespace

std::string cudaErrorName(CUresult r) {
  const char *name = nullptr;
  if (g_driver.cuGetErrorName && g_driver.cuGetErrorName(r, &name) == CUDA_SUCCESS && name) return name;
  const char *text = nullptr;
  if ((name = fallbackName(r, &text))) return name;
  return "CUDA error " + std::to_string(int(r));
}

std::string cudaErrorText(CUresult r) {
  const char *text = nullptr;
  std::string s = cudaErrorName(r);
  if (g_driver.cuGetErrorString && g_driver.cuGetErrorString(r, &text) == CUDA_SUCCESS && text)
    s += std::string(": ") + text;
  else if (fallbackName(r, &text) && text)
    s += std::string(": ") + text;
  return s;
}

bool isStickyError(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_UNKNOWN:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_DEVICE_UNAVAILABLE:
    return true;
  default:
    return false;
  }
}

CudaError::CudaError(CUresult code, const std::string &what) : std::runtime_error(what), code_(code) {}

bool CudaError::sticky() const { return isStickyError(code_); }

void check(CUresult r, const char *call) {
  if (r == CUDA_SUCCESS) return;
  throw CudaError(r, std::string(call) + ": " + cudaErrorText(r));
}

}  // namespace stagecraft::profiler
