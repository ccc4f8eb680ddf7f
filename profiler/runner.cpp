#include "runner.h"

#include "attention_reference.h"
#include "cuda_driver.h"
#include "error_metrics.h"
#include "ir_reference.h"
#include "flops.h"
#include "launch.h"
#include "manifest.h"
#include "timeline_events.h"
#include "timing_plan.h"
#include "verify.h"

#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace stagecraft::profiler {

namespace {

// "580.159.04" from /proc/driver/nvidia/version, or "" where it is not readable.
std::string kernelModuleVersion() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  std::istringstream words(line);
  std::string w;
  while (words >> w) {
    int dots = 0;
    bool digits = !w.empty();
    for (char c : w) {
      if (c == '.') ++dots;
      else if (c < '0' || c > '9') digits = false;
    }
    if (digits && dots >= 1) return w;
  }
  return "";
}

int deviceAttribute(CUdevice dev, CUdevice_attribute a, const char *name) {
  int v = 0;
  CUresult r = driver().cuDeviceGetAttribute(&v, a, dev);
  if (r != CUDA_SUCCESS) throw CudaError(r, std::string("cuDeviceGetAttribute(") + name + "): " + cudaErrorText(r));
  return v;
}

// The bundle's schedule.json (informational, docs/bundle-format.md), so that a trace says which
// schedule it was measured with; null when the bundle has none (an uploaded bundle) or it cannot
// be read (then a warning says so: the trace is still good).
json::Value bundleSchedule(const std::string &dir, std::vector<std::string> &warnings) {
  std::ifstream in(dir + "/schedule.json", std::ios::binary);
  if (!in) return json::Value();
  std::stringstream text;
  text << in.rdbuf();
  try {
    json::Value v = json::parse(text.str());
    if (v.isObject()) return v;
    warnings.push_back("schedule.json is not a JSON object: the trace does not say its schedule");
  } catch (const json::JsonError &e) {
    warnings.push_back(std::string("schedule.json: ") + e.what() + ": the trace does not say its schedule");
  }
  return json::Value();
}

}  // namespace

Result newResult(const Request &request) {
  Result r;
  r.id = request.id;
  r.bundle = request.bundle;
  r.warmup = request.warmup;
  r.reps = request.reps;
  r.tolMaxRel = kDefaultMaxRelTol;
  r.tolNormRel = kDefaultNormRelTol;
  return r;
}

std::unique_ptr<GpuSession> GpuSession::open(std::string *error, bool timing) {
  std::string why;
  if (!loadDriver(&why)) {
    *error = "no CUDA device: " + why;
    return nullptr;
  }
  int count = 0;
  CUresult r = driver().cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) {
    *error = "no CUDA device: cuDeviceGetCount: " + cudaErrorText(r);
    return nullptr;
  }
  if (count == 0) {
    *error = "no CUDA device: the driver reports zero devices";
    return nullptr;
  }

  std::unique_ptr<GpuSession> s(new GpuSession());
  try {
    CU_CHECK(driver().cuDeviceGet(&s->cuDevice_, 0));
    CUdevice dev = s->cuDevice_;
    char name[256] = {};
    CU_CHECK(driver().cuDeviceGetName(name, sizeof name - 1, dev));
    DeviceInfo &d = s->device_;
    d.name = name;
    d.ordinal = 0;
    d.smCount = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT");
    d.smClockMhz = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "CLOCK_RATE") / 1000;
    d.memClockMhz = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "MEMORY_CLOCK_RATE") / 1000;
    d.l2Bytes = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2_CACHE_SIZE");
    int major = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "COMPUTE_CAPABILITY_MAJOR");
    int minor = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "COMPUTE_CAPABILITY_MINOR");
    d.computeCapability = std::to_string(major) + "." + std::to_string(minor);
    size_t mem = 0;
    CU_CHECK(driver().cuDeviceTotalMem(&mem, dev));
    d.memoryBytes = int64_t(mem);
    CU_CHECK(driver().cuDriverGetVersion(&d.cudaDriverVersion));
    d.driver = kernelModuleVersion();

    // The primary context is the one cuBLAS (through its CUDA runtime) picks up as current.
    CU_CHECK(driver().cuDevicePrimaryCtxRetain(&s->context_, dev));
    CU_CHECK(driver().cuCtxSetCurrent(s->context_));
    CU_CHECK(driver().cuStreamCreate(&s->stream_, CU_STREAM_NON_BLOCKING));
    s->kernels_ = std::make_unique<RunnerKernels>();
    if (timing) s->cupti_ = std::make_unique<CuptiTimer>();
  } catch (const std::exception &e) {
    *error = std::string("GPU setup failed: ") + e.what();
    return nullptr;
  }
  return s;
}

