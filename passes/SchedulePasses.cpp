//===- SchedulePasses.cpp - verify, apply, materialize, export ------------===//
#include "passes/Passes.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

namespace stagecraft {
#define GEN_PASS_DEF_TILEVERIFYSCHEDULE
#define GEN_PASS_DEF_TILEAPPLYSCHEDULE
#define GEN_PASS_DEF_TILEMATERIALIZESCHEDULE
#define GEN_PASS_DEF_TILEEXPORTSCHEDULE
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;

FailureOr<func::FuncOp> stagecraft::selectKernel(ModuleOp module,
                                                 StringRef name) {
  SmallVector<func::FuncOp> kernels = tile::getKernels(module);
  if (!name.empty()) {
    for (func::FuncOp k : kernels)
      if (k.getSymName() == name)
        return k;
    return module.emitError("no tile kernel named @") << name;
  }
  if (kernels.size() != 1) {
    // An implicit module (a file of comments) sits at line 0: say line 1.
    Location loc = module.getLoc();
    if (auto f = dyn_cast<FileLineColLoc>(loc); f && f.getLine() == 0)
      loc = FileLineColLoc::get(f.getFilename(), 1, 1);
    if (kernels.empty())
      return emitError(loc, "no tile kernel in the file (a func.func with `tile.kernel`)");
    std::string names;
    for (func::FuncOp k : kernels)
      names += (names.empty() ? "@" : ", @") + k.getSymName().str();
    return emitError(loc, "expected exactly one tile kernel (func.func with `tile.kernel`), "
                          "found ")
           << kernels.size() << " (" << names
           << "); name one (--kernel NAME in the tools, kernel=NAME as a pass option)";
  }
  return kernels.front();
}

/// The op a violation is best reported at: the use op of an edge, else the
/// first op of the unit, else the loop.
static Operation *violationAnchor(scf::ForOp loop, const LoopGraph &g,
                                  const Violation &v) {
  // The op the violation names by location first, as stagecraft-compile and
  // the timeline report it (the op that uses a value, not its unit's first
  // op: the seventh sweep's B7 had opt and compile disagree by five lines);
  // an op outside the loop's units (a reduction after it, a load before it)
  // is found so too.
  Operation *at = nullptr;
  if (!v.location.empty())
    loop->getParentOfType<func::FuncOp>().walk([&](Operation *op) {
      if (!at && formatLocation(op->getLoc()) == v.location)
        at = op;
    });
  if (at)
    return at;
  FailureOr<LoopUnits> units = collectUnits(loop);
  const std::string &name = v.use.empty() ? v.def : v.use;
  if (succeeded(units) && !name.empty()) {
    int u = units->find(name);
    if (u >= 0)
      return units->ops[u].front();
  }
  (void)g;
  return loop.getOperation();
}

/// Checks the kernel's schedule; emits one error per violation, or the
/// summary remark. Fails on an illegal schedule.
static LogicalResult verifyKernelSchedule(func::FuncOp kernel, bool remark) {
  FailureOr<LoopGraph> graph = buildLoopGraph(kernel);
  if (failed(graph))
    return failure();
  scf::ForOp loop = *findPipelinedLoop(kernel);
  ScheduleReport report = checkSchedule(*graph, graph->initialSchedule);
  for (const Violation &v : report.violations)
    violationAnchor(loop, *graph, v)->emitError()
        << "illegal schedule (" << ruleName(v.rule) << "): " << v.message;
  if (!report.legal())
    return failure();
  if (remark)
    loop.emitRemark() << "schedule of @" << kernel.getSymName() << ": "
                      << report.summary();
  return success();
}

namespace {
struct TileVerifySchedulePass
    : stagecraft::impl::TileVerifyScheduleBase<TileVerifySchedulePass> {
  using TileVerifyScheduleBase::TileVerifyScheduleBase;
  void runOnOperation() override {
    bool ok = true;
    for (func::FuncOp kernel : tile::getKernels(getOperation()))
      ok &= succeeded(verifyKernelSchedule(kernel, summary));
    if (!ok)
      signalPassFailure();
  }
};

struct TileApplySchedulePass
    : stagecraft::impl::TileApplyScheduleBase<TileApplySchedulePass> {
  using TileApplyScheduleBase::TileApplyScheduleBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (file.empty()) {
      module.emitError("tile-apply-schedule needs file=PATH");
      return signalPassFailure();
    }
    FailureOr<func::FuncOp> target = selectKernel(module, kernel.getValue());
    if (failed(target))
      return signalPassFailure();
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
    if (!buffer) {
      module.emitError("cannot read schedule ")
          << file << ": " << buffer.getError().message();
      return signalPassFailure();
    }
    llvm::Expected<Schedule> schedule =
        Schedule::fromJson((*buffer)->getBuffer(), file);
    if (!schedule) {
      module.emitError(llvm::toString(schedule.takeError()));
      return signalPassFailure();
    }
    if (!schedule->kernel.empty() && schedule->kernel != target->getSymName()) {
      module.emitError("schedule ")
          << file << " is for kernel @" << schedule->kernel
          << ", not @" << target->getSymName();
      return signalPassFailure();
    }
    FailureOr<LoopGraph> graph = buildLoopGraph(*target);
    if (failed(graph))
      return signalPassFailure();
    if (!allowIllegal) {
      ScheduleReport report = checkSchedule(*graph, *schedule);
      if (!report.legal()) {
        scf::ForOp loop = *findPipelinedLoop(*target);
        for (const Violation &v : report.violations)
          violationAnchor(loop, *graph, v)->emitError()
              << "schedule " << file << " is illegal (" << ruleName(v.rule)
              << "): " << v.message;
        return signalPassFailure();
      }
    }
    if (failed(writeSchedule(*target, *schedule)))
      signalPassFailure();
  }
};

struct TileMaterializeSchedulePass
    : stagecraft::impl::TileMaterializeScheduleBase<TileMaterializeSchedulePass> {
  void runOnOperation() override {
    for (func::FuncOp kernel : tile::getKernels(getOperation())) {
      FailureOr<LoopGraph> graph = buildLoopGraph(kernel);
      if (failed(graph) || failed(writeSchedule(kernel, graph->initialSchedule)))
        return signalPassFailure();
    }
  }
};

struct TileExportSchedulePass
    : stagecraft::impl::TileExportScheduleBase<TileExportSchedulePass> {
  using TileExportScheduleBase::TileExportScheduleBase;
  void runOnOperation() override {
    FailureOr<func::FuncOp> target =
        selectKernel(getOperation(), kernel.getValue());
    if (failed(target))
      return signalPassFailure();
    FailureOr<LoopGraph> graph = buildLoopGraph(*target);
    if (failed(graph))
      return signalPassFailure();
    std::string json = graph->initialSchedule.toJson();
    if (file == "-") {
      llvm::outs() << json;
      llvm::outs().flush();
      return;
    }
    std::error_code ec;
    llvm::ToolOutputFile out(file, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      getOperation().emitError("cannot write ") << file << ": " << ec.message();
      return signalPassFailure();
    }
    out.os() << json;
    out.keep();
  }
};
} // namespace
