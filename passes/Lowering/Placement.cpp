//===- Placement.cpp - where every value of a tile kernel lives -----------===//
#include "passes/Lowering/Placement.h"
#include "passes/Lowering/LocalRings.h"
#include "passes/Lowering/patterns/Patterns.h"

#include "core/Dialect/Tile/IR/Cluster.h"
#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;

SmemTile SmemTile::of(DescType desc) {
  SmemTile t;
  ArrayRef<int64_t> shape = desc.getTileShape();
  t.rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
  t.cols = shape.back();
  t.panelCols = desc.getLoadBoxShape().back();
  t.panels = (t.cols + t.panelCols - 1) / t.panelCols;
  t.elemBytes = desc.getElementBytes();
  t.panelBytes = t.rows * t.panelCols * t.elemBytes;
  t.bytes = desc.getBoxBytes();
  t.swizzle = desc.getLoadSwizzleBytes();
  t.elemType = desc.getElementType();
  return t;
}

const Ring *KernelPlan::ringOf(Value v) const {
  for (const Ring &r : rings)
    if (const_cast<Ring &>(r).load.getResult() == v)
      return &r;
  return nullptr;
}

const Ring *KernelPlan::tileRingOf(Value v) const {
  for (const Ring &r : tileRings)
    if (r.load.getResult() == v)
      return &r;
  return nullptr;
}

const Resident *KernelPlan::residentOf(Value v) const {
  for (const Resident &r : residents)
    if (const_cast<Resident &>(r).load.getResult() == v)
      return &r;
  return nullptr;
}

const LocalRing *KernelPlan::localOf(Value v) const {
  for (const LocalRing &r : locals)
    if (r.op.getResult() == v)
      return &r;
  return nullptr;
}

int KernelPlan::bodyIndexOf(Operation *op) const {
  auto it = unitOfOp.find(op);
  return it == unitOfOp.end() ? -1 : it->second;
}

std::pair<Value, int64_t> KernelPlan::resolve(Value v, const BodyUnit &user) const {
  int64_t back = 0;
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0) {
      v = loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1);
      back = 1;
    }
  Operation *def = v.getDefiningOp();
  int d = def ? bodyIndexOf(def) : -1;
  if (d < 0)
    return {v, -1};
  return {v, back + user.off - body[d].off};
}

Layout KernelPlan::registerLayout(Value v) const { return layouts.lookup(v); }

namespace {

/// An op no pattern lowers, wherever it is (in the loop or outside it).
constexpr const char *kNoLowering =
    "has no lowering in either the kernel or its reference (the ops lowered on tiles are "
    "listed in docs/ir-reference.md, \"Upstream ops in the loop IR\")";


InFlightDiagnostic refuse(Operation *op, const Twine &why) {
  return op->emitError("tile-lower-to-nvvm: ") << why;
}

bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }
RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// A load's or store's innermost coordinate TMA cannot start a copy at, by
/// any sizes (misalignedInnermostCoordinate; the sizes are checked by the
/// manifest): a 4-element i32 window at element `pid` raised an illegal
/// instruction on an H200 (bench/unseen/sweep-2026-11-28d, x02).
LogicalResult checkInnermostCoordinate(Operation *op, tile::DescType desc, ValueRange coords) {
  std::string why = tile::misalignedInnermostCoordinate(desc, coords, nullptr, isa<StoreOp>(op));
  if (why.empty())
    return success();
  return refuse(op, "'") << op->getName() << "': " << why;
}

/// The tiles `values` read through tensor.extract (index math that reads a
/// table loaded once).
SmallVector<LoadOp> tablesRead(ValueRange values) {
  SetVector<Operation *> slice;
  for (Value v : values) {
    if (Operation *def = v.getDefiningOp())
      slice.insert(def);
    (void)getBackwardSlice(v, &slice);
  }
  SmallVector<LoadOp> tables;
  for (Operation *op : slice)
    if (auto ex = dyn_cast<tensor::ExtractOp>(op))
      if (auto load = ex.getTensor().getDefiningOp<LoadOp>())
        tables.push_back(load);
  return tables;
}

class Placer {
public:
  explicit Placer(KernelPlan &p) : p(p) {}
  LogicalResult run();

private:
  LogicalResult prepare();
  LogicalResult collectBody();
  LogicalResult collectLoads();
  LogicalResult planClusters();
  LogicalResult checkOutside();
  LogicalResult checkReadAfterWrite();
  LogicalResult orientVectors();
  LogicalResult inferLayouts();
  LogicalResult inferLayout(Operation *op);
  LogicalResult checkDot(DotOp d);
  LogicalResult checkStoreTarget(StoreOp s);
  LogicalResult checkLoopStore(StoreOp s);
  LogicalResult checkShapes();
  Layout natural(Value v) const;

  KernelPlan &p;
  /// 1-d tensors: true when they run along the columns.
  DenseMap<Value, bool> alongCols;
};

