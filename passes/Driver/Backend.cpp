//===- Backend.cpp - LLVM IR, PTX through NVPTX, cubin through ptxas -------===//
#include "passes/Driver/Pipeline.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <mutex>
#include <regex>
#include <thread>

#include <signal.h>

using namespace mlir;
using namespace stagecraft;

void stagecraft::registerCodegenDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

static void initNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared-memory pointers in 32 bits (as Triton's back end sets it):
    // with 64-bit ones every address of a residual's elements or a staging
    // slot costs two registers, and the epilogue of a 240-register consumer
    // spilled them. The target machine's data layout follows the option.
    auto &options = llvm::cl::getRegisteredOptions();
    if (llvm::cl::Option *o = options.lookup("nvptx-short-ptr"))
      static_cast<llvm::cl::opt<bool> *>(o)->setValue(true);
  });
}

PtxEmission::PtxEmission() = default;
PtxEmission::~PtxEmission() = default;
PtxEmission::PtxEmission(PtxEmission &&) = default;
PtxEmission &PtxEmission::operator=(PtxEmission &&) = default;

std::string PtxEmission::printLlvmIR() {
  std::string text;
  if (optimized) {
    llvm::raw_string_ostream os(text);
    optimized->print(os, nullptr);
  }
  optimized.reset();
  return text;
}

namespace {
using Clock = std::chrono::steady_clock;
double millisSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}
} // namespace

static std::string findPtxas(llvm::StringRef preferred);

/// CUDA's libdevice.10.bc: under $CUDA_HOME or $CUDA_PATH, beside the ptxas
/// on the PATH, or in /usr/local/cuda; read once.
static const llvm::MemoryBuffer *libdevice(std::string &where) {
  static std::once_flag once;
  static std::unique_ptr<llvm::MemoryBuffer> buffer;
  static std::string searched;
  std::call_once(once, [] {
    llvm::SmallVector<std::string> roots;
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
      if (std::optional<std::string> v = llvm::sys::Process::GetEnv(var))
        roots.push_back(*v);
    if (std::string ptxas = findPtxas(""); !ptxas.empty())
      roots.push_back(llvm::sys::path::parent_path(llvm::sys::path::parent_path(ptxas)).str());
    roots.push_back("/usr/local/cuda");
    for (const std::string &root : roots) {
      llvm::SmallString<256> path(root);
      llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
      searched += (searched.empty() ? "" : ", ") + path.str().str();
      if (auto file = llvm::MemoryBuffer::getFile(path)) {
        buffer = std::move(*file);
        return;
      }
    }
  });
  where = searched;
  return buffer.get();
}

/// Links in the libdevice functions the module calls (the lowering's math
/// with no PTX instruction: erf, sin, pow, ...), made internal so that the
/// optimizer inlines them and drops the rest; NVPTX's NVVMReflect, in the
/// pipeline below, resolves their `__nvvm_reflect` queries.
static std::optional<std::string> linkLibdevice(llvm::Module &m) {
  std::string first;
  for (const llvm::Function &f : m.functions())
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) {
      first = f.getName().str();
      break;
    }
  if (first.empty())
    return std::nullopt;
  std::string searched;
  const llvm::MemoryBuffer *bc = libdevice(searched);
  if (!bc)
    return "the kernel calls CUDA's libdevice (" + first +
           ") and libdevice.10.bc is not in " + searched +
           ": install the CUDA toolkit or set CUDA_HOME";
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      llvm::getLazyBitcodeModule(bc->getMemBufferRef(), m.getContext());
  if (!lib)
    return "cannot read libdevice: " + llvm::toString(lib.takeError());
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return "linking libdevice failed";
  for (llvm::Function &f : m.functions())
    if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return std::nullopt;
}

