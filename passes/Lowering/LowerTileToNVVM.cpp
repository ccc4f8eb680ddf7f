//===- LowerTileToNVVM.cpp - scheduled tile kernels to NVVM for sm_90a -----===//
//
// The pass description in passes/Passes.td says what the generated kernel
// does. This file: analysis of the kernel (which ops, which rings, which
// warp groups), then emission of one llvm.func per kernel.
//
// Supported today: GEMM-shaped pipelined loops (TMA loads feeding one dot
// whose accumulator is loop-carried), followed by truncf + store. Anything
// else is refused with an error naming the op.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/Lowering/HopperOps.h"
#include "passes/Lowering/KernelFrame.h"
#include "passes/Lowering/LowerAttention.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/IR/IRMapping.h"

#include <optional>

namespace stagecraft {
#define GEN_PASS_DEF_TILELOWERTONVVM
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {

int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

struct Ring {
  unsigned unit;
  LoadOp load;
  unsigned descArg;
  int64_t copies = 1;
  int64_t bytes = 0;     // one buffer
  int64_t offset = 0;    // first buffer
  int64_t stride = 0;    // buffer to buffer
  int64_t fullBar = 0;   // first full barrier
  int64_t emptyBar = 0;  // first empty barrier
};

class KernelLowering {
public:
  KernelLowering(func::FuncOp kernel) : kernel(kernel) {}
  LogicalResult run();

private:
  LogicalResult analyze();
  void emit();
  void emitGroupLoop(Emitter &e, int64_t group, Value ctid, Value cwg);
  void emitProduce(Emitter &e, const Ring &ring, Value src);
  Value emitDot(Emitter &e, Value src, Value acc, Value ctid, Value cwg);
  void emitEpilogue(Emitter &e, Value acc, Value ctid, Value cwg);
  Value lowerIndex(Emitter &e, Value v, IRMapping &map) {
    return frame->lowerIndex(e, v, map);
  }
  const Ring *ringOf(Value v) const;

  func::FuncOp kernel;
  scf::ForOp loop;
  LoopGraph graph;
  ScheduleReport report;
  std::vector<Ring> rings;
  DotOp dot;
  arith::TruncFOp trunc;
  StoreOp store;
  int64_t consumerGroup = 0, producerGroup = -1;
  int64_t consumerWGs = 1;
  int64_t threads = 128;
  int64_t smemBytes = 0, stagingOffset = 1024;
  int64_t consumerRegs = 0, producerRegs = 0;

  // Emission state.
  std::optional<KernelFrame> frame;
  LLVM::LLVMFuncOp fn;
  IRMapping base; // kernel arguments and pre-loop scalars
  KernelFrame::TripCount trip;
  Value nIter, lb, step;
};

LogicalResult KernelLowering::run() {
  if (failed(analyze()))
    return failure();
  emit();
  return success();
}

const Ring *KernelLowering::ringOf(Value v) const {
  for (const Ring &r : rings)
    if (const_cast<Ring &>(r).load.getResult() == v)
      return &r;
  return nullptr;
}

LogicalResult KernelLowering::analyze() {
  FailureOr<ScheduledLoop> s = prepareScheduledLoop(kernel);
  if (failed(s))
    return failure();
  loop = s->loop;
  graph = std::move(s->graph);
  report = std::move(s->report);

  // The body: TMA loads and one dot accumulating into iter_arg 0.
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isScheduledOp(&op))
      continue;
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(load.getDesc());
      if (!arg || arg.getOwner() != &kernel.getBody().front())
        return load.emitError("tile-lower-to-nvvm: the descriptor must be a "
                              "kernel argument");
      Ring r;
      r.unit = graph.findUnit(getSchedule(&op).getName());
      r.load = load;
      r.descArg = arg.getArgNumber();
      r.bytes = load.getDesc().getType().getBoxBytes();
      rings.push_back(r);
      continue;
    }
    if (auto d = dyn_cast<DotOp>(op)) {
      if (dot)
        return d.emitError("tile-lower-to-nvvm: one dot per GEMM loop is "
                           "lowered today; attention lowering is next");
      dot = d;
      continue;
    }
    return op.emitError("tile-lower-to-nvvm: '")
           << op.getName() << "' in the pipelined loop is not lowered yet "
           << "(GEMM-shaped loops only: TMA loads feeding one dot)";
  }
  if (!dot)
    return loop.emitError("tile-lower-to-nvvm: the pipelined loop has no dot");
  auto accArg = dyn_cast<BlockArgument>(dot.getAcc());
  if (!accArg || accArg.getOwner() != loop.getBody() ||
      loop.getNumRegionIterArgs() != 1 ||
      loop.getBody()->getTerminator()->getOperand(0) != dot.getResult())
    return dot.emitError("tile-lower-to-nvvm: the dot must accumulate into "
                         "the loop's only iter_arg and yield it");
  const Ring *ra = ringOf(dot.getA()), *rb = ringOf(dot.getB());
  if (!ra || !rb)
    return dot.emitError("tile-lower-to-nvvm: both dot operands must be TMA "
                         "loads in the loop (register A operands come with "
                         "attention)");
  if (!dot.getTransposeB())
    return dot.emitError("tile-lower-to-nvvm: B must be K-major (NxK, "
                         "transpose_b) for now");
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  if (!aType.getElementType().isBF16() || aType.getDimSize(1) * 2 != 128)
    return dot.emitError("tile-lower-to-nvvm: operands must be bf16 with a "
                         "K tile of 64 (128-byte swizzled rows)");

  // After the loop: truncf and a store of the accumulator.
  Value result = loop.getResult(0);
  if (!result.hasOneUse() || !(trunc = dyn_cast<arith::TruncFOp>(*result.getUsers().begin())))
    return loop.emitError("tile-lower-to-nvvm: the accumulator must be "
                          "converted with arith.truncf and stored");
  if (!trunc.getResult().hasOneUse() ||
      !(store = dyn_cast<StoreOp>(*trunc.getResult().getUsers().begin())))
    return trunc.emitError("tile-lower-to-nvvm: the converted accumulator "
                           "must be stored with tile.store");
  if (!cast<RankedTensorType>(trunc.getType()).getElementType().isBF16())
    return trunc.emitError("tile-lower-to-nvvm: the result must be bf16");
  for (Operation &op : kernel.getBody().front()) {
    if (&op == loop.getOperation() || &op == trunc.getOperation() ||
        &op == store.getOperation() || isa<func::ReturnOp>(op))
      continue;
    if (isa<arith::ConstantOp>(op) && isa<RankedTensorType>(op.getResult(0).getType()))
      continue; // the accumulator's zero init
    if (op.getNumResults() == 1 && op.getResult(0).getType().isIndex())
      continue; // scalar index math, lowered where used
    return op.emitError("tile-lower-to-nvvm: '")
           << op.getName() << "' outside the loop is not lowered yet";
  }

  // Warp groups.
  OpSchedule dotSched = effectiveSchedule(graph, graph.initialSchedule,
                                          graph.findUnit(getSchedule(dot).getName()));
  consumerGroup = dotSched.group;
  consumerWGs = graph.warpGroupsOf(consumerGroup);
  if (dot.getM() != 64 * consumerWGs)
    return dot.emitError("tile-lower-to-nvvm: M = ")
           << dot.getM() << " needs " << dot.getM() / 64
           << " warp groups of 64 rows in warp group " << consumerGroup
           << ", which has " << consumerWGs << " (tile.warpgroups)";
  for (Ring &r : rings) {
    int64_t g = effectiveSchedule(graph, graph.initialSchedule, r.unit).group;
    if (g == consumerGroup)
      continue;
    if (producerGroup >= 0 && g != producerGroup)
      return r.load.emitError("tile-lower-to-nvvm: all loads outside the "
                              "dot's warp group must share one producer group");
    producerGroup = g;
  }
  threads = 128 * (consumerWGs + (producerGroup >= 0 ? 1 : 0));
  for (const GroupRegisters &gr : report.registers) {
    if (gr.group == consumerGroup) consumerRegs = gr.budget;
    if (gr.group == producerGroup) producerRegs = gr.budget;
  }

  // Shared memory: barriers first, then each ring (1024-byte aligned for the
  // 128-byte swizzle), the epilogue staging tile reusing the rings.
  int64_t barrier = 0, offset = 1024;
  for (Ring &r : rings) {
    for (const LoadBuffers &b : report.buffers)
      if (b.name == graph.units[r.unit].name)
        r.copies = b.copies;
    r.fullBar = barrier;
    r.emptyBar = barrier + 8 * r.copies;
    barrier += 16 * r.copies;
    r.stride = alignTo(r.bytes, 1024);
    r.offset = offset;
    offset += r.copies * r.stride;
  }
  if (barrier > 1024)
    return kernel.emitError("tile-lower-to-nvvm: too many buffers (")
           << barrier / 16 << "); the barrier area holds 64";
  int64_t staging = store.getDesc().getType().getBoxBytes();
  smemBytes = std::max(offset, stagingOffset + staging);
  return success();
}