GpuSession::~GpuSession() {
  // Order matters: cuBLAS and the module before the context goes.
  cublasLt_.reset();
  cublas_.reset();
  cupti_.reset();
  kernels_.reset();
  if (stream_) driver().cuStreamDestroy(stream_);
  if (context_) driver().cuDevicePrimaryCtxRelease(cuDevice_);
}

Result GpuSession::ping(const Request &request) const {
  Result r = newResult(request);
  r.status = Status::Ok;
  r.device = device_;
  return r;
}

void GpuSession::waitStream(CUstream stream, const char *what, double seconds, const char *verdict) {
  if (seconds < 0) seconds = watchdogSeconds_;
  // Prepare the answer the watchdog gives if this wait never returns.
  Result t = current_ ? *current_ : Result();
  t.status = Status::Timeout;
  char msg[512];
  std::snprintf(msg, sizeof msg, "the GPU did not finish within %.3g s (during %s): %s; the runner exits", seconds,
                what, verdict ? verdict : "the kernel hangs or is too slow");
  t.error = msg;
  t.verified = false;
  t.timing.reset();
  t.referenceTiming.reset();
  WatchdogScope guard(watchdog_, seconds, serializeResult(t), msg);
  CUresult r = driver().cuStreamSynchronize(stream);
  if (r != CUDA_SUCCESS) throw CudaError(r, std::string("waiting for ") + what + ": " + cudaErrorText(r));
}

Result GpuSession::run(const Request &request) {
  Result r = newResult(request);
  r.device = device_;
  current_ = &r;
  watchdogSeconds_ = request.watchdogSeconds;
  try {
    runOrThrow(request, r);
  } catch (const CudaError &e) {
    r.error = e.what();
    r.status = Status::Error;
    // A sticky error, or any error after which the context no longer synchronizes, is a fault.
    CUresult probe = e.sticky() ? e.code() : driver().cuCtxSynchronize();
    if (e.sticky() || isStickyError(probe)) {
      r.status = Status::Fault;
      dead_ = true;
    }
  } catch (const ManifestError &e) {
    r.status = Status::Error;
    r.error = e.what();
  } catch (const std::exception &e) {
    r.status = Status::Error;
    r.error = e.what();
  }
  if (r.status != Status::Ok && r.status != Status::VerifyFailed) {
    r.verified = false;
  }
  current_ = nullptr;
  return r;
}

