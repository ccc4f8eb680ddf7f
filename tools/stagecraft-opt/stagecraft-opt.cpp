//===- stagecraft-opt.cpp - mlir-opt with the Stagecraft dialect ----------===//
//
// mlir-opt with the tile dialect, the upstream dialects the loop IR uses, and
// the Stagecraft passes. For lit tests and power users. Input is checked
// before parsing (core/Support/InputCheck.h) so that absurd files get a
// diagnostic, not a stack overflow.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Support/InputCheck.h"
#include "passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  stagecraft::tile::registerStagecraftDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  stagecraft::registerStagecraftPasses();

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Stagecraft optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();

  // Not mlir::openInputFile: a device (/dev/zero) or an endless stdin is
  // refused, not read until memory runs out.
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      stagecraft::readUserInput(inputFilename, errorMessage);
  if (!input) {
    llvm::StringRef why(errorMessage);
    llvm::errs() << why.split(": ").first << ":1:1: error: " << why.split(": ").second << "\n";
    return 1;
  }
  std::string problem = stagecraft::checkInputText(
      input->getBuffer(), inputFilename == "-" ? "<stdin>" : inputFilename);
  if (!problem.empty()) {
    llvm::errs() << problem << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return 1;
  output->keep();
  return 0;
}