void KernelLowering::emitProduce(Emitter &e, const Ring &ring, Value src) {
  frame->produce(e, loop, trip, const_cast<Ring &>(ring).load,
                 {ring.copies, ring.offset, ring.stride, ring.fullBar, ring.emptyBar}, src);
}

Value KernelLowering::emitDot(Emitter &e, Value src, Value acc, Value ctid,
                              Value cwg) {
  const Ring *ra = ringOf(dot.getA()), *rb = ringOf(dot.getB());
  auto slotOf = [&](const Ring *r, Value s) { return e.remu(s, e.c32(r->copies)); };
  for (const Ring *r : {ra, rb}) {
    if (r == rb && ra == rb)
      break;
    Value slot = slotOf(r, src);
    Value parity = e.andi(e.divu(src, e.c32(r->copies)), e.c32(1));
    e.mbarrierWait(e.smemPtr(e.add(e.c32(r->fullBar), e.mul(slot, e.c32(8)))), parity);
  }
  int64_t n = dot.getN(), k = dot.getK();
  int64_t rowBytesA = cast<RankedTensorType>(dot.getA().getType()).getDimSize(1) * 2;
  Value addrA = e.add(e.smemAddr32(e.smemPtr(e.add(e.c32(ra->offset),
                                                   e.mul(slotOf(ra, src), e.c32(ra->stride))))),
                      e.mul(cwg, e.c32(64 * rowBytesA)));
  Value addrB = e.smemAddr32(e.smemPtr(
      e.add(e.c32(rb->offset), e.mul(slotOf(rb, src), e.c32(rb->stride)))));
  e.wgmmaFence();
  for (int64_t kk = 0; kk < k / 16; ++kk)
    acc = e.wgmma(n, e.wgmmaDescriptor(e.add(addrA, e.c32(kk * 32))),
                  e.wgmmaDescriptor(e.add(addrB, e.c32(kk * 32))), acc,
                  /*transB=*/false);
  e.wgmmaCommit();
  int64_t wait = effectiveSchedule(graph, graph.initialSchedule,
                                   graph.findUnit(getSchedule(dot).getName()))
                     .wait;
  e.wgmmaWait(wait);
  // The buffers of iteration src - wait are no longer read: release them,
  // one arrival per consumer warp.
  Value rel = e.sub(src, e.c32(wait));
  Value lane0 = e.cmp(CmpIPredicate::eq, e.remu(ctid, e.c32(32)), e.c32(0));
  e.ifThen(e.land(e.cmp(CmpIPredicate::sge, rel, e.c32(0)), lane0), [&] {
    for (const Ring *r : {ra, rb}) {
      if (r == rb && ra == rb)
        break;
      e.mbarrierArrive(e.smemPtr(e.add(e.c32(r->emptyBar),
                                       e.mul(slotOf(r, rel), e.c32(8)))));
    }
  });
  return acc;
}

