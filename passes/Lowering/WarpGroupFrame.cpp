//===- WarpGroupFrame.cpp - the kernel around the loop --------------------===//
#include "passes/Lowering/WarpGroupFrame.h"
#include "passes/Lowering/TimelineProbes.h"

#include "core/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

static constexpr const char *kSmemSymbol = "stagecraft_dynamic_smem";
static constexpr int64_t kMaxDynamicSmem = 232448; // 227 KiB per block on sm_90
static constexpr int64_t kBarrierArea = 1024;

static int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

LogicalResult stagecraft::lowering::layoutSharedMemory(KernelPlan &p) {
  // Barriers: full and empty per ring buffer (the tiles' rings too), one
  // for the resident tiles.
  int64_t barrier = 0;
  for (std::vector<Ring> *rings : {&p.rings, &p.tileRings})
    for (Ring &r : *rings) {
      r.fullBar = barrier;
      r.emptyBar = barrier + 8 * r.copies;
      barrier += 16 * r.copies;
    }
  p.residentBar = barrier;
  p.lateResidentBar = barrier + 8;
  barrier += 16;
  if (barrier > kBarrierArea)
    return p.kernel.emitError("tile-lower-to-nvvm: too many ring buffers (")
           << (barrier - 16) / 16 << "); the barrier area holds 62";
  // Residents loaded at the start that the epilogue reads come first: the
  // staging tiles of the stores, and the residents loaded after the loop,
  // may overlay everything after them once the loop is done.
  auto readAfterLoop = [&](const Resident &r) {
    return llvm::any_of(const_cast<Resident &>(r).load->getUsers(), [&](Operation *u) {
      return u->getBlock() == p.loop->getBlock() && p.loop->isBeforeInBlock(u);
    });
  };
  int64_t offset = kBarrierArea;
  for (bool late : {true, false})
    for (Resident &r : p.residents)
      if (!r.afterLoop && readAfterLoop(r) == late) {
        r.offset = offset;
        offset += alignTo(r.tile.bytes, 1024);
      }
  int64_t stagingBase = kBarrierArea;
  for (const Resident &r : p.residents)
    if (!r.afterLoop && readAfterLoop(r))
      stagingBase = std::max(stagingBase, r.offset + alignTo(r.tile.bytes, 1024));
  // Then those loaded after the loop (never in a persistent kernel or one
  // that stores in the loop, isEpilogueOnlyLoad): the staging after them.
  for (Resident &r : p.residents)
    if (r.afterLoop) {
      r.offset = stagingBase;
      stagingBase += alignTo(r.tile.bytes, 1024);
    }
  for (std::vector<Ring> *rings : {&p.tileRings, &p.rings})
    for (Ring &r : *rings) {
      r.stride = alignTo(r.tile.bytes, 1024);
      r.offset = offset;
      offset += r.copies * r.stride;
    }
  // A persistent kernel's producer fills the next tile's rings while the
  // consumers store this one's: the staging slots get their own place.
  // So do stores in the loop, which run while the rings are in use.
  if (p.tileLoop || !p.loopStores.empty())
    stagingBase = offset;
  // Stores go out a panel at a time (the load panels: 128-byte swizzled
  // rows) through two staging slots.
  int64_t slot = 0;
  for (StoreOp s : llvm::concat<StoreOp>(p.stores, p.loopStores)) {
    SmemTile t = SmemTile::of(s.getDesc().getType());
    slot = std::max(slot, t.rows > 1 || t.panels > 1 ? t.panelBytes : t.bytes);
  }
  p.stagingSlotBytes = alignTo(slot, 1024);
  p.stagingBase = stagingBase;
  p.smemBytes = std::max(offset, stagingBase + 2 * p.teams * p.stagingSlotBytes);
  if (p.exchangeBytes) {
    p.exchangeOffset = alignTo(p.smemBytes, 128);
    p.smemBytes = p.exchangeOffset + p.exchangeBytes;
  }
  if (p.smemBytes > kMaxDynamicSmem)
    return p.kernel.emitError("tile-lower-to-nvvm: the kernel needs ")
           << p.smemBytes << " bytes of shared memory; an H100 block has " << kMaxDynamicSmem;
  return success();
}

