//===- KernelFrame.cpp - what every lowered tile kernel shares ------------===//
#include "passes/Lowering/KernelFrame.h"

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/ScheduleIR.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;
using hopper::Emitter;

static constexpr const char *kSmemSymbol = "stagecraft_dynamic_smem";

KernelFrame::KernelFrame(OpBuilder &b, func::FuncOp kernel, int64_t threads,
                         int64_t smemBytes) {
  MLIRContext *ctx = kernel.getContext();
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  b.setInsertionPoint(kernel);
  Location loc = kernel.getLoc();
  Emitter e(b, loc);
  if (!module.lookupSymbol(kSmemSymbol))
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           kSmemSymbol, Attribute(),
                           /*alignment=*/1024, /*addrSpace=*/3);

  SmallVector<Type> argTypes;
  for (Type t : kernel.getArgumentTypes())
    argTypes.push_back(isa<DescType>(t) ? e.ptr() : e.i32());
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  fn = LLVM::LLVMFuncOp::create(b, loc, kernel.getSymName(), fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
              b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  fn->setAttr("stagecraft.dynamic_smem", b.getI64IntegerAttr(smemBytes));
  fn->setAttr("stagecraft.block", b.getI64IntegerAttr(threads));
  for (unsigned i = 0; i < argTypes.size(); ++i)
    if (isa<DescType>(kernel.getArgumentTypes()[i])) {
      fn.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                    TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
      fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(64));
      fn.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(), b.getUnitAttr());
    }
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  for (unsigned i = 0; i < argTypes.size(); ++i)
    base.map(kernel.getArgument(i), entry->getArgument(i));
}

Value KernelFrame::lowerIndex(Emitter &e, Value v, IRMapping &map) {
  if (Value m = map.lookupOrNull(v))
    return m;
  Operation *def = v.getDefiningOp();
  assert(def && "unmapped block argument");
  Value result;
  if (auto c = dyn_cast<arith::ConstantIndexOp>(def)) {
    result = e.c32(c.value());
  } else if (auto pid = dyn_cast<ProgramIdOp>(def)) {
    result = e.blockIdx(pid.getDim());
  } else if (auto np = dyn_cast<NumProgramsOp>(def)) {
    result = e.gridDim(np.getDim());
  } else {
    SmallVector<Value> operands;
    for (Value o : def->getOperands())
      operands.push_back(lowerIndex(e, o, map));
    OperationState state(def->getLoc(), def->getName(), operands,
                         TypeRange{e.i32()}, def->getAttrs());
    result = e.b.create(state)->getResult(0);
  }
  map.map(v, result);
  return result;
}

KernelFrame::TripCount KernelFrame::tripCount(Emitter &e, scf::ForOp loop) {
  TripCount t;
  t.lb = lowerIndex(e, loop.getLowerBound(), base);
  Value ub = lowerIndex(e, loop.getUpperBound(), base);
  t.step = lowerIndex(e, loop.getStep(), base);
  Value span = e.sub(ub, t.lb);
  Value n = e.divu(e.add(span, e.sub(t.step, e.c32(1))), t.step);
  t.count = arith::SelectOp::create(e.b, e.loc,
                                    e.cmp(arith::CmpIPredicate::sgt, span, e.c32(0)), n,
                                    e.c32(0));
  return t;
}

void KernelFrame::produce(Emitter &e, scf::ForOp loop, const TripCount &trip, LoadOp load,
                          const RingPlace &ring, Value src) {
  Value copies = e.c32(ring.copies);
  Value slot = e.remu(src, copies);
  Value round = e.divu(src, copies);
  Value slot8 = e.mul(slot, e.c32(8));
  e.ifThen(e.cmp(arith::CmpIPredicate::ugt, round, e.c32(0)), [&] {
    Value parity = e.andi(e.sub(round, e.c32(1)), e.c32(1));
    e.mbarrierWait(e.smemPtr(e.add(e.c32(ring.emptyBar), slot8)), parity);
  });
  DescType desc = load.getDesc().getType();
  Value full = e.smemPtr(e.add(e.c32(ring.fullBar), slot8));
  e.mbarrierArriveExpectTx(full, desc.getBoxBytes());
  IRMapping map = base; // index math local to this region
  map.map(loop.getInductionVar(), e.add(trip.lb, e.mul(src, trip.step)));
  SmallVector<Value> coords;
  for (Value c : llvm::reverse(load.getCoords()))
    coords.push_back(lowerIndex(e, c, map));
  ArrayRef<int64_t> tile = desc.getTileShape();
  int64_t rows = tile.size() >= 2 ? tile[tile.size() - 2] : 1;
  int64_t panelCols = desc.getLoadBoxShape().back();
  int64_t panels = (tile.back() + panelCols - 1) / panelCols;
  Value dst = e.smemPtr(e.add(e.c32(ring.offset), e.mul(slot, e.c32(ring.stride))));
  e.tmaLoadPanels(dst, fn.getArgument(cast<BlockArgument>(load.getDesc()).getArgNumber()),
                  coords, full, panels, panelCols, rows * panelCols * desc.getElementBytes());
}

FailureOr<ScheduledLoop> stagecraft::prepareScheduledLoop(func::FuncOp kernel) {
  FailureOr<scf::ForOp> loop = findPipelinedLoop(kernel);
  if (failed(loop))
    return failure();
  FailureOr<LoopGraph> graph = buildLoopGraph(kernel);
  if (failed(graph))
    return failure();
  if (failed(writeSchedule(kernel, graph->initialSchedule)))
    return failure();
  ScheduleReport report = checkSchedule(*graph, graph->initialSchedule);
  if (!report.legal()) {
    for (const Violation &v : report.violations)
      kernel.emitError("cannot compile an illegal schedule (")
          << ruleName(v.rule) << "): " << v.message;
    return failure();
  }
  if ((*loop)->getParentOfType<scf::ForOp>())
    return loop->emitError("tile-lower-to-nvvm: a pipelined loop nested in "
                           "another loop (persistent kernels) is not lowered "
                           "yet");
  return ScheduledLoop{*loop, std::move(*graph), std::move(report)};
}
