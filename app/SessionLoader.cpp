//===- SessionLoader.cpp - loop IR text to a loop graph -------------------===//
//
// The one app translation unit that includes MLIR headers (they take ~20 s
// each to compile on the build machines: keep it that way).
//
//===----------------------------------------------------------------------===//
#include "app/SessionLoader.h"
#include "app/IrTextPatch.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Schedule/TileLoopIR.h"
#include "core/Support/InputCheck.h"
#include "core/Timeline/UnitCosts.h"
#include "passes/Driver/PredictionCosts.h"
#include "passes/TileOrder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::app;

namespace {

/// A context with the tile dialect, a parsed module, and the diagnostics
/// the parse and the analyses emitted, as "file:line:col: error: ..." lines.
struct ParsedIr {
  std::unique_ptr<MLIRContext> ctx;
  std::vector<std::string> diagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module;
  func::FuncOp kernel;
  /// The file's other kernels (the app shows the first).
  std::vector<std::string> others;
};

bool parse(const std::string &text, const std::string &name, ParsedIr &p) {
  std::string problem = checkInputText(text, name);
  if (!problem.empty()) {
    p.diagnostics.push_back(problem);
    return false;
  }
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  p.ctx = std::make_unique<MLIRContext>(registry,
                                        MLIRContext::Threading::DISABLED);
  p.ctx->printOpOnDiagnostic(false); // as the compiler's: file:line, no op dump
  p.handler = std::make_unique<ScopedDiagnosticHandler>(
      p.ctx.get(), [&p](Diagnostic &diag) {
        p.diagnostics.push_back(formatDiagnostic(diag));
        for (Diagnostic &note : diag.getNotes())
          p.diagnostics.push_back(formatDiagnostic(note));
        return success();
      });
  p.sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
  p.module = parseSourceFile<ModuleOp>(p.sourceMgr, p.ctx.get());
  if (!p.module)
    return false;
  auto kernels = tile::getKernels(*p.module);
  if (kernels.empty()) {
    p.diagnostics.push_back(
        name + ": error: no kernel in this file (a func.func marked tile.kernel)");
    return false;
  }
  p.kernel = kernels.front();
  for (func::FuncOp k : llvm::drop_begin(kernels))
    p.others.push_back(k.getSymName().str());
  return true;
}

} // namespace

bool stagecraft::app::kernelCostsAt(const std::string &text, const std::string &sourceName,
                                    const LoopGraph &graph,
                                    const std::vector<std::pair<std::string, int64_t>> &sizes,
                                    timeline::KernelCosts &out, std::string &error) {
  ParsedIr p;
  if (parse(text, sourceName, p)) {
    FailureOr<timeline::KernelCosts> costs = predictionCosts(p.kernel, graph, sizes);
    if (succeeded(costs)) {
      out = std::move(*costs);
      return true;
    }
  }
  error = p.diagnostics.empty() ? sourceName + ": error: its unit costs could not be read"
                                : p.diagnostics.front();
  return false;
}

LoadedIr stagecraft::app::loadLoopIr(const std::string &text,
                                     const std::string &sourceName) {
  LoadedIr out;
  ParsedIr p;
  if (parse(text, sourceName, p)) {
    FailureOr<LoopGraph> graph = buildLoopGraph(p.kernel);
    if (succeeded(graph)) {
      out.ok = true;
      out.graph = std::move(*graph);
      out.kernel = p.kernel.getSymName().str();
      out.otherKernels = p.others;
      if (out.graph.kernel.empty())
        out.graph.kernel = out.kernel;
      FailureOr<timeline::KernelCosts> costs =
          predictionCosts(p.kernel, out.graph);
      if (succeeded(costs)) {
        out.costs = std::move(*costs);
        out.hasCosts = true;
      }
      FailureOr<scf::ForOp> loop = findPipelinedLoop(p.kernel);
      if (succeeded(loop))
        out.tileLoop = analyzeTileLoop(p.kernel, *loop);
      if (out.tileLoop.persistent) {
        // Which orders the board's tile-order control may offer (the
        // rewrite's checks only; nothing is changed).
        TileOrderChoice grouped;
        grouped.order = TileOrder::Grouped;
        grouped.groupSize = 8;
        for (TileOrderChoice c : {TileOrderChoice(), TileOrderChoice{TileOrder::ColumnMajor, 0},
                                  grouped}) {
          std::string why;
          ScopedDiagnosticHandler capture(p.ctx.get(), [&](Diagnostic &d) {
            if (why.empty())
              why = formatDiagnostic(d);
            return success();
          });
          if (failed(checkTileOrder(p.kernel, c)))
            out.tileOrderRefusals[c.order] = why.empty() ? "the tile loop cannot take it" : why;
        }
      }
    }
  }
  out.diagnostics = std::move(p.diagnostics);
  if (!out.ok && out.diagnostics.empty())
    out.diagnostics.push_back(sourceName + ": error: cannot read this file");
  return out;
}

bool stagecraft::app::scheduledIrText(const std::string &text,
                                      const std::string &sourceName,
                                      const Schedule &schedule,
                                      std::string &out, std::string &error) {
  ParsedIr p;
  if (!parse(text, sourceName, p)) {
    error = p.diagnostics.empty() ? "cannot parse the IR" : p.diagnostics.front();
    return false;
  }
  // The text patch rewrites `tile.sched` only: the kernel-wide choices
  // (tile.consumers, tile.registers) must be the IR's for it to do.
  FailureOr<LoopGraph> graph = buildLoopGraph(p.kernel);
  bool kernelWideAsInIr =
      succeeded(graph) &&
      effectiveConsumers(*graph, schedule) ==
          effectiveConsumers(*graph, graph->initialSchedule) &&
      effectiveRegisters(*graph, schedule) == effectiveRegisters(*graph, graph->initialSchedule);
  if (kernelWideAsInIr && patchSchedAttrs(text, schedule, out))
    return true;
  if (failed(graph) || failed(writeSchedule(p.kernel, schedule))) {
    error = p.diagnostics.empty() ? "cannot write the schedule into the IR"
                                  : p.diagnostics.front();
    return false;
  }
  out.clear();
  llvm::raw_string_ostream os(out);
  p.module->print(os);
  os.flush();
  return true;
}
