//===- Backend.cpp - LLVM IR, PTX through NVPTX, cubin through ptxas -------===//
#include "passes/Driver/Pipeline.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>
#include <regex>

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
  });
}

LogicalResult stagecraft::emitPtx(ModuleOp module, std::string &llvmIR, std::string &ptxOut) {
  initNVPTX();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "stagecraft");
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");

  const char *tripleName = "nvptx64-nvidia-cuda";
  llvm::Triple triple(tripleName);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError("NVPTX target unavailable: ") << error;
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "sm_90a", "+ptx80", targetOptions, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return module.emitError("the generated LLVM IR is invalid");

  // The same -O3 pipeline clang uses for device code.
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
        pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(*llvmModule, mam);
  }
  {
    llvm::raw_string_ostream os(llvmIR);
    llvmModule->print(os, nullptr);
  }
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream ptxStream(ptx);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, ptxStream, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return module.emitError("NVPTX cannot emit PTX");
  codegen.run(*llvmModule);
  ptxOut = ptx.str().str();
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

LogicalResult stagecraft::assembleCubin(llvm::StringRef ptxasPath,
                                        CompileResult &result) {
  std::string ptxas = findPtxas(ptxasPath);
  if (ptxas.empty()) {
    result.diagnostics.push_back(
        "warning: ptxas not found: the bundle carries PTX only (the driver "
        "JIT-compiles it)");
    return success();
  }
  llvm::SmallString<128> ptxFile, cubinFile, logFile;
  llvm::sys::fs::createTemporaryFile("stagecraft", "ptx", ptxFile);
  llvm::sys::fs::createTemporaryFile("stagecraft", "cubin", cubinFile);
  llvm::sys::fs::createTemporaryFile("stagecraft", "log", logFile);
  auto cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(ptxFile);
    llvm::sys::fs::remove(cubinFile);
    llvm::sys::fs::remove(logFile);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec) {
      result.diagnostics.push_back("error: cannot write " + ptxFile.str().str());
      return failure();
    }
    os << result.ptx;
  }
  llvm::SmallVector<llvm::StringRef> args = {
      ptxas, "-arch=sm_90a", "-O3", "-v", ptxFile, "-o", cubinFile};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logFile, logFile};
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/120, 0, &errMsg);
  auto log = llvm::MemoryBuffer::getFile(logFile);
  std::string logText = log ? (*log)->getBuffer().str() : "";
  result.ptxas = parsePtxasReport(logText);
  if (rc != 0) {
    result.diagnostics.push_back("error: ptxas failed" +
                                 (errMsg.empty() ? "" : " (" + errMsg + ")") +
                                 ":\n" + logText);
    return failure();
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, false, false);
  if (!cubin) {
    result.diagnostics.push_back("error: ptxas wrote no cubin");
    return failure();
  }
  result.cubin = (*cubin)->getBuffer().str();
  return success();
}
