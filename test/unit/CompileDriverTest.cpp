//===- CompileDriverTest.cpp - the driver's PTX-first order ---------------===//
//
// stagecraft::compile hands out the kernel's PTX before the rest (the
// reference, the cubin, the IR text), prints the IR after each pass from
// copies of the module once the PTX exists, and lowers the reference on a
// thread of its own. None of that may change what it produces: these tests
// hold the deferred IR text to a plain pass-by-pass run, the two orders
// (ptxFirst on and off) to each other, and check the callbacks, the options
// that leave things out, cancellation, and ptxas run as a child process.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/TileDialect.h"
#include "passes/Driver/CompileDriver.h"
#include "passes/Driver/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <vector>

using namespace stagecraft;

namespace {

std::string readAsset(const std::string &name) {
  auto buffer = llvm::MemoryBuffer::getFile(STAGECRAFT_ASSETS_DIR "/" + name);
  EXPECT_TRUE(bool(buffer)) << name;
  return buffer ? (*buffer)->getBuffer().str() : "";
}

std::string errors(const CompileResult &r) {
  std::string s;
  for (const std::string &d : r.diagnostics)
    s += d + "\n";
  return s;
}

CompileOptions noCubin() {
  CompileOptions o;
  o.emitCubin = false;
  return o;
}

/// The directories of the fake ptxas scripts, removed when the test process
/// exits.
struct FakePtxasDirs {
  std::vector<std::string> dirs;
  ~FakePtxasDirs() {
    for (const std::string &d : dirs)
      llvm::sys::fs::remove_directories(d, /*IgnoreErrors=*/true);
  }
};

/// A shell script standing in for ptxas; returns its path.
std::string fakePtxas(const std::string &name, const std::string &body) {
  static FakePtxasDirs made;
  llvm::SmallString<128> dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("stagecraft-driver-test", dir));
  made.dirs.push_back(dir.str().str());
  std::string path = (dir + "/" + name).str();
  std::ofstream(path) << "#!/bin/sh\n" << body;
  chmod(path.c_str(), 0755);
  return path;
}

} // namespace

