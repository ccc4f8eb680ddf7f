#include "ir_reference.h"

#include "cuda_driver.h"
#include "device_buffer.h"
#include "manifest.h"

#include <cmath>
#include <vector>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace stagecraft::profiler {

namespace {

std::string readBundleFile(const std::string &path) {
  if (std::string why = bundleFileProblem(path); !why.empty())
    throw std::runtime_error("cannot open " + path + " (the bundle's reference kernel): " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path + " (the bundle's reference kernel)");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Owns a module for the scope of one check.
struct ModuleGuard {
  CUmodule module = nullptr;
  ~ModuleGuard() {
    if (module) driver().cuModuleUnload(module);
  }
};

}  // namespace

std::vector<OutputCheckResult> verifyIrReference(const IrReference &ref, const Manifest &m,
                                                 const std::string &bundleDir, const LoadedBundle &bundle,
                                                 const RunnerKernels &kernels, CUstream stream,
                                                 const StreamWait &wait) {
  ModuleGuard guard;
  guard.module = loadPtxModule(readBundleFile(bundleDir + "/" + ref.module), ref.module);
  CUfunction fn = nullptr;
  CUresult r = driver().cuModuleGetFunction(&fn, guard.module, ref.kernel.c_str());
  if (r != CUDA_SUCCESS)
    throw CudaError(r, "reference kernel \"" + ref.kernel + "\" not found in " + ref.module + ": " +
                           cudaErrorText(r));

  int64_t blocks = ref.grid[0] * ref.grid[1] * ref.grid[2];
  DeviceBuffer scratch(size_t(std::max<int64_t>(16, blocks * ref.scratchBytesPerBlock)),
                       "the reference kernel's scratch");
  using Outputs = std::map<std::string, std::unique_ptr<DeviceBuffer>>;
  // One launch into outputs of its own, poisoned like the kernel's: the kernel's params with
  // each tensor map replaced by its tensor's address, then scratch (and `reorder`).
  auto run = [&](int32_t reorder, const char *what) {
    Outputs outputs;
    for (const TensorSpec &t : m.tensors)
      if (t.role == TensorRole::Output) {
        auto buf = std::make_unique<DeviceBuffer>(size_t(t.byteSize()), "the reference's " + t.name);
        CU_CHECK(driver().cuMemsetD8Async(buf->get(), 0xFF, size_t(t.byteSize()), stream));
        outputs[t.name] = std::move(buf);
      }
    std::vector<std::unique_ptr<char[]>> storage;
    std::vector<void *> params;
    auto add = [&](const void *p, size_t bytes) {
      storage.emplace_back(new char[bytes]);
      std::memcpy(storage.back().get(), p, bytes);
      params.push_back(storage.back().get());
    };
    for (const ParamSpec &p : m.params) {
      if (p.kind == ParamSpec::Kind::Scalar) {
        if (p.scalarType == DType::I32) {
          int32_t v = int32_t(p.intValue);
          add(&v, sizeof v);
        } else if (p.scalarType == DType::I64) {
          int64_t v = p.intValue;
          add(&v, sizeof v);
        } else {
          float v = float(p.floatValue);
          add(&v, sizeof v);
        }
        continue;
      }
      auto it = outputs.find(p.tensor);
      CUdeviceptr ptr = it != outputs.end() ? it->second->get() : bundle.tensor(p.tensor, 0);
      add(&ptr, sizeof ptr);
    }
    CUdeviceptr scratchPtr = scratch.get();
    add(&scratchPtr, sizeof scratchPtr);
    if (ref.reorder) add(&reorder, sizeof reorder);
    CU_CHECK(driver().cuLaunchKernel(fn, unsigned(ref.grid[0]), unsigned(ref.grid[1]), unsigned(ref.grid[2]),
                                     unsigned(ref.block[0]), unsigned(ref.block[1]), unsigned(ref.block[2]), 0,
                                     stream, params.data(), nullptr));
    wait(stream, what);
    return outputs;
  };
  // `out` (of `t`'s dtype) against `refOutputs`' copy of `t`; elements that differ by more than
  // `excludeAbove` counted apart (flips).
  auto compare = [&](CUdeviceptr out, const TensorSpec &t, const Outputs &refOutputs,
                     float excludeAbove = std::numeric_limits<float>::infinity()) {
    uint64_t count = uint64_t(t.elementCount());
    // i32 outputs (indices, counts) exactly, on the host, up to 64M elements: fp32 cannot
    // tell two indices apart above 2^24. Both launches have finished (their waits).
    if (t.dtype == DType::I32 && count <= (uint64_t(1) << 26)) {
      std::vector<int32_t> kernelValues(count), referenceValues(count);
      CU_CHECK(driver().cuMemcpyDtoH(kernelValues.data(), out, count * sizeof(int32_t)));
      CU_CHECK(driver().cuMemcpyDtoH(referenceValues.data(), refOutputs.at(t.name)->get(),
                                     count * sizeof(int32_t)));
      return compareIntegers(kernelValues.data(), referenceValues.data(), count,
                             std::isinf(excludeAbove) ? std::numeric_limits<double>::infinity()
                                                      : double(excludeAbove));
    }
    DeviceBuffer refF32(count * sizeof(float), "the reference's " + t.name + " in fp32");
    kernels.toF32(refOutputs.at(t.name)->get(), t.dtype, refF32.get(), count, stream);
    ErrorAccumulator acc(kernels, stream, excludeAbove);
    acc.add(out, t.dtype, refF32.get(), count);
    return acc.read(wait);
  };

  Outputs outputs = run(0, "the reference kernel");
  std::vector<OutputCheckResult> results;
  bool missed = false;
  for (const OutputCheck &c : ref.outputs) {
    OutputCheckResult res;
    res.tensor = c.tensor;
    res.against = "ir";
    res.errors = compare(bundle.tensor(c.tensor), *m.findTensor(c.tensor), outputs);
    res.tolerance = res.derived =
        widenedByStep(Tolerance{c.normRelTol, c.maxRelTol}, res.errors, c.step);
    res.passed = passes(res.errors, res.tolerance) || matchesZeroReference(res.errors);
    missed |= !res.passed && res.errors.nonfinite == 0;
    results.push_back(res);
  }
  // Missed by finite errors: how far do the outputs move with the reference's sums reordered?
  // An output whose elements may flip is checked by its flips, not widened by the reordered
  // reference's distance: that distance is its own flips (a sign by copysign widened the
  // tolerance to its 0.1 cap; the eleventh sweep's f04).
  auto reorderable = [&](size_t i) {
    return !results[i].passed && !results[i].errors.nonfinite && !(ref.outputs[i].flipFraction > 0.0);
  };
  missed = false;
  for (size_t i = 0; i < results.size(); ++i) missed |= reorderable(i);
  if (missed && ref.reorder) {
    Outputs reordered = run(1, "the reference kernel (its sums reordered)");
    for (size_t i = 0; i < results.size(); ++i) {
      OutputCheckResult &res = results[i];
      if (!reorderable(i)) continue;
      res.reordered = true;
      res.reorderNoise = compare(reordered.at(res.tensor)->get(), *m.findTensor(res.tensor), outputs);
      res.tolerance = widenedByReorderNoise(res.derived, res.reorderNoise);
      res.passed = passes(res.errors, res.tolerance);
    }
  }
  // Still missed, where the IR says near ties may flip: which elements miss by more than the
  // max-wise tolerance, and are they few enough?
  for (size_t i = 0; i < results.size(); ++i) {
    OutputCheckResult &res = results[i];
    const OutputCheck &c = ref.outputs[i];
    if (res.passed || res.errors.nonfinite || !(c.flipFraction > 0.0)) continue;
    ErrorSummary rest = compare(bundle.tensor(c.tensor), *m.findTensor(c.tensor), outputs,
                                float(flipThreshold(res.errors, res.tolerance)));
    res.flipChecked = true;
    res.flipped = rest.excluded;
    res.flipsAllowed = flipsAllowed(rest.count, c.flipFraction);
    if (passesWithFlips(rest, res.tolerance, res.flipsAllowed)) {
      res.withFlips = res.errors;
      res.errors = rest;
      res.passed = true;
    }
  }
  return results;
}

}  // namespace stagecraft::profiler