WarpGroupFrame::WarpGroupFrame(OpBuilder &b, const KernelPlan &plan) : plan(plan) {
  func::FuncOp kernel = plan.kernel;
  MLIRContext *ctx = kernel.getContext();
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  b.setInsertionPoint(kernel);
  Location loc = kernel.getLoc();
  Emitter e(b, loc);
  if (!module.lookupSymbol(kSmemSymbol))
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External, kSmemSymbol,
                           Attribute(), /*alignment=*/1024, /*addrSpace=*/3);

  SmallVector<Type> argTypes;
  for (Type t : kernel.getArgumentTypes())
    argTypes.push_back(isa<DescType>(t) ? e.ptr() : t.isIndex() ? e.i32() : t);
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  fn = LLVM::LLVMFuncOp::create(b, loc, kernel.getSymName(), fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
              b.getDenseI32ArrayAttr({static_cast<int32_t>(plan.threads), 1, 1}));
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  fn->setAttr("stagecraft.dynamic_smem", b.getI64IntegerAttr(plan.smemBytes));
  fn->setAttr("stagecraft.block", b.getI64IntegerAttr(plan.threads));
  // `.reqnctapercluster C, 1, 1`; the manifest's cluster and the shared
  // loads' tensor-map boxes come from the same legality report (Manifest.cpp).
  if (plan.cluster > 1)
    fn->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                b.getDenseI32ArrayAttr({static_cast<int32_t>(plan.cluster), 1, 1}));
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
  sources.programId = [](Emitter &e, int dim) { return e.blockIdx(dim); };
  sources.numPrograms = [](Emitter &e, int dim) { return e.gridDim(dim); };
  sources.fast = true;
}

Value WarpGroupFrame::scalar(Emitter &e, Value v, Value src) {
  // Lowered afresh at each use (memoized within it only): a use may sit in
  // a region (a predicated unit, one thread's branch) that the next use does
  // not see. CSE merges the copies that do dominate each other.
  IRMapping map = scope;
  if (src)
    map.map(plan.loop.getInductionVar(), e.add(trip.lb, e.mul(src, trip.step)));
  return lowerScalar(e, v, map, sources);
}

/// Whether the pipelined loop's bounds or its loads' coordinates read a
/// tensor's contents (variable lengths, a table of blocks: `tensor.extract`
/// of a tile loaded once, a resident): every role computes those itself.
static bool readsTensors(ArrayRef<Value> roots) {
  SetVector<Operation *> slice;
  for (Value root : roots) {
    if (Operation *def = root.getDefiningOp())
      slice.insert(def);
    (void)getBackwardSlice(root, &slice);
  }
  return llvm::any_of(slice, [](Operation *op) { return isa<tensor::ExtractOp>(op); });
}

