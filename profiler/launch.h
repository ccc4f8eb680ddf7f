// A bundle on the GPU: its module and function, its tensors (inputs in several rotating sets),
// one encoded CUtensorMap per tensor-map parameter and input set, and the launch itself.
#pragma once

#include "device_buffer.h"
#include "manifest.h"
#include "runner_kernels.h"

#include <cuda.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stagecraft::profiler {

struct FunctionInfo {
  int registersPerThread = 0;
  int localBytesPerThread = 0;
  int staticSmemBytes = 0;
  int maxThreadsPerBlock = 0;
  // Clusters that fit on the GPU at once (cuOccupancyMaxActiveClusters); 0 without clusters.
  int maxActiveClusters = 0;
  std::string moduleSource;  // "cubin" or "ptx"
};

// Loads a PTX module through the driver's JIT; a PTX the JIT rejects throws with ptxas's log.
// `what` names it in errors ("kernel.ptx").
CUmodule loadPtxModule(const std::string &ptx, const std::string &what);

class LoadedBundle {
public:
  // Loads kernel.cubin (else kernel.ptx through the driver JIT), finds the kernel and sets its
  // attributes (dynamic shared memory above 48 KiB, non-portable cluster sizes). Throws
  // CudaError or std::runtime_error with the reason.
  LoadedBundle(const Manifest &manifest, const std::string &bundleDir, CUdevice device,
               std::vector<std::string> *warnings);
  ~LoadedBundle();
  LoadedBundle(const LoadedBundle &) = delete;
  LoadedBundle &operator=(const LoadedBundle &) = delete;

  const FunctionInfo &functionInfo() const { return info_; }

  // Allocates every tensor (inputs `inputSets` times), fills set 0 of each input from its
  // init spec and copies it to the other sets, zeroes scratch, and encodes the tensor maps.
  void allocate(int inputSets, const RunnerKernels &kernels, CUstream stream);

  // Bytes of one set of inputs (what one launch reads at least once).
  int64_t inputSetBytes() const;

  // Fills every output with a NaN pattern (0xFFFF for 16-bit types, 0xFFFFFFFF for 32-bit), so
  // that an element the kernel never writes fails verification.
  void poisonOutputs(CUstream stream);

  // Enqueues one launch reading input set `set` (scratch is zeroed first).
  void launch(int set, CUstream stream);

  // Loads the instrumented kernel (manifest "timeline": timeline.cubin, else timeline.ptx) and
  // gives it the main kernel's attributes. Throws like the constructor.
  void loadInstrumented(const TimelineSpec &spec, const std::string &bundleDir,
                        std::vector<std::string> *warnings);
  bool hasInstrumented() const { return instrumented_ != nullptr; }
  // Enqueues one launch of the instrumented kernel: the same parameters plus `eventBuffer`.
  void launchInstrumented(int set, CUstream stream, CUdeviceptr eventBuffer);

  // The device address of a tensor (inputs: of input set `set`).
  CUdeviceptr tensor(const std::string &name, int set = 0) const;

private:
  void launchFunction(CUfunction f, int set, CUstream stream, const CUdeviceptr *extra);
  // Opt-in to large dynamic shared memory and big clusters, as the manifest needs.
  void setAttributes(CUfunction f, CUdevice device);

  const Manifest &manifest_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUmodule instrumentedModule_ = nullptr;
  CUfunction instrumented_ = nullptr;
  CUdevice device_ = 0;
  FunctionInfo info_;
  int inputSets_ = 0;
  // tensor name -> one buffer per input set (one for outputs and scratch)
  std::map<std::string, std::vector<DeviceBuffer>> buffers_;
  // param index -> one CUtensorMap per input set. Held in unique_ptr arrays because
  // CUtensorMap must stay 64-byte aligned (std::vector of an over-aligned type is fine in
  // C++17, but a unique_ptr keeps the addresses stable for the kernelParams pointers).
  std::vector<std::vector<std::unique_ptr<CUtensorMap>>> tensorMaps_;
};

}  // namespace stagecraft::profiler