void GpuSession::runOrThrow(const Request &request, Result &r) {
  const Manifest m = loadManifest(request.bundle);
  r.kernel = m.kernel;
  // sm_90a code runs on compute capability 9.0, sm_100a code on 10.0 only ("a" targets).
  const std::string needs = m.target == "sm_100a" ? "10.0" : "9.0";
  if (device_.computeCapability != needs)
    throw ManifestError("the bundle is compiled for " + m.target + " (compute capability " + needs +
                        "), this GPU is compute capability " + device_.computeCapability +
                        (m.target == "sm_100a" ? ": sm_100a bundles are compile-only here" : ""));
  r.grid.assign(m.grid.begin(), m.grid.end());
  r.block.assign(m.block.begin(), m.block.end());
  if (m.hasCluster) r.cluster.assign(m.cluster.begin(), m.cluster.end());
  r.dynamicSmemBytes = m.dynamicSmemBytes;
  r.flops = m.flops;
  r.problem = m.problem;
  r.warnings = m.warnings;
  r.referenceKind = referenceKindName(m.reference.kind);

  LoadedBundle bundle(m, request.bundle, cuDevice_, &r.warnings);
  const FunctionInfo &fi = bundle.functionInfo();
  r.registersPerThread = fi.registersPerThread;
  if (fi.maxActiveClusters > 0) r.maxActiveClusters = fi.maxActiveClusters;
  r.localBytesPerThread = fi.localBytesPerThread;
  r.staticSmemBytes = fi.staticSmemBytes;
  r.moduleSource = fi.moduleSource;

  size_t freeBytes = 0, totalBytes = 0;
  CU_CHECK(driver().cuMemGetInfo(&freeBytes, &totalBytes));
  int sets = inputSetsFor(bundle.inputSetBytes(), device_.l2Bytes, int64_t(freeBytes / 2));
  // STAGECRAFT_INPUT_SETS=N (1 to the rotation's maximum, no more than it chose) rotates fewer
  // copies: 1 keeps the inputs in L2 from one launch to the next, for telling what DRAM costs a
  // launch (bench/results/launch-warmup-h100-2026-11-27); the result's input_sets says so.
  if (const char *env = std::getenv("STAGECRAFT_INPUT_SETS")) {
    int forced = std::atoi(env);
    if (forced >= 1 && forced < sets)
      sets = forced;
  }
  r.inputSets = sets;
  bundle.allocate(sets, *kernels_, stream_);
  waitStream(stream_, "input initialisation");

  // The checked launch: outputs poisoned, input set 0 (the one the reference reads).
  bundle.poisonOutputs(stream_);
  bundle.launch(0, stream_);
  waitStream(stream_, "the first launch of the kernel");

  const bool check = request.verify && m.reference.kind != ReferenceSpec::Kind::None;
  if (check) {
    StreamWait wait = [this](CUstream s, const char *what) { waitStream(s, what); };
    // A peer-style check (cuBLAS, the fp32 attention) of one output.
    auto peerCheck = [&](const ReferenceSpec &spec) {
      if (spec.kind == ReferenceSpec::Kind::GemmFp8) {
        if (!cublasLt_) cublasLt_ = std::make_unique<CublasLtFp8>();
        OutputCheckResult c;
        c.tensor = spec.gemmFp8.c;
        c.against = "cublaslt";
        c.errors = verifyGemmFp8(spec.gemmFp8, m, bundle, *cublasLt_, *kernels_, stream_, wait);
        c.tolerance = Tolerance{};
        c.passed = passes(c.errors, c.tolerance);
        return c;
      }
      if (!cublas_) cublas_ = std::make_unique<CublasGemm>();
      OutputCheckResult c;
      bool gemm = spec.kind == ReferenceSpec::Kind::Gemm;
      c.tensor = gemm ? spec.gemm.c : spec.attention.o;
      c.against = gemm ? "cublas" : "attention";
      c.errors = gemm ? verifyGemm(spec.gemm, m, bundle, *cublas_, *kernels_, stream_, wait)
                      : verifyAttention(spec.attention, m, bundle, *cublas_, *kernels_, stream_, wait);
      c.tolerance = Tolerance{};
      c.passed = passes(c.errors, c.tolerance);
      return c;
    };
    // The bundle's own reference first (the IR's, or a peer for older bundles), then the
    // peer as a second check.
    if (m.reference.kind == ReferenceSpec::Kind::Ir) {
      // The IR's reference is a plain kernel (no pipelining, fp32 math): its one launch takes
      // time in proportion to the problem. A GEMM of 35 TFLOP (M = 1048576) kept it past the
      // watchdog, reported as a hang (bench/results/random-schedules-h200-2026-11-29): it gets
      // a second of allowance per kReferenceFlopsPerSecond of the launch's FLOPs on top: those
      // the reference executes where the manifest gives them (every program's whole tiles: a
      // loop over 130 times the tensor's row tiles did 130 times the useful count), else the
      // kernel's.
      double executed = std::max(m.flops, m.reference.ir.flops);
      double allowance = executed > 0 ? executed / kReferenceFlopsPerSecond : 0.0;
      StreamWait referenceWait = [this, allowance](CUstream s, const char *what) {
        // The kernel's own launches finished before: a reference past its allowance is slow
        // (it runs every program's whole tiles, the padding past a tensor's edge too), and the
        // kernel goes unchecked.
        waitStream(s, what, watchdogSeconds_ + allowance,
                   "the kernel finished, its IR reference is too slow for the watchdog (a plain fp32 "
                   "kernel over every program's whole tiles), so its output is unchecked; run it with "
                   "a longer --watchdog");
      };
      r.checks = verifyIrReference(m.reference.ir, m, request.bundle, bundle, *kernels_, stream_,
                                   referenceWait);
    } else {
      r.checks.push_back(peerCheck(m.reference));
    }
    if (m.peer.kind != ReferenceSpec::Kind::None) r.checks.push_back(peerCheck(m.peer));
    // The summary fields: the worst output of the first check.
    const OutputCheckResult *worst = nullptr;
    for (const OutputCheckResult &c : r.checks)
      if (c.against == r.checks.front().against &&
          (!worst || normRelErr(c.errors) / c.tolerance.normRel > normRelErr(worst->errors) / worst->tolerance.normRel))
        worst = &c;
    r.maxRelErr = maxRelErr(worst->errors);
    r.normRelErr = normRelErr(worst->errors);
    r.nonfiniteCount = (long long)worst->errors.nonfinite;
    r.tolMaxRel = worst->tolerance.maxRel;
    r.tolNormRel = worst->tolerance.normRel;
    r.verified = true;
    for (const OutputCheckResult &c : r.checks)
      if (c.passed && c.reordered && !c.flipChecked)
        r.warnings.push_back(
            "output " + c.tensor + " misses the tolerance derived from the IR (norm-wise " +
            std::to_string(normRelErr(c.errors)) + " against " + std::to_string(c.derived.normRel) +
            ", max " + std::to_string(maxRelErr(c.errors)) + " against " + std::to_string(c.derived.maxRel) +
            ") but not the reference's own rounding: with its sums reordered the reference moves " +
            std::to_string(normRelErr(c.reorderNoise)) + " norm-wise, " + std::to_string(maxRelErr(c.reorderNoise)) +
            " at most, and the kernel is within " + std::to_string(int(kReorderNoiseFactor)) + "x that");
    for (const OutputCheckResult &c : r.checks) {
      if (c.errors.unwritten > 0)
        r.warnings.push_back("output " + c.tensor + ": " + std::to_string(c.errors.unwritten) + " of " +
                             std::to_string(c.errors.count) +
                             " elements are written by no program, in the kernel and its reference alike "
                             "(they keep the runner's poison, NaN): the IR stores part of the tensor; "
                             "compared over the others");
      if (c.passed && c.against == "ir" && c.errors.maxAbsRef == 0.0)
        r.warnings.push_back("output " + c.tensor +
                             ": the IR reference is all zeros (a loop of no iterations at these sizes?) "
                             "and the kernel matches it exactly");
    }
    for (const OutputCheckResult &c : r.checks)
      if (c.passed && c.flipChecked && c.flipped)
        r.warnings.push_back(
            "output " + c.tensor + ": " + std::to_string(c.flipped) + " of " + std::to_string(c.errors.count) +
            " elements differ from the reference past the tolerance (up to " + std::to_string(maxRelErr(c.withFlips)) +
            " of its largest value): the output passes through a comparison of rounded values, where two "
            "values within the sums' rounding of a tie can go either way; " +
            std::to_string(c.flipsAllowed) + " may (the IR's flip_fraction); the other elements are within tolerance");
    const OutputCheckResult *failed = nullptr;
    for (const OutputCheckResult &c : r.checks)
      if (!c.passed && !failed) failed = &c;
    if (failed) {
      // No timing for a wrong kernel: its speed means nothing, and it may be wrong because it
      // reads out of bounds, which timing would only repeat.
      r.verified = false;
      r.status = Status::VerifyFailed;
      std::string what = "output " + failed->tensor + " (against " +
                         (failed->against == "ir" ? std::string("the kernel's IR reference") : failed->against) + ")";
      // Where the reference is NaN or infinite too, the inputs make the math undefined (a
      // loop of no iterations dividing 0 by 0: lengths drawn from the default range), not
      // the kernel wrong: say so, rather than "unwritten".
      const ErrorSummary &e = failed->errors;
      std::string nonfinite =
          e.nonfiniteRef == e.nonfinite
              ? " elements are NaN or infinite in the reference too: these inputs make the "
                "computation undefined (a loop of no iterations dividing 0 by 0, say; give the "
                "inputs values the kernel is meant for: tile.init in the IR, the manifest's "
                "tensors' init), or no program writes those elements (outputs start as NaN)"
              : " elements are NaN or infinite (unwritten or overflowed)" +
                    (e.nonfiniteRef ? " (" + std::to_string(e.nonfiniteRef) + " of them in the reference too)"
                                    : std::string());
      r.error = e.count > 0 && e.unwritten == e.count
                    ? what + ": no program writes any of its " + std::to_string(e.count) +
                          " elements, in the kernel and its reference alike"
                : e.nonfinite
                    ? what + ": " + std::to_string(e.nonfinite) + nonfinite
                : e.maxAbsRef == 0.0 && failed->against == "ir"
                    ? what + ": the IR reference is all zeros where the kernel's output is not (up to " +
                          std::to_string(e.maxAbsDiff) + ")"
                    : what + " differs beyond tolerance: norm-wise " + std::to_string(normRelErr(failed->errors)) +
                          " (tolerance " + std::to_string(failed->tolerance.normRel) + "), max " +
                          std::to_string(maxRelErr(failed->errors)) + " (tolerance " +
                          std::to_string(failed->tolerance.maxRel) + ")" +
                          (failed->reordered
                               ? std::string(", widened from the IR's (") + std::to_string(failed->derived.normRel) +
                                     ", " + std::to_string(failed->derived.maxRel) + ") by the reference's own " +
                                     "movement with its sums reordered (" + std::to_string(normRelErr(failed->reorderNoise)) +
                                     ", " + std::to_string(maxRelErr(failed->reorderNoise)) + ")"
                               : std::string()) +
                          (failed->flipChecked
                               ? "; " + std::to_string(failed->flipped) + " elements past the max-wise tolerance, " +
                                     std::to_string(failed->flipsAllowed) +
                                     " allowed as flips near ties (the IR's flip_fraction)" +
                                     (failed->flipped <= failed->flipsAllowed ? ", the others still miss" : "")
                               : std::string());
      return;
    }
  } else {
    r.warnings.push_back(request.verify ? "reference \"none\": output not checked, no TFLOP/s reported"
                                        : "verification disabled: no TFLOP/s reported");
  }

  if (request.untimed || !cupti_) {
    // For an external profiler: the same launches, untimed (it holds CUPTI).
    for (int i = 0; i < request.warmup + request.reps; ++i) {
      bundle.launch(i % sets, stream_);
      waitStream(stream_, "an untimed launch");
    }
    r.warnings.push_back("untimed: " + std::to_string(request.warmup + request.reps) +
                         " launches, no timing and no peers");
    r.status = Status::Ok;
    return;
  }

  // Timing: warm-up, then one CUPTI window per repetition, each on the next input set.
  for (int i = 0; i < request.warmup; ++i) {
    bundle.launch(i % sets, stream_);
    waitStream(stream_, "warm-up");
  }
  std::vector<double> samples;
  size_t kernelsPerRep = 0;
  for (int i = 0; i < request.reps; ++i) {
    cupti_->beginWindow();
    bundle.launch((request.warmup + i) % sets, stream_);
    waitStream(stream_, "a timed launch");
    std::vector<KernelRecord> recs = cupti_->endWindow();
    samples.push_back(spanMicroseconds(recs, "the timed launch of " + m.kernel));
    kernelsPerRep = std::max(kernelsPerRep, recs.size());
  }
  r.timing = summarize(samples, int(kernelsPerRep));
  // A kernel whose work depends on its data (a loop bounded by lengths read from a tensor) has
  // no FLOP count in its manifest: its time is reported, no TFLOP/s (0 would read as a rate).
  if (m.flops > 0)
    r.tflops = tflops(m.flops, r.timing->medianUs);
  else
    r.warnings.push_back("the manifest counts no FLOPs (no dot, a loop of no iterations at these "
                         "sizes, or work that depends on the kernel's data): time only, no TFLOP/s");

  // cuBLAS on the same GEMM, same method, same rotation, output in the kernel's output type.
  const ReferenceSpec &gemmPeer = m.peer.kind == ReferenceSpec::Kind::Gemm ? m.peer : m.reference;
  if (gemmPeer.kind == ReferenceSpec::Kind::Gemm) try {
    const GemmReference &g = gemmPeer.gemm;
    const DType cType = m.findTensor(g.c)->dtype;
    if (!cublas_) cublas_ = std::make_unique<CublasGemm>();
    DeviceBuffer c(size_t(g.M * g.N) * dtypeSize(cType), "the cuBLAS timing output");
    for (int i = 0; i < request.warmup; ++i) {
      cublas_->timedGemm(g, bundle.tensor(g.a, i), bundle.tensor(g.b, i), c.get(), cType, stream_);
      waitStream(stream_, "cuBLAS warm-up");
    }
    std::vector<double> ref;
    size_t refKernels = 0;
    for (int i = 0; i < request.reps; ++i) {
      int set = (request.warmup + i) % sets;
      cupti_->beginWindow();
      cublas_->timedGemm(g, bundle.tensor(g.a, set), bundle.tensor(g.b, set), c.get(), cType, stream_);
      waitStream(stream_, "a timed cuBLAS call");
      std::vector<KernelRecord> recs = cupti_->endWindow();
      ref.push_back(spanMicroseconds(recs, "the timed cuBLAS call"));
      refKernels = std::max(refKernels, recs.size());
    }
    r.referenceName = CublasGemm::describe(cType);
    r.referenceTiming = summarize(ref, int(refKernels));
    r.referenceTflops = tflops(gemmFlops(g.M, g.N, g.K), r.referenceTiming->medianUs);
    if (r.tflops && *r.referenceTflops > 0.0) r.ratioToReference = *r.tflops / *r.referenceTflops;
  } catch (const CudaError &) {
    throw; // the context may be gone
  } catch (const std::exception &e) {
    // The kernel is verified and timed; only its peer could not be.
    r.warnings.push_back(std::string("the cuBLAS peer was not timed: ") + e.what());
  }
  // cuBLASLt's FP8 matmul on an FP8 GEMM: same method, same rotation, the kernel's output type,
  // the kernel's accumulation: fast (FP8 wgmma accumulating in place) or, for a kernel that
  // promotes its partial sums to fp32 registers, cuBLASLt's accurate one, which does the same.
  if (m.peer.kind == ReferenceSpec::Kind::GemmFp8) try {
    const GemmFp8Reference &g = m.peer.gemmFp8;
    const DType aType = m.findTensor(g.a)->dtype, bType = m.findTensor(g.b)->dtype;
    const DType cType = m.findTensor(g.c)->dtype;
    if (!cublasLt_) cublasLt_ = std::make_unique<CublasLtFp8>();
    DeviceBuffer c(size_t(g.M * g.N) * dtypeSize(cType), "the cuBLASLt timing output");
    auto call = [&](int set) {
      auto scale = [&](const std::string &name) { return name.empty() ? CUdeviceptr(0) : bundle.tensor(name, set); };
      cublasLt_->matmul(g, aType, bType, bundle.tensor(g.a, set), bundle.tensor(g.b, set), scale(g.scaleA),
                        scale(g.scaleB), c.get(), cType, g.fastAccumulation, stream_);
    };
    for (int i = 0; i < request.warmup; ++i) {
      call(i % sets);
      waitStream(stream_, "cuBLASLt warm-up");
    }
    std::vector<double> ref;
    size_t refKernels = 0;
    for (int i = 0; i < request.reps; ++i) {
      cupti_->beginWindow();
      call((request.warmup + i) % sets);
      waitStream(stream_, "a timed cuBLASLt call");
      std::vector<KernelRecord> recs = cupti_->endWindow();
      ref.push_back(spanMicroseconds(recs, "the timed cuBLASLt call"));
      refKernels = std::max(refKernels, recs.size());
    }
    r.referenceName = CublasLtFp8::describe(aType, bType, cType, g.fastAccumulation);
    r.referenceTiming = summarize(ref, int(refKernels));
    r.referenceTflops = tflops(gemmFlops(g.M, g.N, g.K), r.referenceTiming->medianUs);
    if (r.tflops && *r.referenceTflops > 0.0) r.ratioToReference = *r.tflops / *r.referenceTflops;
  } catch (const CudaError &) {
    throw;
  } catch (const std::exception &e) {
    r.warnings.push_back(std::string("the cuBLASLt FP8 peer was not timed: ") + e.what());
  }
  if (request.trace) measureTimeline(request, m, bundle, sets, r);
  if (cupti_ && cupti_->droppedRecords() != 0)
    r.warnings.push_back("CUPTI dropped " + std::to_string(cupti_->droppedRecords()) + " activity records");
  r.status = Status::Ok;
}