static bool tripOrCoordsReadTensors(scf::ForOp loop) {
  SmallVector<Value> roots{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  loop.getBody()->walk([&](tile::LoadOp load) { llvm::append_range(roots, load.getCoords()); });
  return readsTensors(roots);
}

/// A resident whose coordinates read another resident (a row picked by a
/// table): loaded in a second round, once the first has landed.
static bool secondRound(const Resident &r) {
  return readsTensors(llvm::to_vector(const_cast<Resident &>(r).load.getCoords()));
}

void WarpGroupFrame::computeTrip(Emitter &e) {
  // Every role computes the trip count and its loads' coordinates itself:
  // one that reads a resident waits for it to land first, the producer as
  // the consumers (an H100 hung when the producer read the lengths before
  // their load arrived and counted other trips than its consumers,
  // bench/results/varlen-h100-2026-11-28).
  if (tripOrCoordsReadTensors(plan.loop))
    waitResidents(e);
  trip.lb = scalar(e, plan.loop.getLowerBound());
  Value ub = scalar(e, plan.loop.getUpperBound());
  trip.step = scalar(e, plan.loop.getStep());
  Value span = e.sub(ub, trip.lb);
  Value n = e.divu(e.add(span, e.sub(trip.step, e.c32(1))), trip.step);
  trip.count = arith::SelectOp::create(e.b, e.loc, e.cmp(CmpIPredicate::sgt, span, e.c32(0)),
                                       n, e.c32(0));
}

void WarpGroupFrame::forEachTile(Emitter &e,
                                 const std::function<void(Value, Value)> &body, Value team) {
  if (!plan.tileLoop) {
    scope = base;
    computeTrip(e);
    nextTileExists = arith::ConstantIntOp::create(e.b, e.loc, 0, 1);
    body(e.c32(0), e.c32(0));
    return;
  }
  scf::ForOp tl = plan.tileLoop;
  scope = base;
  Value lb = scalar(e, tl.getLowerBound()), ub = scalar(e, tl.getUpperBound()),
        step = scalar(e, tl.getStep());
  SmallVector<Value> start{e.c32(0), e.c32(0)}; // a ValueRange of temporaries would dangle
  if (!probes) {
    emitTileLoop(e, lb, ub, step, start, body, team);
    return;
  }
  // The instrumented variant of a persistent kernel: the sampled CTAs run
  // their first tiles with the probes, then the rest as the plain kernel
  // (in a loop of its own, as the other CTAs run all of theirs). Every CTA
  // of a persistent kernel runs to the end, so a recording CTA's slowdown
  // over all of its tiles would be the kernel's (measured on the H100:
  // +7% to +21%).
  Value probedEnd = arith::SelectOp::create(
      e.b, e.loc, probes->isSampled(),
      arith::MinSIOp::create(e.b, e.loc, ub, e.add(lb, e.mul(step, e.c32(probes->recordedTiles())))),
      lb);
  ValueRange after = emitTileLoop(e, lb, probedEnd, step, start, body, team);
  TimelineProbes *saved = probes;
  probes = nullptr;
  emitTileLoop(e, probedEnd, ub, step, after, body, team);
  probes = saved;
}

ValueRange WarpGroupFrame::emitTileLoop(Emitter &e, Value lb, Value ub, Value step,
                                        ValueRange start,
                                        const std::function<void(Value, Value)> &body,
                                        Value team) {
  scf::ForOp tl = plan.tileLoop;
  auto loop = scf::ForOp::create(e.b, e.loc, lb, ub, step, start);
  OpBuilder::InsertionGuard guard(e.b);
  if (!loop.getBody()->empty())
    loop.getBody()->getTerminator()->erase();
  e.b.setInsertionPointToStart(loop.getBody());
  scope = base;
  scope.map(tl.getInductionVar(), loop.getInductionVar());
  Value baseIter = loop.getRegionIterArgs()[0], tileCount = loop.getRegionIterArgs()[1];
  computeTrip(e);
  Value count = trip.count; // the body may compute more
  // Whether the block has another tile: against the whole tile loop's end.
  Value end = scalar(e, tl.getUpperBound());
  nextTileExists = e.cmp(CmpIPredicate::slt, e.add(loop.getInductionVar(), step), end);
  if (team && plan.teams > 1) {
    // Ping-pong: every team counts every tile's iterations (the rings run
    // across all of them) and works on every `teams`-th tile.
    Value mine = e.cmp(CmpIPredicate::eq, e.remu(tileCount, e.c32(plan.teams)), team);
    e.ifThen(mine, [&] { body(baseIter, tileCount); });
  } else {
    body(baseIter, tileCount);
  }
  scf::YieldOp::create(e.b, e.loc,
                       ValueRange{e.add(baseIter, count), e.add(tileCount, e.c32(1))});
  return loop.getResults();
}

void WarpGroupFrame::emitSetup(Emitter &e) {
  scope = base;
  Value tid = e.threadIdx();
  e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] {
    // Every tensor map's first copy would otherwise wait for the descriptor
    // to be fetched from parameter memory: fetched here, beside the barriers'
    // init and the CTA's first sync (as CUTLASS's sm90 kernels do).
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      if (fn.getArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName()))
        e.prefetchTensorMap(arg(i));
    for (const std::vector<Ring> *rings : {&plan.rings, &plan.tileRings})
      for (const Ring &r : *rings)
        for (int64_t c = 0; c < r.copies; ++c) {
          e.mbarrierInit(e.smemPtr(r.fullBar + 8 * c), 1);
          // A shared ring's slot is freed by the consumers of every CTA of
          // the cluster (each CTA's part lands in all of them).
          e.mbarrierInit(e.smemPtr(r.emptyBar + 8 * c),
                         (r.emptyArrivals ? r.emptyArrivals : 4 * plan.geom.wgs) * r.multicast);
        }
    if (plan.hasResidents(false))
      e.mbarrierInit(e.smemPtr(plan.residentBar), 1);
    if (plan.hasResidents(true))
      e.mbarrierInit(e.smemPtr(plan.lateResidentBar), 1);
    if (sharesRings())
      e.fenceMbarrierInit();
  });
  // With shared rings, no CTA may load into, or arrive on, another's
  // barriers before that one initialized them.
  if (sharesRings())
    e.clusterSync();
  else
    e.syncThreads();
  if (plan.hasResidents(false))
    e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] {
      loadResidents(e, false, false);
      // Those whose coordinates read the first round's tiles: a second
      // phase of the same barrier, once the first has completed (read
      // before, the table was whatever shared memory held: an H200 ran the
      // gathered residual of bench/unseen/sweep-2026-11-28d on garbage rows).
      if (residentRounds() == 2) {
        e.mbarrierWait(e.smemPtr(plan.residentBar), e.c32(0));
        loadResidents(e, false, true);
      }
    });
}

