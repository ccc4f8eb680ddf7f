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
//===----------------------------------------------------------------------===//
#include "passes/Driver/CompileDriver.h"

#include <cstdio>
#include <cstdlib>
#include <string>

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
  return 0;
}