void KernelLowering::emitGroupLoop(Emitter &e, int64_t group, Value ctid,
                                   Value cwg) {
  // The units of this group in body order, and their stage span.
  std::vector<unsigned> units;
  int64_t smin = INT64_MAX, smax = INT64_MIN;
  for (unsigned u : report.bodyOrder) {
    OpSchedule s = effectiveSchedule(graph, graph.initialSchedule, u);
    if (s.group != group)
      continue;
    units.push_back(u);
    smin = std::min(smin, s.stage);
    smax = std::max(smax, s.stage);
  }
  bool consumer = group == consumerGroup;
  Value end = e.add(nIter, e.c32(smax - smin));
  Value init = consumer ? e.zeroAcc(dot.getN()) : Value();
  SmallVector<Value> inits;
  if (init)
    inits.push_back(init);
  auto kloop = scf::ForOp::create(e.b, e.loc, e.c32(0), end, e.c32(1), inits);
  {
    OpBuilder::InsertionGuard guard(e.b);
    // The builder adds an empty yield when there are no iter_args; the body
    // ends with the yield built below instead.
    if (!kloop.getBody()->empty())
      kloop.getBody()->getTerminator()->erase();
    e.b.setInsertionPointToStart(kloop.getBody());
    Value kit = kloop.getInductionVar();
    Value acc = consumer ? kloop.getRegionIterArgs()[0] : Value();
    for (unsigned u : units) {
      OpSchedule s = effectiveSchedule(graph, graph.initialSchedule, u);
      Value src = e.sub(kit, e.c32(s.stage - smin));
      Value inRange = e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                             e.cmp(CmpIPredicate::slt, src, nIter));
      if (graph.units[u].kind == UnitKind::Load) {
        for (const Ring &r : rings)
          if (r.unit == u) {
            Value issue = inRange;
            if (consumer) // one thread of the consumers issues its loads
              issue = e.land(inRange, e.cmp(CmpIPredicate::eq, ctid, e.c32(0)));
            e.ifThen(issue, [&] { emitProduce(e, r, src); });
          }
      } else {
        acc = e.ifYield(inRange, acc, [&]() -> SmallVector<Value> {
          return {emitDot(e, src, acc, ctid, cwg)};
        })[0];
      }
    }
    SmallVector<Value> yields;
    if (acc)
      yields.push_back(acc);
    scf::YieldOp::create(e.b, e.loc, yields);
  }
  if (consumer) {
    e.wgmmaWait(0);
    emitEpilogue(e, kloop.getResult(0), ctid, cwg);
  }
}