int WarpGroupFrame::residentRounds() const {
  return llvm::any_of(plan.residents,
                      [](const Resident &r) { return !r.afterLoop && secondRound(r); })
             ? 2
             : 1;
}

void WarpGroupFrame::loadResidents(Emitter &e, bool afterLoop, bool second) {
  auto inRound = [&](const Resident &r) {
    return r.afterLoop == afterLoop && (afterLoop || secondRound(r) == second);
  };
  int64_t bytes = 0;
  for (const Resident &r : plan.residents)
    if (inRound(r))
      bytes += r.tile.bytes;
  Value bar = e.smemPtr(afterLoop ? plan.lateResidentBar : plan.residentBar);
  e.mbarrierArriveExpectTx(bar, bytes);
  for (const Resident &r : plan.residents) {
    if (!inRound(r))
      continue;
    IRMapping map = base; // index math local to this region
    SmallVector<Value> coords;
    for (Value c : llvm::reverse(const_cast<Resident &>(r).load.getCoords()))
      coords.push_back(lowerScalar(e, c, map, sources));
    e.tmaLoadPanels(e.smemPtr(r.offset), arg(r.descArg), coords, bar, r.tile.panels,
                    r.tile.panelCols, r.tile.panelBytes);
  }
}

void WarpGroupFrame::waitResidents(Emitter &e) {
  // The last round's phase (phases complete in order; waiting for an
  // earlier parity after a later phase completed would wait for ever).
  if (plan.hasResidents(false))
    e.mbarrierWait(e.smemPtr(plan.residentBar), e.c32(residentRounds() - 1));
}

void WarpGroupFrame::loadResidentsAfterLoop(Emitter &e, Value ctid,
                                            const std::function<void()> &consumersDone) {
  if (!plan.hasResidents(true))
    return;
  // They land where the rings were: every consumer must be past its last
  // read of them (its wgmma retired, its register reads done) first.
  consumersDone();
  e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] { loadResidents(e, true, false); });
  e.mbarrierWait(e.smemPtr(plan.lateResidentBar), e.c32(0));
}

Value WarpGroupFrame::slotOffset(Emitter &e, const Ring &r, Value g) {
  Value slot = e.remu(g, e.c32(r.copies));
  return e.add(e.c32(r.offset), e.mul(slot, e.c32(r.stride)));
}