void GpuSession::measureTimeline(const Request &request, const Manifest &m, LoadedBundle &bundle, int sets,
                                 Result &r) {
  auto fail = [&](const std::string &why) {
    r.trace = json::Value::object({{"error", json::Value::string(why)}});
    r.warnings.push_back("no trace: " + why);
  };
  if (!m.timeline) {
    fail("the bundle has no instrumented kernel (manifest.json has no \"timeline\")");
    return;
  }
  if (!r.timing) {
    fail("the plain kernel was not timed, so the overhead cannot be measured");
    return;
  }
  const TimelineSpec &spec = *m.timeline;
  try {
    bundle.loadInstrumented(spec, request.bundle, &r.warnings);
  } catch (const CudaError &e) {
    if (e.sticky()) throw;
    fail(e.what());
    return;
  } catch (const std::runtime_error &e) {
    fail(e.what());
    return;
  }
  const size_t bytes = size_t(spec.bufferBytes());
  DeviceBuffer events(bytes, "the timeline event buffer");
  // The overhead is measured with the plain and the instrumented kernel interleaved, in
  // alternating order (ABBA...; with a bundle that runs without a buffer, the instrumented
  // kernel recording nothing between them: ACB BCA ...), so that all see the same clocks and
  // temperature: timed in separate stretches, a long kernel's median moves by several percent
  // between them on a power-limited GPU, more than the probes cost. One untimed round first.
  // The event buffer is cleared before each recording launch (outside the CUPTI window), so it
  // ends up holding the last one's events.
  const int reps = std::max(1, std::min(request.reps, kTraceReps));
  std::vector<double> samples, plainSamples, idleSamples;
  size_t kernelsPerRep = 0;
  for (int i = 0; i <= reps; ++i) {
    const int set = (request.warmup + i) % sets;
    auto timePlain = [&] {
      if (i > 0) cupti_->beginWindow();
      bundle.launch(set, stream_);
      waitStream(stream_, "a launch of the plain kernel beside the instrumented one");
      if (i > 0)
        plainSamples.push_back(spanMicroseconds(cupti_->endWindow(), "the timed launch of " + m.kernel));
    };
    auto timeInstrumented = [&] {
      CU_CHECK(driver().cuMemsetD8Async(events.get(), 0, bytes, stream_));
      waitStream(stream_, "clearing the timeline buffer");
      if (i > 0) cupti_->beginWindow();
      bundle.launchInstrumented(set, stream_, events.get());
      waitStream(stream_, "a launch of the instrumented kernel");
      if (i > 0) {
        std::vector<KernelRecord> recs = cupti_->endWindow();
        samples.push_back(spanMicroseconds(recs, "the timed launch of the instrumented " + m.kernel));
        kernelsPerRep = std::max(kernelsPerRep, recs.size());
      }
    };
    // The instrumented kernel with a null buffer: no CTA records (a bundle that says it may).
    auto timeIdle = [&] {
      if (!spec.runsWithoutBuffer) return;
      if (i > 0) cupti_->beginWindow();
      bundle.launchInstrumented(set, stream_, 0);
      waitStream(stream_, "a launch of the instrumented kernel recording nothing");
      if (i > 0)
        idleSamples.push_back(spanMicroseconds(cupti_->endWindow(), "the timed idle launch of the instrumented " + m.kernel));
    };
    if (i % 2 == 0) {
      timePlain();
      timeIdle();
      timeInstrumented();
    } else {
      timeInstrumented();
      timeIdle();
      timePlain();
    }
  }
  Timing t = summarize(samples, int(kernelsPerRep));
  std::vector<uint8_t> host(bytes);
  CU_CHECK(driver().cuMemcpyDtoH(host.data(), events.get(), bytes));
  DecodedTimeline decoded = decodeTimeline(spec, host.data(), host.size());
  TraceFacts facts;
  facts.kernel = m.kernel;
  facts.device = device_.name;
  const double plainUs = summarize(plainSamples, 1).medianUs;
  facts.plainMedianUs = plainUs;
  facts.instrumentedMedianUs = t.medianUs;
  facts.overhead = plainUs > 0 ? t.medianUs / plainUs - 1.0 : 0.0;
  if (!idleSamples.empty() && plainUs > 0)
    facts.idleMedianUs = summarize(idleSamples, 1).medianUs;
  facts.reps = reps;
  facts.schedule = bundleSchedule(request.bundle, decoded.warnings);
  facts.problem = m.problem;
  if (facts.overhead > kMaxTraceOverhead) {
    auto percent = [](double x) {
      char text[32];
      std::snprintf(text, sizeof text, "%+.1f%%", 100 * x);
      return std::string(text);
    };
    std::string why = "the instrumented kernel is " + percent(facts.overhead) + " against the plain one (over the " +
                      std::to_string(int(kMaxTraceOverhead * 100)) + "% the probes may cost)";
    if (facts.idleMedianUs > 0)
      why += "; recording nothing it is " + percent(facts.codeOverhead()) +
             " (ptxas's schedule of the instrumented code), the records " + percent(facts.recordingOverhead());
    decoded.warnings.push_back(why);
  }
  r.trace = timelineToJson(spec, decoded, facts);
  if (!request.traceFile.empty()) {
    std::string error = trace::writeFileAtomically(request.traceFile, trace::toJson(measuredTrace(spec, decoded, facts)));
    if (error.empty())
      r.traceFile = request.traceFile;
    else
      fail(error);
  }
}

}  // namespace stagecraft::profiler