void KernelLowering::emitEpilogue(Emitter &e, Value acc, Value ctid, Value cwg) {
  // Accumulator layout of wgmma m64nN (per warp group): thread t holds, for
  // each 8-column block j, rows 16*warp + lane/4 (+8), columns 8j + 2*(lane%4)
  // (+1). Convert to bf16 pairs and write the row-major staging tile.
  int64_t n = dot.getN();
  auto tileShape = cast<RankedTensorType>(trunc.getType()).getShape();
  int64_t rowElems = tileShape.back();
  Value lane = e.remu(ctid, e.c32(32));
  Value warp = e.remu(e.divu(ctid, e.c32(32)), e.c32(4));
  Value row0 = e.add(e.add(e.mul(cwg, e.c32(64)), e.mul(warp, e.c32(16))),
                     e.divu(lane, e.c32(4)));
  Value col0 = e.mul(e.remu(lane, e.c32(4)), e.c32(2));
  // The staging tile reuses the rings: every consumer warp group must be
  // past its last wgmma (all read their operands) before any writes it.
  e.namedBarrier(1, 128 * consumerWGs);
  auto vec2f = VectorType::get({2}, e.f32());
  auto vec2bf = VectorType::get({2}, e.b.getBF16Type());
  for (int64_t j = 0; j < n / 8; ++j)
    for (int64_t h = 0; h < 2; ++h) {
      Value v0 = LLVM::ExtractValueOp::create(e.b, e.loc, acc, j * 4 + h * 2);
      Value v1 = LLVM::ExtractValueOp::create(e.b, e.loc, acc, j * 4 + h * 2 + 1);
      Value pair = LLVM::UndefOp::create(e.b, e.loc, vec2f);
      pair = LLVM::InsertElementOp::create(e.b, e.loc, pair, v0, e.c32(0));
      pair = LLVM::InsertElementOp::create(e.b, e.loc, pair, v1, e.c32(1));
      Value bf = LLVM::FPTruncOp::create(e.b, e.loc, vec2bf, pair);
      Value bits = LLVM::BitcastOp::create(e.b, e.loc, e.i32(), bf);
      Value row = e.add(row0, e.c32(h * 8));
      Value col = e.add(col0, e.c32(j * 8));
      Value offset = e.add(e.c32(stagingOffset),
                           e.mul(e.add(e.mul(row, e.c32(rowElems)), col), e.c32(2)));
      LLVM::StoreOp::create(e.b, e.loc, bits, e.smemPtr(offset));
    }
  e.fenceProxyAsyncShared();
  e.namedBarrier(1, 128 * consumerWGs);
  e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] {
    IRMapping map = base;
    SmallVector<Value> coords;
    for (Value c : llvm::reverse(store.getCoords()))
      coords.push_back(lowerIndex(e, c, map));
    auto arg = cast<BlockArgument>(store.getDesc());
    e.tmaStore(fn.getArgument(arg.getArgNumber()), e.smemPtr(stagingOffset), coords);
    e.tmaStoreCommitAndWait();
  });
}