void WarpGroupFrame::produce(Emitter &e, const Ring &ring, Value g, Value src) {
  Value copies = e.c32(ring.copies);
  Value slot = e.remu(g, copies);
  Value round = e.divu(g, copies);
  Value slot8 = e.mul(slot, e.c32(8));
  e.ifThen(e.cmp(CmpIPredicate::ugt, round, e.c32(0)), [&] {
    Value parity = e.andi(e.sub(round, e.c32(1)), e.c32(1));
    e.mbarrierWait(e.smemPtr(e.add(e.c32(ring.emptyBar), slot8)), parity);
  });
  LoadOp load = ring.load;
  Value full = e.smemPtr(e.add(e.c32(ring.fullBar), slot8));
  // The whole tile lands here, the parts of a shared ring from every CTA.
  e.mbarrierArriveExpectTx(full, ring.tile.bytes);
  SmallVector<Value> coords;
  for (Value c : llvm::reverse(load.getCoords()))
    coords.push_back(scalar(e, c, src));
  Value dst = e.smemPtr(slotOffset(e, ring, g));
  if (ring.multicast == 1) {
    e.tmaLoadPanels(dst, arg(ring.descArg), coords, full, ring.tile.panels,
                    ring.tile.panelCols, ring.tile.panelBytes);
    return;
  }
  // A shared ring: this CTA loads rows [rank * part, (rank + 1) * part) of
  // every panel (the tensor map's box is the part) into every CTA's slot.
  int64_t part = ring.tile.rows / ring.multicast;
  Value rank = clusterRank(e);
  coords[1] = e.add(coords[1], e.mul(rank, e.c32(part)));
  Value at = LLVM::GEPOp::create(
      e.b, e.loc, e.ptr(3), e.b.getI8Type(), dst,
      ArrayRef<LLVM::GEPArg>{e.mul(rank, e.c32(part * ring.tile.panelCols * ring.tile.elemBytes))});
  Value mask = arith::ConstantIntOp::create(e.b, e.loc, (1 << ring.multicast) - 1, 16);
  e.tmaLoadPanels(at, arg(ring.descArg), coords, full, ring.tile.panels, ring.tile.panelCols,
                  ring.tile.panelBytes, mask);
}

Value WarpGroupFrame::clusterRank(Emitter &e) {
  return e.remu(e.blockIdx(0), e.c32(plan.cluster));
}

bool WarpGroupFrame::sharesRings() const {
  return llvm::any_of(plan.rings, [](const Ring &r) { return r.multicast > 1; });
}

void WarpGroupFrame::emitTeardown(Emitter &e) {
  // The other CTAs' consumers may still free slots of this one's shared
  // rings (remote arrivals) after its own work is done: no CTA of the
  // cluster exits before all are done.
  if (sharesRings())
    e.clusterSync();
}

void WarpGroupFrame::waitFull(Emitter &e, const Ring &r, Value g) {
  Value slot = e.remu(g, e.c32(r.copies));
  Value parity = e.andi(e.divu(g, e.c32(r.copies)), e.c32(1));
  e.mbarrierWait(e.smemPtr(e.add(e.c32(r.fullBar), e.mul(slot, e.c32(8)))), parity);
}

void WarpGroupFrame::release(Emitter &e, const Ring &r, Value g, Value valid, Value ctid) {
  Value lane0 = e.cmp(CmpIPredicate::eq, e.remu(ctid, e.c32(32)), e.c32(0));
  e.ifThen(e.land(valid, lane0), [&] {
    Value slot = e.remu(g, e.c32(r.copies));
    Value bar = e.smemPtr(e.add(e.c32(r.emptyBar), e.mul(slot, e.c32(8))));
    if (r.multicast == 1) {
      e.mbarrierArrive(bar);
      return;
    }
    // A shared ring: every CTA's producer writes into this slot.
    for (int64_t q = 0; q < r.multicast; ++q)
      e.mbarrierArriveCluster(bar, e.c32(q));
  });
}

