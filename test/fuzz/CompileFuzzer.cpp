//===- CompileFuzzer.cpp - libFuzzer: loop IR through the whole compile ---===//
//
// The input is what a user opens: loop IR text, optionally followed by a NUL
// byte and a schedule (JSON) to apply over the IR's own, as
// `stagecraft-compile IN.mlir --schedule S.json` would. It goes through
// stagecraft::compile exactly as the app and the CLI call it: the input check,
// the MLIR parser and verifiers, kernel selection, the loop graph, schedule
// JSON, legality, tile-apply-schedule, the manifest, tile-lower-to-nvvm, the
// upstream conversions, LLVM's NVPTX back end and the reference lowering.
// ptxas is a separate program (emitCubin = false).
//
// Besides the sanitizers, the oracle is the driver's contract: a failed
// compile says why (at least one "error:" line), and a successful one has PTX,
// a manifest and a reference kernel.
//
// Mutations are mostly structure-aware (IrMutator.h: numbers, shapes, types,
// operands, ops of a family, lines), so that most inputs parse; one in five
// is libFuzzer's own byte-level mutation, for the parser and the input check.
//
//===----------------------------------------------------------------------===//
#include "IrMutator.h"
#include "PredictionCheck.h"

#include "passes/Driver/CompileDriver.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {
[[noreturn]] void fail(const char *what, const stagecraft::CompileResult &r) {
  std::fprintf(stderr, "compile fuzzer: %s\n", what);
  for (const std::string &d : r.diagnostics)
    std::fprintf(stderr, "  %s\n", d.c_str());
  std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  auto [ir, schedule] = input.split('\0');
  stagecraft::CompileOptions options;
  options.emitCubin = false;
  if (ir.size() < input.size())
    options.scheduleJson = schedule.str();
  options.scheduleSource = "fuzz.json";
  stagecraft::CompileResult r = stagecraft::compile(ir, "fuzz.mlir", options);

  if (r.status == stagecraft::CompileResult::Status::Cancelled)
    fail("cancelled without a cancel flag", r);
  if (!r.ok()) {
    bool said = false;
    for (const std::string &d : r.diagnostics)
      said |= d.find("error: ") != std::string::npos;
    if (!said)
      fail("the compile failed without an error diagnostic", r);
    return 0;
  }
  if (r.ptx.empty() || r.manifestJson.empty() || r.referencePtx.empty())
    fail("the compile succeeded without PTX, a manifest or a reference", r);
  // The app shows this prediction after every compile.
  std::string problem = stagecraft::fuzz::predictionProblem(r.prediction, {});
  if (!problem.empty())
    fail(("the predicted timeline: " + problem).c_str(), r);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned int seed) {
  std::minstd_rand rng(seed);
  if (rng() % 5 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  bool changed = false;
  for (unsigned n = 1 + rng() % 3; n; --n)
    changed |= stagecraft::fuzz::mutateIrText(text, rng);
  if (!changed || text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

/// Crossover by lines: a run of lines of the second input replaces a run of
/// the first (an op, a signature, a loop header from another kernel).
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned int seed) {
  std::minstd_rand rng(seed);
  auto lineStarts = [](const uint8_t *d, size_t n) {
    std::vector<size_t> starts{0};
    for (size_t i = 0; i + 1 < n; ++i)
      if (d[i] == '\n')
        starts.push_back(i + 1);
    starts.push_back(n);
    return starts;
  };
  std::vector<size_t> a = lineStarts(data1, size1), b = lineStarts(data2, size2);
  size_t a0 = rng() % (a.size() - 1), a1 = a0 + 1 + rng() % std::min<size_t>(4, a.size() - 1 - a0);
  size_t b0 = rng() % (b.size() - 1), b1 = b0 + 1 + rng() % std::min<size_t>(4, b.size() - 1 - b0);
  std::string text(reinterpret_cast<const char *>(data1), a[a0]);
  text.append(reinterpret_cast<const char *>(data2) + b[b0], b[b1] - b[b0]);
  text.append(reinterpret_cast<const char *>(data1) + a[a1], size1 - a[a1]);
  if (text.size() > maxOutSize)
    text.resize(maxOutSize);
  std::memcpy(out, text.data(), text.size());
  return text.size();
}
