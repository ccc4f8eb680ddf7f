// The runner protocol (docs/runner-protocol.md): requests in, one JSON result line out.
//
// Pure C++ so that tests can check parsing and serialization without a GPU. A result always
// carries every field (null where it does not apply), so a client can read it without guessing.
#pragma once

#include "error_metrics.h"
#include "json.h"
#include "upload.h"

#include <optional>
#include <string>
#include <vector>

namespace stagecraft::profiler {

// Defaults shared by the CLI and the server.
constexpr int kDefaultWarmup = 5;
constexpr int kDefaultReps = 30;
constexpr double kDefaultWatchdogSeconds = 20.0;
/// The slowest rate assumed of a bundle's IR reference (a plain kernel, fp32 math): its launch
/// gets one more second of watchdog per this many of the problem's FLOPs.
constexpr double kReferenceFlopsPerSecond = 0.5e12;
constexpr int kMaxReps = 100000;

struct Request {
  json::Value id;           // echoed back verbatim (number, string or null)
  std::string command = "run";  // "run" (default), "ping" or "check"
  std::string bundle;       // bundle directory ("run", "check": this or an upload)
  // "upload": the bundle's files carried in the request (decoded and checked).
  bool hasUpload = false;
  std::vector<UploadedFile> upload;
  // "probe" (ping): can the runner read this file, and does it hold this token?
  bool hasProbe = false;
  std::string probePath, probeToken;
  int warmup = kDefaultWarmup;
  int reps = kDefaultReps;
  bool verify = true;
  double watchdogSeconds = kDefaultWatchdogSeconds;
  // Run the instrumented kernel after timing and return its events (manifest "timeline").
  bool trace = false;
  // stagecraft-run --trace FILE: also write them as Chrome trace-event JSON there.
  std::string traceFile;
  // stagecraft-run --untimed: verify, then launch the kernel warmup + reps times with no CUPTI
  // (an external profiler such as Nsight Compute holds it); no timing, no peers.
  bool untimed = false;
};

// Repetitions of the instrumented kernel when tracing (the overhead is its median over the
// plain kernel's), capped by the request's reps.
constexpr int kTraceReps = 10;
// Above this overhead (instrumented / plain median - 1) the trace carries a warning.
constexpr double kMaxTraceOverhead = 0.05;

// Parses one request line. Throws json::JsonError for syntax errors and std::invalid_argument
// for a well-formed request with bad fields; `idOut` receives the id whenever it could be read,
// so that the error reply can carry it.
Request parseRequest(const std::string &line, const Request &defaults, json::Value *idOut);

// Statuses, in the order a client usually tests them.
enum class Status { Ok, Error, Fault, Timeout, VerifyFailed };
const char *statusName(Status s);

struct DeviceInfo {
  std::string name;
  int ordinal = 0;
  int smCount = 0;
  int smClockMhz = 0;
  int memClockMhz = 0;
  std::string computeCapability;  // "9.0"
  int64_t l2Bytes = 0;
  int64_t memoryBytes = 0;
  std::string driver;          // kernel-module version, e.g. "580.159.04", when readable
  int cudaDriverVersion = 0;   // cuDriverGetVersion, e.g. 13000
};

struct Timing {
  std::vector<double> samplesUs;  // one per timed repetition, in launch order
  double medianUs = 0.0;
  double minUs = 0.0;
  int kernelsPerRep = 0;          // kernel records CUPTI saw per repetition (cuBLAS may use 2)
};

// Median and minimum of samples (median of an even count: mean of the middle two).
Timing summarize(std::vector<double> samplesUs, int kernelsPerRep);

struct Result {
  json::Value id;
  Status status = Status::Error;
  std::string error;
  std::optional<DeviceInfo> device;
  std::string bundle;
  // Launch configuration, from the manifest and the loaded function.
  std::string kernel;
  std::vector<int64_t> grid, block, cluster;
  std::optional<int64_t> dynamicSmemBytes;
  std::optional<int> registersPerThread;
  std::optional<int> maxActiveClusters;  // with clusters: how many fit on the GPU at once
  std::optional<int> localBytesPerThread;  // spills and stack (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
  std::optional<int> staticSmemBytes;
  std::string moduleSource;  // "cubin" or "ptx"
  // Verification.
  bool verified = false;
  std::string referenceKind;  // "gemm", "attention", "none"
  std::optional<double> maxRelErr, normRelErr;
  std::optional<long long> nonfiniteCount;
  double tolMaxRel = 0.0, tolNormRel = 0.0;
  // Every output checked, against what (the IR reference, then a peer), with its tolerance.
  std::vector<OutputCheckResult> checks;
  // Timing.
  int warmup = 0, reps = 0, inputSets = 0;
  std::optional<Timing> timing;
  double flops = 0.0;
  std::optional<double> tflops;
  std::string referenceName;  // what was timed as the reference, e.g. "cublasGemmEx bf16"
  std::optional<Timing> referenceTiming;
  std::optional<double> referenceTflops;
  std::optional<double> ratioToReference;
  json::Value problem;
  std::vector<std::string> warnings;
  // Measured timeline (request "trace"): the object of docs/runner-protocol.md, or
  // {"error": why} when it could not be taken; null when not asked for.
  json::Value trace;
  std::string traceFile;  // where --trace wrote the Chrome trace ("" when it did not)
  // The answer to a ping's probe; null when there was none.
  std::optional<bool> probe;
  // The uploaded files the runner wrote (name, bytes); null when the bundle was a path.
  std::optional<std::vector<std::pair<std::string, int64_t>>> received;
};

json::Value resultToJson(const Result &r);
// One line, no trailing newline.
std::string serializeResult(const Result &r);

}  // namespace stagecraft::profiler