/// Marks `convergent` every inline-asm call whose instruction the whole warp
/// (or warp group) must execute together: PTX's `.aligned` and `.sync`
/// forms (wgmma.wait_group.sync.aligned, setmaxnreg, bar.sync, shfl.sync).
/// MLIR's llvm.inline_asm has no such flag, and an unmarked call may be
/// duplicated into both arms of a lane-dependent branch: LLVM's tail
/// duplication copied a register-A dot's wgmma.wait_group into the one-lane
/// barrier arrival's `if` and its `else`, the warp reached it at two
/// addresses and the kernel hung (the sixth sweep's g07 with Cvt ordered
/// after its dot, bench/results/convergent-asm-h200-2026-11-29). Clang marks
/// every call in CUDA device code convergent, inline asm included; asm that
/// is per-thread (a clock read, a predicated store) is left free to move.
static void markWarpSynchronousAsmConvergent(llvm::Module &m) {
  for (llvm::Function &f : m.functions())
    for (llvm::BasicBlock &block : f)
      for (llvm::Instruction &inst : block) {
        auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
        if (!call || !call->isInlineAsm())
          continue;
        llvm::StringRef text =
            llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString();
        if (text.contains(".aligned") || text.contains(".sync"))
          call->addFnAttr(llvm::Attribute::Convergent);
      }
}

LogicalResult stagecraft::emitPtx(ModuleOp module, bool keepLlvmIR, PtxEmission &out,
                                  const std::function<void()> &translated,
                                  const Target &gpu, int optLevel, bool fuseMultiplyAdd) {
  initNVPTX();
  auto t = Clock::now();
  const char *tripleName = "nvptx64-nvidia-cuda";
  llvm::Triple triple(tripleName);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError("NVPTX target unavailable: ") << error;
  // Made per call: it costs about 0.1 ms (measured), and a TargetMachine is
  // not to be shared between threads.
  llvm::TargetOptions targetOptions;
  // Fast: LLVM fuses a multiply and its add into fma, and the NVPTX back end
  // writes the rest without .rn, so ptxas may fuse more; Standard writes
  // mul.rn/add.rn, which ptxas must keep apart.
  targetOptions.AllowFPOpFusion =
      fuseMultiplyAdd ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, gpu.name(), gpu.ptxFeature(), targetOptions, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));

  out.llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *out.llvmContext, "stagecraft");
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  std::string invalid;
  llvm::raw_string_ostream invalidStream(invalid);
  if (llvm::verifyModule(*llvmModule, &invalidStream))
    return module.emitError("the generated LLVM IR is invalid: ") << invalid;
  markWarpSynchronousAsmConvergent(*llvmModule);
  if (std::optional<std::string> error = linkLibdevice(*llvmModule))
    return module.emitError(*error);
  out.translateMillis = millisSince(t);
  // The MLIR module is not touched below.
  if (translated)
    translated();
  auto fail = [&](std::string message) {
    if (translated) {
      out.error = std::move(message);
      return failure();
    }
    return LogicalResult(module.emitError(message));
  };

  // The same pipeline clang uses for device code (-O3 for kernels).
  t = Clock::now();
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(machine.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm =
        pb.buildPerModuleDefaultPipeline(optLevel <= 1   ? llvm::OptimizationLevel::O1
                                         : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                         : llvm::OptimizationLevel::O3);
    mpm.run(*llvmModule, mam);
  }
  // Code generation rewrites the IR it lowers (CodeGenPrepare, strength
  // reduction): kernel.ll is the optimized IR before it, so keep a copy
  // (a ninth of the cost of printing it).
  if (keepLlvmIR)
    out.optimized = llvm::CloneModule(*llvmModule);
  out.optimizeMillis = millisSince(t);

  t = Clock::now();
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream ptxStream(ptx);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, ptxStream, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return fail("NVPTX cannot emit PTX");
  codegen.run(*llvmModule);
  out.ptx = ptx.str().str();
  out.codegenMillis = millisSince(t);
  return success();
}