void KernelLowering::emit() {
  OpBuilder b(kernel.getContext());
  Location loc = kernel.getLoc();
  Emitter e(b, loc);
  frame.emplace(b, kernel, threads, smemBytes);
  fn = frame->fn;
  base = frame->base;

  // Trip count of the pipelined loop.
  trip = frame->tripCount(e, loop);
  lb = trip.lb;
  step = trip.step;
  nIter = trip.count;

  Value tid = e.threadIdx();
  e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] {
    for (const Ring &r : rings)
      for (int64_t c = 0; c < r.copies; ++c) {
        e.mbarrierInit(e.smemPtr(r.fullBar + 8 * c), 1);
        e.mbarrierInit(e.smemPtr(r.emptyBar + 8 * c), 4 * consumerWGs);
      }
  });
  e.syncThreads();

  if (producerGroup >= 0) {
    Value isProducer = e.cmp(CmpIPredicate::ult, tid, e.c32(128));
    auto branch = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      e.setMaxRegisters(producerRegs, /*increase=*/false);
      e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] {
        emitGroupLoop(e, producerGroup, tid, Value());
      });
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      e.setMaxRegisters(consumerRegs, /*increase=*/true);
      Value ctid = e.sub(tid, e.c32(128));
      emitGroupLoop(e, consumerGroup, ctid, e.divu(ctid, e.c32(128)));
    }
  } else {
    emitGroupLoop(e, consumerGroup, tid, e.divu(tid, e.c32(128)));
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());
}

struct TileLowerToNVVMPass
    : stagecraft::impl::TileLowerToNVVMBase<TileLowerToNVVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels = getKernels(module);
    if (kernels.empty()) {
      module.emitError("tile-lower-to-nvvm: no tile kernel in the module");
      return signalPassFailure();
    }
    for (func::FuncOp kernel : kernels) {
      if (isAttentionKernel(kernel)) {
        if (failed(lowerAttentionKernel(kernel)))
          return signalPassFailure();
        continue;
      }
      KernelLowering lowering(kernel);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
    for (func::FuncOp kernel : kernels)
      kernel.erase();
  }
};
} // namespace