// The IR text printed from the copies after the PTX is what printing the
// module after each pass gives.
TEST(CompileDriver, DeferredIrTextIsTheIrAfterEachPass) {
  std::string source = readAsset("attention_fwd_d128.mlir");
  CompileResult r = compile(source, "attention_fwd_d128.mlir", noCubin());
  ASSERT_TRUE(r.ok()) << errors(r);
  std::vector<PipelineStep> steps = codegenPipeline(CompileOptions(), r.kernel);
  ASSERT_EQ(r.passes.size(), 2 + steps.size());
  EXPECT_EQ(r.passes[0].name, "input");
  EXPECT_EQ(r.passes[1].name, "tile-apply-schedule");

  // The same passes, one at a time, printing after each.
  mlir::DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  registerCodegenDialects(registry);
  mlir::MLIRContext ctx(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(r.passes[1].ir, &ctx);
  ASSERT_TRUE(module);
  for (size_t i = 0; i < steps.size(); ++i) {
    mlir::PassManager pm(&ctx);
    steps[i].add(pm);
    ASSERT_TRUE(mlir::succeeded(pm.run(*module))) << steps[i].name;
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    EXPECT_EQ(r.passes[2 + i].name, steps[i].name);
    EXPECT_FALSE(r.passes[2 + i].ir.empty()) << steps[i].name;
    EXPECT_TRUE(r.passes[2 + i].ir == text) << "the IR after " << steps[i].name << " differs";
  }
  EXPECT_FALSE(r.llvmIR.empty());
  EXPECT_NE(r.llvmIR.find("define"), std::string::npos);
}

// Both orders (the app's PTX first, the command line's all overlapped) give
// the same compile.
TEST(CompileDriver, PtxFirstOrNotGivesTheSameResult) {
  for (const char *asset : {"gemm.mlir", "attention_fwd_d128.mlir"}) {
    std::string source = readAsset(asset);
    CompileOptions first = noCubin();
    CompileOptions overlapped = noCubin();
    overlapped.ptxFirst = false;
    CompileResult a = compile(source, asset, first);
    CompileResult b = compile(source, asset, overlapped);
    ASSERT_TRUE(a.ok()) << errors(a);
    ASSERT_TRUE(b.ok()) << errors(b);
    EXPECT_FALSE(a.ptx.empty());
    EXPECT_FALSE(a.referencePtx.empty());
    EXPECT_TRUE(a.ptx == b.ptx) << asset;
    EXPECT_TRUE(a.referencePtx == b.referencePtx) << asset;
    EXPECT_EQ(a.referenceKernel, b.referenceKernel);
    EXPECT_EQ(a.referenceBlocks, b.referenceBlocks);
    EXPECT_EQ(a.manifestJson, b.manifestJson);
    EXPECT_TRUE(a.llvmIR == b.llvmIR) << asset;
    ASSERT_EQ(a.passes.size(), b.passes.size());
    for (size_t i = 0; i < a.passes.size(); ++i)
      EXPECT_TRUE(a.passes[i].ir == b.passes[i].ir) << asset << " " << a.passes[i].name;
  }
}

// onScheduleChecked, then onPtx with the PTX and a manifest that names no
// reference yet, the lowered IR listed but not printed yet; then the rest.
TEST(CompileDriver, ThePtxComesBeforeTheReferenceAndTheIrText) {
  std::string source = readAsset("gemm.mlir");
  CompileOptions o = noCubin();
  std::vector<std::string> calls;
  CompileResult checked, withPtx;
  std::thread::id caller = std::this_thread::get_id();
  o.onScheduleChecked = [&](const CompileResult &r) {
    calls.push_back("checked");
    EXPECT_EQ(std::this_thread::get_id(), caller);
    checked = r;
  };
  o.onPtx = [&](const CompileResult &r) {
    calls.push_back("ptx");
    EXPECT_EQ(std::this_thread::get_id(), caller);
    withPtx = r;
  };
  CompileResult r = compile(source, "gemm.mlir", o);
  ASSERT_TRUE(r.ok()) << errors(r);
  EXPECT_EQ(calls, (std::vector<std::string>{"checked", "ptx"}));

  EXPECT_FALSE(checked.steadyState.empty());
  EXPECT_TRUE(checked.ptx.empty());
  ASSERT_EQ(checked.passes.size(), 2u);
  EXPECT_FALSE(checked.passes[1].ir.empty());

  EXPECT_EQ(withPtx.ptx, r.ptx);
  EXPECT_TRUE(withPtx.referencePtx.empty());
  EXPECT_EQ(withPtx.manifestJson.find("reference.ptx"), std::string::npos);
  EXPECT_GT(withPtx.ptxReadyMillis, 0);
  ASSERT_EQ(withPtx.passes.size(), r.passes.size());
  for (size_t i = 2; i < withPtx.passes.size(); ++i) {
    EXPECT_TRUE(withPtx.passes[i].ir.empty()) << withPtx.passes[i].name;
    EXPECT_FALSE(r.passes[i].ir.empty()) << r.passes[i].name;
  }
  EXPECT_TRUE(withPtx.llvmIR.empty());

  EXPECT_FALSE(r.referencePtx.empty());
  EXPECT_EQ(r.referenceKernel, "gemm_reference");
  EXPECT_NE(r.manifestJson.find("reference.ptx"), std::string::npos);
  EXPECT_FALSE(r.llvmIR.empty());
}

// Sweeps that want only the kernel leave the text and the reference out;
// the PTX is the same.
TEST(CompileDriver, WhatIsLeftOutChangesNothingElse) {
  std::string source = readAsset("gemm.mlir");
  CompileResult all = compile(source, "gemm.mlir", noCubin());
  CompileOptions lean = noCubin();
  lean.keepSnapshots = false;
  lean.keepLlvmIR = false;
  lean.emitReference = false;
  CompileResult r = compile(source, "gemm.mlir", lean);
  ASSERT_TRUE(r.ok()) << errors(r);
  EXPECT_TRUE(r.ptx == all.ptx);
  EXPECT_TRUE(r.llvmIR.empty());
  EXPECT_TRUE(r.referencePtx.empty());
  EXPECT_EQ(r.manifestJson.find("reference.ptx"), std::string::npos);
  ASSERT_EQ(r.passes.size(), all.passes.size());
  for (size_t i = 2; i < r.passes.size(); ++i) {
    EXPECT_EQ(r.passes[i].name, all.passes[i].name);
    EXPECT_TRUE(r.passes[i].ir.empty());
  }
}

// A cancel seen at any point ends the compile as Cancelled, with nothing
// after that point (and the reference thread joined).
TEST(CompileDriver, CancellingAfterTheCheckOrThePtxStopsThere) {
  std::string source = readAsset("attention_fwd_d128.mlir");
  for (bool ptxFirst : {true, false}) {
    CompileOptions o = noCubin();
    o.ptxFirst = ptxFirst;
    o.cancel = std::make_shared<std::atomic<bool>>(false);
    o.onScheduleChecked = [&](const CompileResult &) { o.cancel->store(true); };
    bool sawPtx = false;
    o.onPtx = [&](const CompileResult &) { sawPtx = true; };
    CompileResult r = compile(source, "attention_fwd_d128.mlir", o);
    EXPECT_EQ(r.status, CompileResult::Status::Cancelled);
    EXPECT_FALSE(sawPtx);
    EXPECT_TRUE(r.ptx.empty());

    CompileOptions p = noCubin();
    p.ptxFirst = ptxFirst;
    p.cancel = std::make_shared<std::atomic<bool>>(false);
    p.onPtx = [&](const CompileResult &) { p.cancel->store(true); };
    r = compile(source, "attention_fwd_d128.mlir", p);
    EXPECT_EQ(r.status, CompileResult::Status::Cancelled);
    EXPECT_FALSE(r.ptx.empty());
    EXPECT_TRUE(r.referencePtx.empty());
  }
}

// A kernel the lowering refuses fails with its diagnostic while the
// reference runs alongside; nothing is left running.
TEST(CompileDriver, ALoweringErrorWhileTheReferenceRunsAlongside) {
  // Legal, and its plain reference lowers; the kernel's lowering refuses an
  // element read of a tile the loop makes.
  auto buffer = llvm::MemoryBuffer::getFile(STAGECRAFT_TEST_INPUTS_DIR "/refused-op.mlir");
  ASSERT_TRUE(bool(buffer));
  std::string source = (*buffer)->getBuffer().str();
  for (bool ptxFirst : {false, true}) {
    SCOPED_TRACE(ptxFirst ? "PTX first (the app)" : "reference alongside (the command line)");
    CompileOptions o = noCubin();
    o.ptxFirst = ptxFirst;
    CompileResult r = compile(source, "rows.mlir", o);
    ASSERT_EQ(r.status, CompileResult::Status::Error);
    EXPECT_NE(errors(r).find("rows.mlir:15:"), std::string::npos) << errors(r);
    EXPECT_NE(errors(r).find("must read a tile loaded once"), std::string::npos) << errors(r);
    EXPECT_TRUE(r.ptx.empty());
  }
}

// ptxas runs as a child process: its cubin and report are read back, its
// failure is an error with its output, and a cancel stops it.
TEST(CompileDriver, PtxasIsAChildProcess) {
  std::string source = readAsset("gemm.mlir");
  CompileOptions o;
  o.ptxasPath = fakePtxas("ptxas", R"(
for a in "$@"; do case "$prev" in -o) out=$a;; esac; prev=$a; done
printf 'cubin bytes' > "$out"
echo "ptxas info    : Used 168 registers, 1024 bytes smem"
echo "ptxas info    : 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
)");
  CompileResult r = compile(source, "gemm.mlir", o);
  ASSERT_TRUE(r.ok()) << errors(r);
  EXPECT_EQ(r.cubin, "cubin bytes");
  EXPECT_TRUE(r.ptxas.ran);
  EXPECT_EQ(r.ptxas.registers, 168);
  EXPECT_FALSE(r.referencePtx.empty());

  o.ptxasPath = fakePtxas("ptxas", "echo 'ptxas fatal   : bad PTX' >&2\nexit 3\n");
  r = compile(source, "gemm.mlir", o);
  EXPECT_EQ(r.status, CompileResult::Status::Error);
  EXPECT_NE(errors(r).find("ptxas failed"), std::string::npos) << errors(r);
  EXPECT_NE(errors(r).find("bad PTX"), std::string::npos) << errors(r);

  // One that would run for ten minutes: the cancel, set once it started,
  // kills it.
  std::string mark = fakePtxas("ptxas", "") + ".started";
  o.ptxasPath = fakePtxas("ptxas", "touch " + mark + "\nexec sleep 600\n");
  o.cancel = std::make_shared<std::atomic<bool>>(false);
  std::thread canceller([&] {
    while (!llvm::sys::fs::exists(mark))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    o.cancel->store(true);
  });
  r = compile(source, "gemm.mlir", o);
  canceller.join();
  EXPECT_EQ(r.status, CompileResult::Status::Cancelled);
  EXPECT_TRUE(r.cubin.empty());
}

// ptxas's C7520 (it serialized the wgmma instructions) is read from its
// report with the reason; a report without it says nothing.
TEST(CompileDriver, PtxasWgmmaSerializationIsRead) {
  PtxasReport r = parsePtxasReport(
      "ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async instructions are "
      "serialized due to program dependence on compiler-inserted WG.AR in divergent path in "
      "the function 'k'\nptxas info    : Used 168 registers, 0 bytes smem\n");
  EXPECT_EQ(r.wgmmaSerialized, "program dependence on compiler-inserted WG.AR in divergent path");
  EXPECT_EQ(r.registers, 168);
  EXPECT_EQ(parsePtxasReport("ptxas info    : Used 90 registers\n").wgmmaSerialized, "");
}