LogicalResult Placer::run() {
  WalkResult aligned = p.kernel.walk([&](Operation *op) {
    if (auto l = dyn_cast<LoadOp>(op))
      return failed(checkInnermostCoordinate(op, l.getDesc().getType(), l.getCoords()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (auto s = dyn_cast<StoreOp>(op))
      return failed(checkInnermostCoordinate(op, s.getDesc().getType(), s.getCoords()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    return WalkResult::advance();
  });
  if (aligned.wasInterrupted())
    return failure();
  if (failed(prepare()) || failed(collectBody()) || failed(collectLoads()) ||
      failed(planClusters()) || failed(placeLocalRings(p)) || failed(checkOutside()) ||
      failed(checkReadAfterWrite()) || failed(orientVectors()) ||
      failed(inferLayouts()) || failed(checkShapes()))
    return failure();
  if (p.teams > 1 && !p.loopStores.empty())
    return refuse(p.loopStores.front(), "a tile.store in the loop of ping-pong consumers is not "
                                        "lowered: choose cooperative, or store after the loop");
  if (p.teams > 1 && !p.locals.empty())
    return refuse(p.loop, "ping-pong consumers with tiles upcast into shared memory are not "
                          "lowered yet: choose cooperative");
  // A reduction over rows ends in shared memory: a row of partials per
  // consumer warp and the final row (patterns/ReduceBroadcast.cpp).
  WalkResult rowsReduced = p.kernel.walk([&](ReduceOp r) {
    if (r.getDim() != 0)
      return WalkResult::advance();
    if (p.teams > 1) {
      refuse(r, "a reduction over rows (dim = 0) in ping-pong consumers is not lowered: "
                "choose cooperative");
      return WalkResult::interrupt();
    }
    int64_t cols = tensorType(r.getInput()).getDimSize(1);
    p.exchangeBytes = std::max(p.exchangeBytes, (4 * p.geom.wgs + 1) * cols * 4);
    return WalkResult::advance();
  });
  if (rowsReduced.wasInterrupted())
    return failure();
  return success();
}

LogicalResult Placer::prepare() {
  // A kernel that stores nothing computes nothing anyone reads: the
  // canonicalizer has removed its loop by now, so say that, not "no loop to
  // pipeline" (the compile fuzzer's loop without a store).
  bool stores = false;
  p.kernel.walk([&](StoreOp) { stores = true; });
  if (!stores)
    return p.kernel.emitError("tile-lower-to-nvvm: the kernel stores nothing (no tile.store): "
                              "what it computes is never written, and its loop was removed as "
                              "dead code");
  FailureOr<scf::ForOp> loop = findPipelinedLoop(p.kernel);
  if (failed(loop))
    return failure();
  FailureOr<LoopGraph> graph = buildLoopGraph(p.kernel);
  if (failed(graph))
    return failure();
  if (failed(writeSchedule(p.kernel, graph->initialSchedule)))
    return failure();
  ScheduleReport report = checkSchedule(
      *graph, graph->initialSchedule,
      p.target.blackwell() ? TargetLimits::sm100a() : TargetLimits{});
  if (!report.legal()) {
    for (const Violation &v : report.violations)
      p.kernel.emitError("cannot compile an illegal schedule (")
          << ruleName(v.rule) << "): " << v.message;
    return failure();
  }
  // A persistent kernel: the pipelined loop inside one tile loop at the
  // kernel's top level.
  if (auto outer = dyn_cast<scf::ForOp>((*loop)->getParentOp())) {
    if (outer->getParentOp() != p.kernel.getOperation())
      return outer.emitError("tile-lower-to-nvvm: the tile loop around the pipelined loop "
                             "must be at the top level of the kernel (one level of nesting)");
    if (outer.getNumRegionIterArgs() != 0)
      return outer.emitError("tile-lower-to-nvvm: a loop around the pipelined loop is a "
                             "persistent kernel's tile loop, whose tiles are independent: it "
                             "carries no values (no iter_args); sum passes over K inside the "
                             "pipelined loop, or in one K loop over the whole range");
    if (p.target.blackwell())
      return outer.emitError("tile-lower-to-nvvm: persistent kernels are lowered for sm_90a "
                             "only (the sm_100a path keeps one tile per block)");
    p.tileLoop = outer;
  } else if ((*loop)->getParentOp() != p.kernel.getOperation()) {
    return loop->emitError("tile-lower-to-nvvm: the pipelined loop must be at the top level "
                           "of the kernel or directly in its tile loop");
  }
  p.loop = *loop;
  p.graph = std::move(*graph);
  p.report = std::move(report);
  return success();
}

LogicalResult Placer::collectBody() {
  // Units in body order, split into the consumer group (everything but
  // loads must sit in one group) and a producer group of loads.
  std::map<unsigned, SmallVector<Operation *>> opsOf;
  for (Operation &op : p.loop.getBody()->without_terminator()) {
    // An element of a tile loaded once (a resident): every warp group reads
    // it from shared memory where it is used (a page's index in a load's
    // coordinates, a block's scale), after waiting for the residents.
    if (auto ex = dyn_cast<tensor::ExtractOp>(op)) {
      auto load = ex.getTensor().getDefiningOp<LoadOp>();
      if (!load || load->getBlock() != &p.kernel.getBody().front())
        return refuse(&op, "tensor.extract in the pipelined loop must read a tile loaded "
                           "once per kernel, before the loop and any tile loop (a table of "
                           "pages, say)");
      continue;
    }
    if (!isScheduledOp(&op)) {
      if (op.getNumRegions() == 0 && op.getNumResults() == 1 && !isTensor(op.getResult(0)))
        continue; // scalar math, lowered where used
      if (isa<arith::ConstantOp>(op))
        continue;
      return refuse(&op, "'") << op.getName() << "' in the pipelined loop is not lowered";
    }
    int u = p.graph.findUnit(getSchedule(&op).getName());
    if (u < 0)
      return refuse(&op, "unknown unit");
    opsOf[u].push_back(&op);
  }
  const Schedule &sched = p.graph.initialSchedule;
  p.consumerGroup = -1;
  for (auto &[u, ops] : opsOf)
    if (p.graph.units[u].kind != UnitKind::Load) {
      int64_t grp = effectiveSchedule(p.graph, sched, u).group;
      if (p.consumerGroup >= 0 && grp != p.consumerGroup)
        return refuse(ops.front(), "unit '")
               << p.graph.units[u].name << "' is in warp group " << grp
               << " but every op other than loads must run in one warp group (here "
               << p.consumerGroup << "): register values do not cross warp groups";
      p.consumerGroup = grp;
    }
  if (p.consumerGroup < 0)
    return refuse(p.loop, "the pipelined loop only loads: nothing reads its tiles");
  p.cMin = p.pMin = INT64_MAX;
  p.cMax = p.pMax = INT64_MIN;
  for (unsigned u : p.report.bodyOrder) {
    OpSchedule s = effectiveSchedule(p.graph, sched, u);
    bool isLoad = p.graph.units[u].kind == UnitKind::Load;
    if (s.group != p.consumerGroup) {
      if (!isLoad)
        continue;
      if (p.producerGroup >= 0 && p.producerGroup != s.group)
        return refuse(opsOf[u].front(), "loads outside the consumer warp group must share "
                                        "one producer group");
      p.producerGroup = s.group;
      p.loadUnits.push_back(u);
      p.pMin = std::min(p.pMin, s.stage);
      p.pMax = std::max(p.pMax, s.stage);
      continue;
    }
    p.cMin = std::min(p.cMin, s.stage);
    p.cMax = std::max(p.cMax, s.stage);
    BodyUnit b;
    b.unit = u;
    b.isLoad = isLoad;
    b.ops = opsOf[u];
    p.body.push_back(b);
  }
  for (BodyUnit &b : p.body) {
    b.off = effectiveSchedule(p.graph, sched, b.unit).stage - p.cMin;
    for (Operation *op : b.ops)
      p.unitOfOp[op] = &b - p.body.data();
  }
  for (BodyUnit &b : p.body)
    for (Operation *op : b.ops)
      if (auto d = dyn_cast<DotOp>(op)) {
        if (b.ops.size() != 1)
          return refuse(d, "a dot must be alone in its unit ('")
                 << p.graph.units[b.unit].name << "' holds " << b.ops.size() << " ops)";
        b.dot = d;
        b.dotPos = p.numDots++;
      } else if (auto st = dyn_cast<StoreOp>(op)) {
        if (failed(checkLoopStore(st)))
          return failure();
        p.loopStores.push_back(st);
      }
  int64_t wgs = p.graph.warpGroupsOf(p.consumerGroup);
  p.geom.wgs = wgs;
  p.threads = 128 * (wgs + (p.producerGroup >= 0 ? 1 : 0));
  // Legality checked the arrangement (two consumer warp groups, a producer,
  // a tile loop).
  if (p.report.consumers == Consumers::PingPong) {
    if (p.target.blackwell())
      return refuse(p.loop, "ping-pong consumers are lowered for sm_90a only");
    p.teams = wgs;
    p.geom.wgs = 1;
  }
  if (p.report.consumers == Consumers::Staggered) {
    if (p.target.blackwell())
      return refuse(p.loop, "staggered consumers are lowered for sm_90a only");
    p.staggered = true;
  }
  for (const GroupRegisters &gr : p.report.registers) {
    if (gr.group == p.consumerGroup)
      p.consumerRegs = gr.budget;
    if (gr.group == p.producerGroup)
      p.producerRegs = gr.budget;
  }
  if (p.producerGroup >= 0 && p.graph.warpGroupsOf(p.producerGroup) != 1)
    return refuse(p.loop, "the producer group (")
           << p.producerGroup << ") has " << p.graph.warpGroupsOf(p.producerGroup)
           << " warp groups in tile.warpgroups; one TMA producer warp group issues every load";
  return success();
}

LogicalResult Placer::collectLoads() {
  for (Operation &op : p.loop.getBody()->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(load.getDesc());
      if (!arg || arg.getOwner() != &p.kernel.getBody().front())
        return refuse(load, "the descriptor must be a kernel argument");
      if (load->use_empty())
        return refuse(load, "the loaded tile is never used");
      Ring r;
      r.unit = p.graph.findUnit(getSchedule(&op).getName());
      r.load = load;
      r.descArg = arg.getArgNumber();
      r.tile = SmemTile::of(load.getDesc().getType());
      for (const LoadBuffers &b : p.report.buffers)
        if (b.name == p.graph.units[r.unit].name)
          r.copies = b.copies;
      p.rings.push_back(r);
    }
  return success();
}

LogicalResult Placer::planClusters() {
  p.cluster = clusterSize(p.kernel);
  if (p.cluster == 1)
    return success();
  if (p.target.blackwell())
    return refuse(p.kernel, "clusters (tile.cluster) are lowered for sm_90a only");
  // Legality chose the shared loads (checkSchedule: cluster).
  for (Ring &r : p.rings)
    if (llvm::is_contained(p.report.sharedLoads, p.graph.units[r.unit].name))
      r.multicast = p.cluster;
  if (p.report.sharedLoads.empty())
    p.kernel.emitWarning("tile.cluster = ")
        << p.cluster << ": no load of the pipelined loop has the same box in every CTA of a "
        << "cluster (each depends on tile.cluster_rank or tile.program_id 0), so nothing is "
        << "shared";
  return success();
}

LogicalResult Placer::checkReadAfterWrite() {
  // A load of a tensor the kernel stores to is issued ahead of the stores:
  // by TMA, the producer a stage or more early, the epilogue's loads before
  // the loop ends; nothing orders it after a bulk store. A load after a store
  // of its tensor (or both in the pipelined loop, where the next
  // iterations' loads run before this one's store) read what was there
  // before (the sweep's x19b: D = 2 C read C's poison). A load before the
  // store in one pass (C read as a residual, then overwritten) is in order.
  DenseMap<Operation *, int64_t> position;
  p.kernel.walk<WalkOrder::PreOrder>([&](Operation *op) { position[op] = position.size(); });
  SmallVector<StoreOp> stores;
  p.kernel.walk([&](StoreOp s) { stores.push_back(s); });
  WalkResult r = p.kernel.walk([&](LoadOp load) {
    for (StoreOp store : stores) {
      if (store.getDesc() != load.getDesc())
        continue;
      bool bothInLoop = p.loop->isAncestor(load) && p.loop->isAncestor(store);
      if (!bothInLoop && position[store] > position[load])
        continue;
      auto arg = cast<BlockArgument>(load.getDesc());
      refuse(load, "'tile.load' reads tensor argument #")
          << arg.getArgNumber() << ", which the kernel stores "
          << (bothInLoop ? "in the same pipelined loop" : "before it") << " (the tile.store at "
          << formatLocation(store.getLoc())
          << "): loads are issued ahead of the stores (TMA, a stage or more early) and are not "
             "ordered after them, so it would read what was there before; use the value that "
             "was stored instead of loading it back";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

LogicalResult Placer::checkOutside() {
  Block &entry = p.kernel.getBody().front();
  // Ops of a block outside the pipelined loop: before it (or the tile loop)
  // and after it; `perTile` for the tile loop's body.
  auto check = [&](Block &block, bool perTile) -> LogicalResult {
    bool afterLoop = false;
    for (Operation &op : block) {
      if (&op == p.loop.getOperation() || &op == p.tileLoop.getOperation()) {
        afterLoop = true;
        continue;
      }
      if (isa<func::ReturnOp, scf::YieldOp>(op))
        continue;
      if (op.getNumRegions() != 0)
        return refuse(&op, "'") << op.getName()
                                << "' outside the pipelined loop is not lowered (one loop per "
                                   "kernel, or one pipelined loop in a tile loop)";
      if (auto load = dyn_cast<LoadOp>(op)) {
        auto arg = dyn_cast<BlockArgument>(load.getDesc());
        if (!arg || arg.getOwner() != &entry)
          return refuse(load, "the descriptor must be a kernel argument");
        SmemTile tile = SmemTile::of(load.getDesc().getType());
        if (perTile) {
          Ring r;
          r.load = load;
          r.descArg = arg.getArgNumber();
          r.tile = tile;
          r.afterLoop = isEpilogueOnlyLoad(load, p.loop);
          r.copies = r.afterLoop ? 1 : 2;
          p.tileRings.push_back(r);
        } else {
          // Loaded after the loop only where kept through it they would not
          // fit (the legality report's choice, which the timeline follows).
          bool afterLoop = p.report.epilogueLoadsAfterLoop && isEpilogueOnlyLoad(load, p.loop);
          // A tile loaded at the start whose coordinates read a table loads
          // once the table has landed (a second round, WarpGroupFrame's
          // emitSetup); a table read through another table would need a
          // third (after the loop, every round has landed).
          if (!afterLoop)
            for (LoadOp table : tablesRead(load.getCoords()))
              if (!tablesRead(table.getCoords()).empty())
                return refuse(load, "its coordinates read a tile (")
                       << formatLocation(table.getLoc())
                       << ") whose own coordinates read a tile: one level of indirection is "
                          "lowered for a tile loaded at the start (a table read by "
                          "tensor.extract), not two";
          p.residents.push_back({load, arg.getArgNumber(), tile, 0, afterLoop});
        }
        continue;
      }
      if (auto s = dyn_cast<StoreOp>(op)) {
        if (!afterLoop || (p.tileLoop && !perTile))
          return refuse(s, "a tile.store before the pipelined loop is not lowered: the staging "
                           "buffer reuses the loop's rings; store after the loop");
        if (failed(checkStoreTarget(s)))
          return failure();
        p.stores.push_back(s);
        continue;
      }
      if (auto ex = dyn_cast<tensor::ExtractOp>(op)) {
        // Read from the kernel's residents (LowerTileToNVVM's extractor).
        auto load = ex.getTensor().getDefiningOp<LoadOp>();
        if (!load || load->getBlock() != &entry)
          return refuse(&op, "tensor.extract must read a tile loaded once per kernel, outside "
                             "the pipelined loop and any tile loop (a per-tensor scale, say)");
        continue;
      }
      if (isa<DotOp>(op))
        return refuse(&op, "a tile.dot outside the pipelined loop is not lowered (only the "
                           "loop's dots run on the tensor cores)");
      if (op.getNumResults() == 1 && !isTensor(op.getResult(0))) {
        // Scalar math, lowered where used: math ops through the element-wise
        // table on f32, i32 or i1 (ScalarLowering.cpp), arith by its own
        // conversion.
        Type t = op.getResult(0).getType();
        if (isa<math::MathDialect>(op.getDialect()) &&
            (!findScalarFn(&op) || !(t.isF32() || t.isInteger(32) || t.isInteger(1))))
          return refuse(&op, "'") << op.getName() << "' on a scalar of type " << t << " "
                                  << kNoLowering;
        continue;
      }
      if (op.getNumResults() == 1 && findPattern(&op)) {
        if (p.tileLoop && !perTile && afterLoop)
          return refuse(&op, "register math after a persistent kernel's tile loop has no tile "
                             "to work on: move it into the tile loop");
        continue; // register math, checked with the layouts
      }
      if (op.getNumResults() >= 1 && (op.getNumResults() > 1 || !findPattern(&op)))
        return refuse(&op, "'") << op.getName() << "' " << kNoLowering;
      return refuse(&op, "'") << op.getName() << "' outside the pipelined loop is not lowered";
    }
    return success();
  };
  if (failed(check(entry, false)) || (p.tileLoop && failed(check(p.scope(), true))))
    return failure();
  if (p.stores.empty() && p.loopStores.empty())
    return p.kernel.emitError("tile-lower-to-nvvm: the kernel stores nothing");
  return success();
}

/// Whether each 1-d tensor runs along the rows (one value per row: a row
/// reduction) or the columns (a bias added to every row), from the ops that
/// make and read it; values tied by elementwise ops and the loop's carries
/// share one orientation.
LogicalResult Placer::orientVectors() {
  llvm::EquivalenceClasses<Value> same;
  std::vector<std::pair<Value, std::pair<bool, Operation *>>> seeds;
  auto vec = [](Value v) { return isTensor(v) && tensorType(v).getRank() == 1; };
  p.kernel.walk([&](Operation *op) {
    if (auto r = dyn_cast<ReduceOp>(op)) {
      seeds.push_back({r.getResult(), {r.getDim() == 0, op}});
    } else if (auto bc = dyn_cast<BroadcastOp>(op)) {
      if (vec(bc.getInput()))
        seeds.push_back({bc.getInput(), {bc.getDim() == 0, op}});
    } else if (findScalarFn(op) && op->getNumResults() == 1 && vec(op->getResult(0))) {
      same.insert(op->getResult(0));
      for (Value o : op->getOperands())
        if (vec(o))
          same.unionSets(op->getResult(0), o);
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Operation *yield = loop.getBody()->getTerminator();
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
        Value arg = loop.getRegionIterArgs()[i];
        if (!vec(arg))
          continue;
        same.unionSets(arg, loop.getInitArgs()[i]);
        same.unionSets(arg, yield->getOperand(i));
        same.unionSets(arg, loop.getResult(i));
      }
    }
  });
  DenseMap<Value, std::pair<bool, Operation *>> leaderSeed;
  for (auto &[v, seed] : seeds) {
    same.insert(v);
    Value leader = same.getLeaderValue(v);
    auto [it, inserted] = leaderSeed.try_emplace(leader, seed);
    if (!inserted && it->second.first != seed.first) {
      auto diag = refuse(seed.second, "this vector is used along the ")
                  << (seed.first ? "columns" : "rows") << " here but along the "
                  << (it->second.first ? "columns" : "rows")
                  << " elsewhere; a vector lives along one dimension of the tile";
      diag.attachNote(it->second.second->getLoc()) << "the other use is here";
      return diag;
    }
  }
  p.kernel.walk([&](Operation *op) {
    for (Value r : op->getResults())
      if (vec(r)) {
        same.insert(r);
        auto it = leaderSeed.find(same.getLeaderValue(r));
        alongCols[r] = it != leaderSeed.end() && it->second.first;
      }
  });
  for (BlockArgument arg : p.loop.getRegionIterArgs())
    if (vec(arg)) {
      same.insert(arg);
      auto it = leaderSeed.find(same.getLeaderValue(arg));
      alongCols[arg] = it != leaderSeed.end() && it->second.first;
    }
  return success();
}

Layout Placer::natural(Value v) const {
  auto t = tensorType(v);
  if (t.getRank() == 1)
    return alongCols.lookup(v) ? Layout::colsOf(t.getDimSize(0)) : Layout::rows();
  return Layout::tile(t.getDimSize(1));
}

LogicalResult Placer::checkDot(DotOp d) {
  auto aType = tensorType(d.getA()), bType = tensorType(d.getB());
  Type elem = aType.getElementType();
  bool fp8 = isFp8(elem);
  if (!(elem.isBF16() || elem.isF16() || fp8))
    return refuse(d, "dot operands must be bf16, f16 or FP8");
  if (!d.getB().getDefiningOp<LoadOp>() && !p.localOf(d.getB()))
    return refuse(d, "the B operand must be a tile loaded by TMA or upcast into shared memory "
                     "(wgmma reads B from shared memory)");
  bool aSmem = static_cast<bool>(d.getA().getDefiningOp<LoadOp>());
  if (p.target.blackwell()) {
    // tcgen05.mma reads A from shared memory (or tensor memory, not lowered
    // here) and, as lowered here, K-major operands.
    if (!aSmem)
      return refuse(d, "on sm_100a the A operand must be a tile loaded by TMA (an A computed "
                       "in registers would go through tensor memory, which is not lowered yet)");
    if (d.getTransposeA() || !d.getTransposeB())
      return refuse(d, "on sm_100a operands must be K-major (A as MxK, B as NxK with "
                       "transpose_b): MN-major tcgen05 operands are not lowered yet");
  } else if (fp8) {
    // wgmma's 8-bit forms read K-major operands only, and take register A
    // fragments of 4 consecutive K elements per register, which the
    // accumulator layout of a computed tile is not.
    if (!aSmem)
      return refuse(d, "an FP8 A operand must be a tile loaded by TMA: wgmma's FP8 register "
                       "fragments are not the accumulator layout. Make the dot 16-bit: a "
                       "computed A (P after a softmax) converted to bf16 with arith.extf or "
                       "truncf, B as well (a loaded FP8 B with tile.upcast, or arith.extf)");
    if (d.getTransposeA())
      return refuse(d, "FP8 operands must be K-major on sm_90a (wgmma transposes only 16-bit "
                       "operands): A is M-major (transpose_a); store A as MxK");
    if (!d.getTransposeB())
      return refuse(d, "FP8 operands must be K-major on sm_90a (wgmma transposes only 16-bit "
                       "operands): B is N-major; store B as NxK and add transpose_b");
  }
  if (!aSmem) {
    Layout a = p.layouts.lookup(d.getA());
    if (a.kind == Kind::Smem)
      return refuse(d, "the A operand has no register layout");
    if (d.getTransposeA())
      return refuse(d, "an A operand in registers must be K-major (no transpose_a): wgmma "
                       "takes register fragments of rows");
  }
  // wgmma reads rows swizzled by 128, 64 or 32 bytes, as TMA wrote the
  // panels (DescType::getLoadBoxShape: the widest that divides a row);
  // tcgen05 as lowered here, 128-byte rows only.
  auto checkRows = [&](StringRef which, Value operand, int64_t inner) -> LogicalResult {
    auto load = operand.getDefiningOp<LoadOp>();
    if (!load)
      return success(); // an upcast's local ring: 128-byte rows by construction
    SmemTile t = SmemTile::of(load.getDesc().getType());
    int64_t bytes = inner * t.elemBytes;
    bool ok = p.target.blackwell() ? t.swizzle == 128 && t.cols % t.panelCols == 0
                                   : t.swizzle != 0 && t.cols % t.panelCols == 0;
    if (ok)
      return success();
    if (p.target.blackwell())
      return refuse(d, "") << which << "'s contiguous dimension (" << inner << ", " << bytes
                           << " bytes) must be a multiple of 128 bytes on sm_100a (128-byte "
                              "swizzled rows)";
    return refuse(d, "") << which << "'s contiguous dimension (" << inner << ", " << bytes
                         << " bytes) must be 32, 64 or 128 bytes, or a multiple of 32 bytes "
                            "above 128: wgmma reads rows swizzled by 128, 64 or 32 bytes";
  };
  if (failed(checkRows("B", d.getB(), d.getTransposeB() ? d.getK() : d.getN())))
    return failure();
  if (aSmem && failed(checkRows("A", d.getA(), d.getTransposeA() ? d.getM() : d.getK())))
    return failure();
  if (d.getM() != p.geom.rows)
    return refuse(d, "M = ") << d.getM() << " differs from the consumer tile's " << p.geom.rows
                             << " rows";
  (void)bType;
  return success();
}

LogicalResult Placer::inferLayout(Operation *op) {
  // Every op with a tensor result lowers through one pattern, which makes
  // one result (an op of several tensor results has none).
  if (op->getNumResults() > 1 && llvm::any_of(op->getResults(), isTensor))
    return refuse(op, "'") << op->getName() << "' " << kNoLowering;
  if (op->getNumResults() != 1 || !isTensor(op->getResult(0)))
    return success();
  Value result = op->getResult(0);
  if (isa<LoadOp>(op)) {
    // A tile only dots read stays in shared memory; others read it into
    // registers in its natural layout.
    // So does a tile read only as scalars (tensor.extract of a scale) or by
    // tile.upcast, which reads shared memory itself.
    bool onlyDots = llvm::all_of(result.getUses(), [](OpOperand &use) {
      return (isa<DotOp>(use.getOwner()) && use.getOperandNumber() < 2) ||
             (isa<DotScaledOp>(use.getOwner()) && use.getOperandNumber() < 4) ||
             isa<tensor::ExtractOp, UpcastOp>(use.getOwner());
    });
    p.layouts[result] = onlyDots ? Layout::smem() : natural(result);
    return success();
  }
  if (auto d = dyn_cast<DotOp>(op)) {
    if (failed(checkDot(d)))
      return failure();
    p.layouts[result] = Layout::tile(d.getN());
    return success();
  }
  if (auto d = dyn_cast<DotScaledOp>(op)) {
    // sm_100a multiplies it as it is (tcgen05.mma block_scale, Tcgen05.cpp
    // checks the rest); sm_90a splits it first.
    if (!p.target.blackwell())
      return refuse(op, "tile.dot_scaled must be split into tile.upcast and tile.dot first "
                        "(tile-split-dot-scaled)");
    p.layouts[result] = Layout::tile(d.getN());
    return success();
  }
  if (auto up = dyn_cast<UpcastOp>(op)) {
    // A dot's B goes to shared memory (a local ring); anything else is
    // upcast into registers in its natural layout.
    if (!up.getInput().getDefiningOp<LoadOp>() || !up.getScale().getDefiningOp<LoadOp>())
      return refuse(op, "tile.upcast reads tiles loaded by TMA (its input and its scales)");
    p.layouts[result] = p.localOf(result) ? Layout::smem() : natural(result);
    return success();
  }
  const TilePattern *pattern = findPattern(op);
  if (!pattern)
    return refuse(op, "'") << op->getName() << "' " << kNoLowering;
  SmallVector<Layout> in;
  for (Value o : op->getOperands())
    if (isTensor(o))
      in.push_back(p.layouts.lookup(o));
  std::string why;
  FailureOr<Layout> l = pattern->inferLayout(op, in, p.geom, why);
  if (failed(l))
    return refuse(op, "'") << op->getName() << "' " << why;
  // 1-d results take the orientation of their vector (iota, elementwise).
  if (tensorType(result).getRank() == 1 && l->kind != Kind::Splat)
    *l = natural(result);
  p.layouts[result] = *l;
  return success();
}

/// A store in the pipelined loop goes out by TMA while the loop runs on: one
/// that wrote the same tile each iteration would race its own earlier
/// writes (bulk stores land in no set order), so its coordinates must
/// follow the induction variable.
/// What any store writes: a kernel argument's tensor, of a type the
/// staging converts to.
LogicalResult Placer::checkStoreTarget(StoreOp s) {
  auto arg = dyn_cast<BlockArgument>(s.getDesc());
  if (!arg || arg.getOwner() != &p.kernel.getBody().front())
    return refuse(s, "the descriptor must be a kernel argument");
  Type elem = s.getDesc().getType().getElementType();
  if (!isStoredElementType(elem))
    return refuse(s, "stored tiles must be ") << kStoredElementTypes << ", got " << elem;
  return success();
}

/// How much `c` grows from one iteration of the loop to the next when the
/// loop's step is `step` (with no step known: per unit of the induction
/// variable): 0 for values the loop does not change; sums, differences and
/// products by constants of the induction variable; divisions and right
/// shifts by a constant that divides the advance of what they divide
/// (floor((a + k s) / d) = floor(a / d) + k s / d when d divides s: a
/// 64-row block's partial stored at row i / 64). None for anything else (a
/// select, a division that does not divide, any division with no step).
static std::optional<int64_t> inductionAdvance(Value c, scf::ForOp loop,
                                               std::optional<int64_t> step, int depth = 0) {
  if (depth > 16)
    return std::nullopt;
  if (c == loop.getInductionVar())
    return step ? *step : 1;
  if (!loop->isAncestor(c.getParentBlock()->getParentOp()) && c.getParentBlock() != loop.getBody())
    return 0; // defined outside the loop
  Operation *def = c.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (matchPattern(c, m_Constant()))
    return 0;
  auto of = [&](Value v) { return inductionAdvance(v, loop, step, depth + 1); };
  auto constant = [](Value v) -> std::optional<int64_t> {
    APInt x;
    if (matchPattern(v, m_ConstantInt(&x)))
      return x.getSExtValue();
    return std::nullopt;
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return of(def->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> a = of(def->getOperand(0)), b = of(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *a + *b : *a - *b;
  }
  if (isa<arith::MulIOp>(def)) {
    for (int k = 0; k < 2; ++k)
      if (std::optional<int64_t> factor = constant(def->getOperand(1 - k)))
        if (std::optional<int64_t> a = of(def->getOperand(k)))
          return *a * *factor;
    return std::nullopt;
  }
  std::optional<int64_t> divisor;
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivUIOp,
          arith::CeilDivSIOp>(def))
    divisor = constant(def->getOperand(1));
  else if (isa<arith::ShRUIOp, arith::ShRSIOp>(def))
    if (std::optional<int64_t> bits = constant(def->getOperand(1)); bits && *bits >= 0 && *bits < 62)
      divisor = int64_t(1) << *bits;
  if (divisor && *divisor > 0 && step) {
    std::optional<int64_t> a = of(def->getOperand(0));
    if (a && *a % *divisor == 0)
      return *a / *divisor;
  }
  return std::nullopt;
}

LogicalResult Placer::checkLoopStore(StoreOp s) {
  if (failed(checkStoreTarget(s)))
    return failure();
  // Bulk stores land in no set order: each iteration's box must be disjoint
  // from the next one's, a coordinate moving by at least the box's extent
  // along its dimension every iteration (i, i + 64, 2 i over a step of the
  // box; a step of half the box would race two iterations' stores).
  std::optional<int64_t> step;
  if (APInt v; matchPattern(p.loop.getStep(), m_ConstantInt(&v)))
    step = v.getSExtValue();
  SmallVector<int64_t> box(s.getDesc().getType().getBoxShape());
  bool follows = false;
  std::string moves;
  for (auto [d, c] : llvm::enumerate(s.getCoords())) {
    std::optional<int64_t> advance = inductionAdvance(c, p.loop, step);
    if (!advance || *advance == 0)
      continue;
    follows = true;
    if (!step)
      continue;
    int64_t perIteration = std::abs(*advance);
    if (perIteration >= box[d])
      return success();
    moves = llvm::formatv("along dimension {0} its coordinate moves {1} a iteration, less than the "
                    "box's {2}",
                    d, perIteration, box[d])
                .str();
  }
  if (!moves.empty())
    return refuse(s, "a tile.store in the pipelined loop must write a tile disjoint from the "
                     "previous iteration's (bulk stores land in no set order): ")
           << moves;
  if (follows)
    return refuse(s, "a tile.store in the pipelined loop must write a tile disjoint from the "
                     "previous iteration's (bulk stores land in no set order): the loop's step is "
                     "not a constant");
  return refuse(s, "a tile.store in the pipelined loop must write another tile each "
                   "iteration: a coordinate that is the induction variable, a sum or a "
                   "product by constants of it, or a division of those by a constant that "
                   "divides the step (a select is not followed); or store the loop's result "
                   "after it");
}

LogicalResult Placer::inferLayouts() {
  // The consumer tile's rows: the dots' M, else the first 2-d tile's.
  p.geom.rows = 0;
  p.kernel.walk([&](DotOp d) {
    if (!p.geom.rows)
      p.geom.rows = d.getM();
  });
  if (!p.geom.rows)
    p.kernel.walk([&](Operation *op) {
      for (Value r : op->getResults())
        if (!p.geom.rows && isTensor(r) && tensorType(r).getRank() == 2)
          p.geom.rows = tensorType(r).getDimSize(0);
    });
  if (!p.geom.rows)
    p.geom.rows = 64 * p.geom.wgs;
  if (p.geom.rows % (64 * p.geom.wgs))
    return refuse(p.loop, "the consumer tile has ")
           << p.geom.rows << " rows, which " << p.geom.wgs
           << " consumer warp group(s) cannot split in blocks of 64 rows (tile.warpgroups)";
  p.geom.rowBlocks = p.geom.rows / (64 * p.geom.wgs);
  if (p.target.blackwell()) {
    // One M = 128 tcgen05.mma per dot, its accumulator in tensor-memory
    // lanes 0..127; warp w reads lanes 32w..32w+31, so the 128 rows are split
    // in blocks of 16 within each warp's 32 (RegisterLayout.h).
    if (p.geom.rows != 128)
      return refuse(p.loop, "on sm_100a the consumer tile must have 128 rows (one M = 128 "
                            "tcgen05.mma), got ")
             << p.geom.rows;
    p.geom.rowBlocks = 2 / p.geom.wgs;
    p.geom.blockStride = 16;
    p.geom.warpStride = 32;
  }

  Block &entry = p.kernel.getBody().front();
  for (Operation &op : entry) {
    if (&op == p.loop.getOperation() || &op == p.tileLoop.getOperation())
      break;
    if (failed(inferLayout(&op)))
      return failure();
  }
  if (p.tileLoop)
    for (Operation &op : p.scope()) {
      if (&op == p.loop.getOperation())
        break;
      if (failed(inferLayout(&op)))
        return failure();
    }
  for (auto [arg, init] : llvm::zip(p.loop.getRegionIterArgs(), p.loop.getInitArgs())) {
    if (!isTensor(arg))
      return refuse(p.loop, "loop-carried values must be tensors");
    p.layouts[arg] = natural(arg);
  }
  for (Operation &op : p.loop.getBody()->without_terminator())
    if (failed(inferLayout(&op)))
      return failure();
  for (Value r : p.loop.getResults())
    p.layouts[r] = natural(r);
  for (Operation *op = p.loop->getNextNode(); op; op = op->getNextNode())
    if (failed(inferLayout(op)))
      return failure();
  return success();
}

LogicalResult Placer::checkShapes() {
  // Register tensors: every 2-d tile spans the consumer's rows, columns in
  // blocks of 8; row vectors span the rows; integer tiles are i1 or i32.
  WalkResult r = p.kernel.walk([&](Operation *op) -> WalkResult {
    for (Value v : op->getResults()) {
      if (!isTensor(v))
        continue;
      auto t = tensorType(v);
      Type e = t.getElementType();
      if (isa<IntegerType>(e) && !e.isInteger(1) && !e.isInteger(32))
        return refuse(op, "integer tiles must be i1 or i32, got ") << e;
      // Computed FP8 tiles are carried in f32 and rounded where read (a
      // quantized output, a fake quantization); e8m0 scales are only loaded.
      if (isScaleType(e) && !isa<LoadOp>(op))
        return refuse(op, "e8m0 tiles are only loaded (tile.upcast and tile.dot_scaled read "
                          "them); computed tiles must be f32, bf16, f16 or FP8, got ")
               << e;
      if (isa<FloatType>(e) && !(e.isF32() || e.isBF16() || e.isF16() || isFp8(e) ||
                                 isScaleType(e)))
        return refuse(op, "float tiles must be f32, bf16 or f16, got ") << e;
      Layout l = p.layouts.lookup(v);
      if (l.kind == Kind::Splat || l.kind == Kind::Smem)
        continue;
      if (t.getRank() == 2 && t.getDimSize(0) != p.geom.rows)
        return refuse(op, "a ")
               << t << " in registers must span the consumer tile's " << p.geom.rows << " rows";
      if (t.getRank() == 2 && t.getDimSize(1) % 8)
        return refuse(op, "a tile in registers needs a multiple of 8 columns, got ")
               << t.getDimSize(1);
      if (l.kind == Kind::Rows && t.getDimSize(0) != p.geom.rows)
        return refuse(op, "a row vector must have the consumer tile's ")
               << p.geom.rows << " rows, got " << t.getDimSize(0);
      if (l.kind == Kind::Cols && t.getDimSize(0) % 8)
        return refuse(op, "a column vector needs a multiple of 8 elements, got ")
               << t.getDimSize(0);
      if (t.getRank() > 2)
        return refuse(op, "tiles in registers are 1-d or 2-d");
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

} // namespace

LogicalResult stagecraft::lowering::placeKernel(KernelPlan &plan) {
  return Placer(plan).run();
}
