#include "launch.h"

#include "cuda_driver.h"
#include "manifest.h"
#include "tensormap.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace stagecraft::profiler {

namespace {

bool readFile(const std::string &path, std::string *out) {
  if (!bundleFileProblem(path).empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

int attribute(CUfunction f, CUfunction_attribute a, const char *name) {
  int v = 0;
  CUresult r = driver().cuFuncGetAttribute(&v, a, f);
  if (r != CUDA_SUCCESS) throw CudaError(r, std::string("cuFuncGetAttribute(") + name + "): " + cudaErrorText(r));
  return v;
}

}  // namespace

// Loads PTX through the driver's JIT with an error log, so a PTX the JIT rejects comes back
// with ptxas's message instead of a bare CUDA_ERROR_INVALID_PTX.
CUmodule loadPtxModule(const std::string &ptxText, const std::string &what) {
  std::string ptx = ptxText;  // the JIT wants a NUL-terminated string
  ptx.push_back('\0');
  std::vector<char> log(16384, '\0');
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log.data(), reinterpret_cast<void *>(uintptr_t(log.size() - 1))};
  CUmodule m = nullptr;
  CUresult r = driver().cuModuleLoadDataEx(&m, ptx.data(), 2, opts, vals);
  if (r != CUDA_SUCCESS)
    throw CudaError(r, "loading " + what + " through the driver JIT: " + cudaErrorText(r) +
                           (log[0] ? ": " + std::string(log.data()) : ""));
  return m;
}

namespace {

// Loads DIR/STEM.cubin when present and loadable, else DIR/STEM.ptx through the JIT.
CUmodule loadModule(const std::string &dir, const std::string &stem, std::vector<std::string> *warnings,
                    std::string *source) {
  std::string cubin, ptx;
  const std::string cubinPath = dir + "/" + stem + ".cubin";
  bool cubinThere = readFile(cubinPath, &cubin);
  bool haveCubin = cubinThere && !cubin.empty();
  bool havePtx = readFile(dir + "/" + stem + ".ptx", &ptx) && !ptx.empty();
  // A cubin that is there but empty or unreadable is not "absent": say so.
  struct stat st;
  if (!haveCubin && havePtx && (cubinThere || ::stat(cubinPath.c_str(), &st) == 0))
    warnings->push_back(stem + ".cubin is " + (cubinThere ? "empty" : "not readable") + "; used " +
                        stem + ".ptx through the driver JIT");
  if (!haveCubin && !havePtx)
    throw std::runtime_error("bundle " + dir + " has neither " + stem + ".cubin nor " + stem + ".ptx");
  CUmodule m = nullptr;
  if (haveCubin) {
    CUresult r = driver().cuModuleLoadData(&m, cubin.data());
    if (r == CUDA_SUCCESS) {
      *source = "cubin";
      return m;
    }
    if (havePtx && (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE ||
                    r == CUDA_ERROR_INVALID_SOURCE)) {
      warnings->push_back(stem + ".cubin did not load (" + cudaErrorText(r) + "); used " + stem + ".ptx");
    } else {
      throw CudaError(r, "loading " + stem + ".cubin: " + cudaErrorText(r));
    }
  }
  *source = "ptx";
  return loadPtxModule(ptx, stem + ".ptx");
}

// The launch of the manifest's grid, block, shared memory and cluster (`cluster` holds the
// attribute the config points to).
CUlaunchConfig launchConfig(const Manifest &m, CUstream stream, CUlaunchAttribute &cluster) {
  CUlaunchConfig config{};
  config.gridDimX = unsigned(m.grid[0]);
  config.gridDimY = unsigned(m.grid[1]);
  config.gridDimZ = unsigned(m.grid[2]);
  config.blockDimX = unsigned(m.block[0]);
  config.blockDimY = unsigned(m.block[1]);
  config.blockDimZ = unsigned(m.block[2]);
  config.sharedMemBytes = unsigned(m.dynamicSmemBytes);
  config.hStream = stream;
  if (m.hasCluster) {
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = unsigned(m.cluster[0]);
    cluster.value.clusterDim.y = unsigned(m.cluster[1]);
    cluster.value.clusterDim.z = unsigned(m.cluster[2]);
    config.attrs = &cluster;
    config.numAttrs = 1;
  }
  return config;
}

}  // namespace

LoadedBundle::LoadedBundle(const Manifest &manifest, const std::string &bundleDir, CUdevice device,
                           std::vector<std::string> *warnings)
    : manifest_(manifest), device_(device) {
  module_ = loadModule(bundleDir, "kernel", warnings, &info_.moduleSource);

  CUresult r = driver().cuModuleGetFunction(&function_, module_, manifest.kernel.c_str());
  if (r != CUDA_SUCCESS)
    throw CudaError(r, "kernel \"" + manifest.kernel + "\" not found in kernel." + info_.moduleSource + ": " +
                           cudaErrorText(r));

  info_.registersPerThread = attribute(function_, CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS");
  info_.localBytesPerThread = attribute(function_, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES");
  info_.staticSmemBytes = attribute(function_, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES");
  info_.maxThreadsPerBlock = attribute(function_, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK");

  int64_t threads = manifest.block[0] * manifest.block[1] * manifest.block[2];
  if (threads > info_.maxThreadsPerBlock)
    throw std::runtime_error("block of " + std::to_string(threads) + " threads exceeds the kernel's limit of " +
                             std::to_string(info_.maxThreadsPerBlock) + " (registers: " +
                             std::to_string(info_.registersPerThread) + " per thread)");
  setAttributes(function_, device);
  if (manifest.hasCluster && warnings) {
    // A cluster's CTAs share a GPC: fewer clusters than SMs / cluster size may fit at once, and
    // a persistent kernel's clusters beyond them run after the others finish.
    CUlaunchAttribute dims{};
    CUlaunchConfig config = launchConfig(manifest, nullptr, dims);
    int resident = 0;
    int64_t clusters = manifest.grid[0] * manifest.grid[1] * manifest.grid[2] /
                       (manifest.cluster[0] * manifest.cluster[1] * manifest.cluster[2]);
    if (driver().cuOccupancyMaxActiveClusters(&resident, function_, &config) == CUDA_SUCCESS) {
      info_.maxActiveClusters = resident;
      if (resident < clusters)
        warnings->push_back("only " + std::to_string(resident) + " of the launch's " + std::to_string(clusters) +
                            " clusters fit on the GPU at once (cuOccupancyMaxActiveClusters): the others start "
                            "as those finish, a second wave for a persistent kernel");
    }
  }
}

void LoadedBundle::setAttributes(CUfunction f, CUdevice device) {
  // Above 48 KiB of dynamic shared memory a kernel must opt in, up to the device's limit.
  constexpr int64_t kDefaultDynamicSmemLimit = 48 * 1024;
  CUresult r;
  if (manifest_.dynamicSmemBytes > kDefaultDynamicSmemLimit) {
    int optin = 0;
    CU_CHECK(driver().cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device));
    int staticSmem = attribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES");
    if (manifest_.dynamicSmemBytes + staticSmem > optin)
      throw std::runtime_error("dynamic_smem_bytes " + std::to_string(manifest_.dynamicSmemBytes) + " + static " +
                               std::to_string(staticSmem) + " exceeds the device's " +
                               std::to_string(optin) + " bytes per block");
    r = driver().cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    int(manifest_.dynamicSmemBytes));
    if (r != CUDA_SUCCESS)
      throw CudaError(r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                             std::to_string(manifest_.dynamicSmemBytes) + "): " + cudaErrorText(r));
  }
  // Clusters above 8 blocks are "non-portable" and need an opt-in.
  if (manifest_.hasCluster && manifest_.cluster[0] * manifest_.cluster[1] * manifest_.cluster[2] > 8) {
    r = driver().cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS)
      throw CudaError(r, "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED): " + cudaErrorText(r));
  }
}

void LoadedBundle::loadInstrumented(const TimelineSpec &spec, const std::string &bundleDir,
                                    std::vector<std::string> *warnings) {
  std::string source;
  instrumentedModule_ = loadModule(bundleDir, spec.module, warnings, &source);
  CUresult r = driver().cuModuleGetFunction(&instrumented_, instrumentedModule_, spec.kernel.c_str());
  if (r != CUDA_SUCCESS) {
    instrumented_ = nullptr;
    throw CudaError(r, "kernel \"" + spec.kernel + "\" not found in " + spec.module + "." + source + ": " +
                           cudaErrorText(r));
  }
  int64_t threads = manifest_.block[0] * manifest_.block[1] * manifest_.block[2];
  int maxThreads = attribute(instrumented_, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK");
  if (threads > maxThreads)
    throw std::runtime_error("the instrumented kernel takes at most " + std::to_string(maxThreads) +
                             " threads per block; the launch has " + std::to_string(threads));
  setAttributes(instrumented_, device_);
}

LoadedBundle::~LoadedBundle() {
  buffers_.clear();
  // A failure at teardown changes nothing.
  if (instrumentedModule_) driver().cuModuleUnload(instrumentedModule_);
  if (module_) driver().cuModuleUnload(module_);
}

void LoadedBundle::allocate(int inputSets, const RunnerKernels &kernels, CUstream stream) {
  inputSets_ = inputSets;
  for (const auto &t : manifest_.tensors) {
    int copies = t.role == TensorRole::Input ? inputSets : 1;
    auto &bufs = buffers_[t.name];
    for (int c = 0; c < copies; ++c)
      bufs.emplace_back(size_t(t.byteSize()), "tensor \"" + t.name + "\" (set " + std::to_string(c) + ")");
    if (t.role == TensorRole::Input) {
      kernels.fillRandom(bufs[0].get(), t.dtype, uint64_t(t.elementCount()), t.init, stream);
      // The other sets hold the same values: same work per launch, different addresses.
      for (int c = 1; c < copies; ++c)
        CU_CHECK(driver().cuMemcpyDtoDAsync(bufs[c].get(), bufs[0].get(), size_t(t.byteSize()), stream));
    } else if (t.role == TensorRole::Scratch) {
      CU_CHECK(driver().cuMemsetD8Async(bufs[0].get(), 0, size_t(t.byteSize()), stream));
    }
  }

  tensorMaps_.clear();
  tensorMaps_.resize(manifest_.params.size());
  for (size_t i = 0; i < manifest_.params.size(); ++i) {
    const ParamSpec &p = manifest_.params[i];
    if (p.kind != ParamSpec::Kind::TensorMap) continue;
    const TensorSpec *t = manifest_.findTensor(p.tensor);
    int sets = t->role == TensorRole::Input ? inputSets : 1;
    TensorMapArgs a = deriveTensorMapArgs(p.tensorMap);
    for (int s = 0; s < sets; ++s) {
      auto map = std::make_unique<CUtensorMap>();
      std::memset(map.get(), 0, sizeof(CUtensorMap));
      void *base = reinterpret_cast<void *>(uintptr_t(tensor(p.tensor, s)));
      CUresult r = driver().cuTensorMapEncodeTiled(map.get(), a.dataType, a.rank, base, a.globalDim, a.globalStrides,
                                                   a.boxDim, a.elementStrides, a.interleave, a.swizzle,
                                                   a.l2Promotion, a.oobFill);
      if (r != CUDA_SUCCESS)
        throw CudaError(r, "cuTensorMapEncodeTiled for params[" + std::to_string(i) + "] (tensor \"" + p.tensor +
                               "\"): " + cudaErrorText(r));
      tensorMaps_[i].push_back(std::move(map));
    }
  }
}

int64_t LoadedBundle::inputSetBytes() const {
  int64_t bytes = 0;
  for (const auto &t : manifest_.tensors)
    if (t.role == TensorRole::Input) bytes += t.byteSize();
  return bytes;
}

CUdeviceptr LoadedBundle::tensor(const std::string &name, int set) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) throw std::logic_error("tensor \"" + name + "\" is not allocated");
  const auto &bufs = it->second;
  return bufs[bufs.size() == 1 ? 0 : size_t(set) % bufs.size()].get();
}

void LoadedBundle::poisonOutputs(CUstream stream) {
  for (const auto &t : manifest_.tensors) {
    if (t.role != TensorRole::Output) continue;
    CUdeviceptr p = tensor(t.name);
    size_t n = size_t(t.elementCount());
    // All-ones is a NaN in bf16, f16 and f32, and -1 in i32.
    if (dtypeSize(t.dtype) == 2)
      CU_CHECK(driver().cuMemsetD16Async(p, 0xFFFF, n, stream));
    else if (dtypeSize(t.dtype) == 4)
      CU_CHECK(driver().cuMemsetD32Async(p, 0xFFFFFFFFu, n, stream));
    else
      CU_CHECK(driver().cuMemsetD8Async(p, 0xFF, size_t(t.byteSize()), stream));
  }
}

void LoadedBundle::launch(int set, CUstream stream) { launchFunction(function_, set, stream, nullptr); }

void LoadedBundle::launchInstrumented(int set, CUstream stream, CUdeviceptr eventBuffer) {
  if (!instrumented_) throw std::logic_error("the instrumented kernel is not loaded");
  launchFunction(instrumented_, set, stream, &eventBuffer);
}

void LoadedBundle::launchFunction(CUfunction f, int set, CUstream stream, const CUdeviceptr *extra) {
  for (const auto &t : manifest_.tensors)
    if (t.role == TensorRole::Scratch)
      CU_CHECK(driver().cuMemsetD8Async(tensor(t.name), 0, size_t(t.byteSize()), stream));

  // Argument storage that outlives the launch call: kernelParams holds pointers into it.
  const size_t n = manifest_.params.size();
  std::vector<CUdeviceptr> pointers(n);
  std::vector<int64_t> ints(n);
  std::vector<float> floats(n);
  std::vector<void *> args(n + (extra ? 1 : 0));
  CUdeviceptr extraArg = extra ? *extra : 0;
  if (extra) args[n] = &extraArg;  // the instrumented kernel's trailing .u64 event buffer
  for (size_t i = 0; i < n; ++i) {
    const ParamSpec &p = manifest_.params[i];
    switch (p.kind) {
    case ParamSpec::Kind::TensorMap: {
      const auto &maps = tensorMaps_[i];
      // The CUtensorMap object itself (128 bytes, 64-byte aligned) is the parameter value: the
      // driver copies it by value into the kernel's .param space.
      args[i] = maps[maps.size() == 1 ? 0 : size_t(set) % maps.size()].get();
      break;
    }
    case ParamSpec::Kind::Pointer:
      pointers[i] = tensor(p.tensor, set);
      args[i] = &pointers[i];
      break;
    case ParamSpec::Kind::Scalar:
      if (p.scalarType == DType::F32) {
        floats[i] = float(p.floatValue);
        args[i] = &floats[i];
      } else {
        // i32 is read as the low 4 bytes: little-endian, so the int64 slot works for both.
        ints[i] = p.intValue;
        args[i] = &ints[i];
      }
      break;
    }
  }

  CUlaunchAttribute cluster{};
  CUlaunchConfig config = launchConfig(manifest_, stream, cluster);
  CUresult r = driver().cuLaunchKernelEx(&config, f, args.data(), nullptr);
  if (r != CUDA_SUCCESS) throw CudaError(r, "cuLaunchKernelEx(" + manifest_.kernel + "): " + cudaErrorText(r));
}

}  // namespace stagecraft::profiler