void WarpGroupFrame::lowerLoopInvariantCoords(Emitter &e) {
  // Lowered at each use instead (WarpGroupFrame::scalar), a coordinate sits
  // in its ring's predicated branch of every iteration, where LLVM may not
  // hoist a division (not speculatable), and ptxas then decides per
  // compile whether the tile decode runs on the uniform datapath: the
  // ping-pong GEMM's producer ran it, two divisions per K step, on vector
  // registers in one compile and lost 8% of the kernel's speed (H100).
  Operation *loop = plan.loop.getOperation();
  DenseMap<Value, bool> known;
  std::function<bool(Value)> invariant = [&](Value v) -> bool {
    if (scope.contains(v))
      return true;
    auto it = known.find(v);
    if (it != known.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    bool ok = def && !loop->isAncestor(def) && isMemoryEffectFree(def) &&
              def->getNumRegions() == 0 && v.getType().isIntOrIndexOrFloat() &&
              llvm::all_of(def->getOperands(), invariant);
    known[v] = ok;
    return ok;
  };
  for (const Ring &r : plan.rings)
    for (Value c : r.load.getCoords())
      if (!scope.contains(c) && invariant(c))
        lowerScalar(e, c, scope, sources);
}

void WarpGroupFrame::emitProducerLoop(Emitter &e) {
  // The producer walks (tile, iteration) as one stream: the next tile's
  // loads start as soon as ring slots free up, while the consumers finish
  // the current tile.
  forEachTile(e, [&](Value baseIter, Value tileCount) {
    // The coordinates lowered here are the tile body's: what follows the
    // tile loop must not see them.
    IRMapping tileScope = scope;
    lowerLoopInvariantCoords(e);
    for (const Ring &r : plan.tileRings)
      if (!r.afterLoop)
        produce(e, r, tileCount, Value());
    Value end = e.add(trip.count, e.c32(plan.pMax - plan.pMin));
    auto kloop = scf::ForOp::create(e.b, e.loc, e.c32(0), end, e.c32(1));
    {
      OpBuilder::InsertionGuard guard(e.b);
      e.b.setInsertionPoint(kloop.getBody()->getTerminator());
      Value kit = kloop.getInductionVar();
      for (unsigned u : plan.loadUnits) {
        int64_t off = effectiveSchedule(plan.graph, plan.graph.initialSchedule, u).stage - plan.pMin;
        Value src = e.sub(kit, e.c32(off));
        Value inRange = e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                               e.cmp(CmpIPredicate::slt, src, trip.count));
        if (probes) // the unit's start (TimelineProbes.h)
          probes->mark(e, u, e.add(baseIter, src), inRange);
        for (const Ring &r : plan.rings)
          if (r.unit == u)
            e.ifThen(inRange, [&] { produce(e, r, e.add(baseIter, src), src); });
      }
    }
    // The tiles only the epilogue reads, after the ring loads: their one
    // buffer is free by then (the previous tile's epilogue is long done).
    for (const Ring &r : plan.tileRings)
      if (r.afterLoop)
        produce(e, r, tileCount, Value());
    // The tile's last load ends with its loop: what the producer does until
    // the next tile's first load unit (that tile's own loads) is no unit's.
    if (probes)
      probes->end(e);
    scope = std::move(tileScope);
  });
}

void WarpGroupFrame::emitInstrumentedOrPlain(Emitter &e, const std::function<void()> &body) {
  // A persistent kernel's sampled CTAs switch after their first tiles
  // (forEachTile).
  if (!probes || plan.tileLoop) {
    body();
    return;
  }
  auto branch = scf::IfOp::create(e.b, e.loc, probes->isSampled(), /*withElse=*/true);
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(&branch.getThenRegion().front());
  body();
  e.b.setInsertionPointToStart(&branch.getElseRegion().front());
  TimelineProbes *saved = probes;
  probes = nullptr;
  body();
  probes = saved;
}

void WarpGroupFrame::emitRoles(Emitter &e,
                               const std::function<void(Emitter &, Value)> &consumer) {
  Value tid = e.threadIdx();
  if (plan.producerGroup < 0) {
    consumer(e, tid);
    return;
  }
  Value isProducer = e.cmp(CmpIPredicate::ult, tid, e.c32(128));
  auto branch = scf::IfOp::create(e.b, e.loc, isProducer, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(&branch.getThenRegion().front());
  e.setMaxRegisters(plan.producerRegs, /*increase=*/false);
  e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] {
    emitInstrumentedOrPlain(e, [&] {
      if (probes)
        probes->enter(e, Value(), tid);
      emitProducerLoop(e);
      if (probes)
        probes->finish(e);
    });
  });
  e.b.setInsertionPointToStart(&branch.getElseRegion().front());
  e.setMaxRegisters(plan.consumerRegs, /*increase=*/true);
  consumer(e, e.sub(tid, e.c32(128)));
}