PtxasReport stagecraft::parsePtxasReport(llvm::StringRef text) {
  PtxasReport r;
  r.ran = true;
  r.text = text.str();
  std::string s = text.str();
  std::smatch m;
  if (std::regex_search(s, m, std::regex(R"(Used (\d+) registers)")))
    r.registers = std::stoi(m[1]);
  if (std::regex_search(s, m, std::regex(R"((\d+) bytes smem)")))
    r.sharedBytes = std::stoi(m[1]);
  else if (r.registers >= 0)
    r.sharedBytes = 0;
  if (std::regex_search(s, m, std::regex(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"))) {
    r.stackBytes = std::stoi(m[1]);
    r.spillStoreBytes = std::stoi(m[2]);
    r.spillLoadBytes = std::stoi(m[3]);
  }
  if (std::regex_search(s, m, std::regex(R"(wgmma\.mma_async instructions are serialized due to ([^\n]*?)(?: in the function '[^']*')?\s*$)",
                                         std::regex::multiline)))
    r.wgmmaSerialized = m[1].str().empty() ? "unknown" : m[1].str();
  return r;
}

static std::string findPtxas(llvm::StringRef preferred) {
  if (!preferred.empty())
    return preferred.str();
  if (auto p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  return "";
}

struct PtxasRun::Impl {
  llvm::SmallString<128> ptxFile, cubinFile, logFile;
  std::string ptxas; // the program run
  llvm::sys::ProcessInfo process;
  std::string startError;
  bool started = false;
  ~Impl() {
    if (started) { // never waited for: a cancelled or failed compile
      ::kill(process.Pid, SIGKILL);
      llvm::sys::Wait(process, std::nullopt);
    }
    for (const auto &f : {ptxFile, cubinFile, logFile})
      if (!f.empty())
        llvm::sys::fs::remove(f);
  }
};

PtxasRun::PtxasRun() = default;
PtxasRun::~PtxasRun() = default;

bool PtxasRun::start(llvm::StringRef ptxasPath, CompileResult &result,
                     const Target &gpu) {
  std::string ptxas = findPtxas(ptxasPath);
  if (ptxas.empty()) {
    result.diagnostics.push_back(
        "warning: ptxas not found: the bundle carries PTX only (the driver "
        "JIT-compiles it)");
    return true;
  }
  impl = std::make_unique<Impl>();
  llvm::sys::fs::createTemporaryFile("stagecraft", "ptx", impl->ptxFile);
  llvm::sys::fs::createTemporaryFile("stagecraft", "cubin", impl->cubinFile);
  llvm::sys::fs::createTemporaryFile("stagecraft", "log", impl->logFile);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(impl->ptxFile, ec);
    if (ec) {
      result.diagnostics.push_back("error: cannot write " + impl->ptxFile.str().str());
      return false;
    }
    os << result.ptx;
  }
  impl->ptxas = ptxas;
  std::string arch = ("-arch=" + gpu.name()).str();
  llvm::SmallVector<llvm::StringRef> args = {
      ptxas, arch, "-O3", "-v", impl->ptxFile, "-o", impl->cubinFile};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, impl->logFile,
                                                impl->logFile};
  bool failedToStart = false;
  impl->process = llvm::sys::ExecuteNoWait(ptxas, args, std::nullopt, redirects, 0,
                                           &impl->startError, &failedToStart);
  if (failedToStart) {
    result.diagnostics.push_back("error: cannot run " + ptxas + ": " + impl->startError);
    return false;
  }
  impl->started = true;
  return true;
}

bool PtxasRun::finish(CompileResult &result, const std::atomic<bool> *cancel) {
  if (!impl)
    return true; // no ptxas
  std::string errMsg;
  // ptxas takes a fraction of a second; two minutes means it hangs. Poll, so
  // that a cancelled compile stops it at once (the destructor kills it).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  llvm::sys::ProcessInfo done;
  while (true) {
    done = llvm::sys::Wait(impl->process, 0u, &errMsg);
    if (done.Pid != 0)
      break;
    if (cancel && cancel->load(std::memory_order_relaxed))
      return false;
    if (std::chrono::steady_clock::now() > deadline) {
      result.diagnostics.push_back("error: ptxas ran for more than two minutes");
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  impl->started = false;
  int rc = done.ReturnCode;
  auto log = llvm::MemoryBuffer::getFile(impl->logFile);
  std::string logText = log ? (*log)->getBuffer().str() : "";
  result.ptxas = parsePtxasReport(logText);
  if (rc != 0) {
    result.diagnostics.push_back("error: ptxas failed" +
                                 (errMsg.empty() ? "" : " (" + errMsg + ")") +
                                 ":\n" + logText);
    return false;
  }
  auto cubin = llvm::MemoryBuffer::getFile(impl->cubinFile, false, false);
  // The output file exists from the start (a temporary file): a "ptxas"
  // that succeeds without writing leaves it empty.
  if (!cubin || (*cubin)->getBufferSize() == 0) {
    result.diagnostics.push_back("error: ptxas (" + impl->ptxas +
                                 ") exited 0 but wrote no cubin");
    return false;
  }
  result.cubin = (*cubin)->getBuffer().str();
  return true;
}
