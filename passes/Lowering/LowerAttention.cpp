//===- LowerAttention.cpp - attention loops to NVVM for sm_90a -------------===//
//
// The attention form of tile-lower-to-nvvm. The loop body holds TMA loads,
// two dots and register math; any legal schedule of its units is lowered:
//
// Registers. Every tensor of the consumer warp groups lives in registers in
// the wgmma accumulator layout: warp group g, warp w, lane l holds rows
// 64g + 16w + l/4 (+8) and, per 8-column block j, columns 8j + 2(l%4) (+1).
// A tile of N columns is N/2 f32 per thread (Tile), a row vector two f32
// (Rows, one per row; the four lanes of a row hold copies), a row vector
// broadcast along columns the same two registers (RowView), a bf16 tile N/4
// registers of bf16 pairs (Packed), which is exactly the A fragment of a
// register-sourced wgmma: P never leaves registers. Row reductions reduce
// within the thread, then across the four lanes of a row (shfl.xor 1, 2).
//
// Schedule. Each unit of the consumer group runs, in kernel iteration k, on
// source iteration k - (its stage - the group's first stage), predicated
// off outside [0, trip count). A value used s stages after it is made is
// carried across kernel iterations in s copies (iter_args of the kernel
// loop); a unit that is predicated off passes its previous values on, so
// loop-carried values start from the loop's init and end at its last
// iteration.
//
// wgmma. Every dot unit commits one wgmma group per kernel iteration, also
// when predicated off (an empty group), so the group a value comes from is
// a static distance back; each use of a dot result waits with
// wgmma.wait_group for exactly that group, leaving the later ones in flight
// (this is what lets MMA0(i+1) run under Softmax(i)). The wait passes the
// values through its asm so that no use is scheduled above it. A dot's
// shared-memory buffers are released at the first wait that retires it;
// when that is later than its ring allows, a wait closes the iteration.
//
// Shared memory: barriers, the tiles loaded before the loop (Q), then one
// ring per load; the output is staged in Q's place once every consumer is
// past its last dot.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/LowerAttention.h"
#include "passes/Lowering/HopperOps.h"
#include "passes/Lowering/KernelFrame.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <optional>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {

constexpr int64_t kMaxDynamicSmem = 232448; // 227 KiB on sm_90

int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

enum class Kind { Splat, Rows, RowView, Tile, Packed, Smem };

struct Layout {
  Kind kind = Kind::Splat;
  int64_t cols = 0;
  int64_t regs() const {
    switch (kind) {
    case Kind::Splat: return 1;
    case Kind::Rows:
    case Kind::RowView: return 2;
    case Kind::Tile: return cols / 2;
    case Kind::Packed: return cols / 4;
    case Kind::Smem: return 0;
    }
    return 0;
  }
  bool operator==(const Layout &o) const { return kind == o.kind && cols == o.cols; }
};

struct Frag {
  Layout layout;
  SmallVector<Value> regs;
};

/// A tile as TMA writes it to shared memory: 128-byte-wide column panels of
/// `rows` rows each, 128-byte swizzled, one after the other.
struct SmemTile {
  int64_t rows = 0, cols = 0, panels = 1, panelCols = 0, panelBytes = 0, bytes = 0;
  static SmemTile of(DescType desc) {
    SmemTile t;
    ArrayRef<int64_t> shape = desc.getTileShape();
    t.rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
    t.cols = shape.back();
    t.panelCols = desc.getLoadBoxShape().back();
    t.panels = (t.cols + t.panelCols - 1) / t.panelCols;
    t.panelBytes = t.rows * t.panelCols * desc.getElementBytes();
    t.bytes = desc.getBoxBytes();
    return t;
  }
};

struct Ring {
  unsigned unit;
  mutable LoadOp load;
  unsigned descArg;
  SmemTile tile;
  int64_t copies = 1, offset = 0, stride = 0, fullBar = 0, emptyBar = 0;
};

/// A tile loaded once before the loop (Q), read by dots from shared memory.
struct Resident {
  mutable LoadOp load;
  unsigned descArg;
  SmemTile tile;
  int64_t offset = 0;
};

struct BodyUnit {
  unsigned unit;
  int64_t off = 0;
  bool isLoad = false;
  int dotPos = -1; // position among the dot units of the body
  mutable DotOp dot;
  SmallVector<Operation *> ops;
  // wgmma.wait_group before the unit (-1: none), the dot results it reads
  // that the wait must tie, and the dots (body indices, relative kernel
  // iteration) whose buffers that wait retires.
  int wait = -1;
  SmallVector<Value> tied;
  SmallVector<std::pair<unsigned, int64_t>> releases;
};

class AttentionLowering {
public:
  explicit AttentionLowering(func::FuncOp kernel) : kernel(kernel) {}
  LogicalResult run() {
    if (failed(analyze()))
      return failure();
    emit();
    return success();
  }

private:
  // Analysis.
  LogicalResult analyze();
  LogicalResult collectBody();
  LogicalResult checkOutside();
  LogicalResult inferLayouts();
  LogicalResult planCarries();
  LogicalResult planWaits();
  LogicalResult layoutSharedMemory();
  FailureOr<Layout> inferLayout(Operation *op);
  Layout canonical(Type t) const;
  int bodyIndexOfUnit(unsigned unit) const;
  int bodyIndexOf(Operation *op) const;
  /// The in-loop value an operand stands for and how many kernel
  /// iterations back it was made (iter_args resolve to the yielded value).
  std::pair<Value, int64_t> resolve(Value operand, const BodyUnit &user) const;
  const Ring *ringOf(Value v) const;
  /// Which loop result `v` is yielded as, or -1.
  int yieldedIndex(Value v) const {
    for (auto [i, y] : llvm::enumerate(loop.getBody()->getTerminator()->getOperands()))
      if (y == v)
        return i;
    return -1;
  }

  // Emission.
  void emit();
  void emitProducerLoop(Emitter &e, Value tid);
  void emitConsumer(Emitter &e, Value ctid);
  void emitProduce(Emitter &e, const Ring &ring, Value src);
  void emitUnit(Emitter &e, BodyUnit &u, Value kit);
  /// One kernel iteration of the consumer group: every unit, then the
  /// closing wait; `carriedIn` are the carried copies, newest first.
  void emitKernelIteration(Emitter &e, Value kit, ValueRange carriedIn);
  /// The carried copies after the iteration just emitted.
  SmallVector<Value> carriedYields();
  void emitRelease(Emitter &e, const BodyUnit &dotUnit, int64_t rel, Value kit);
  SmallVector<Value> emitDot(Emitter &e, BodyUnit &u, Value src);
  void evalOp(Emitter &e, Operation *op, Value src);
  Frag lookup(Value v, const BodyUnit *user);
  Frag materialize(Emitter &e, const Frag &f, Layout to);
  Value elemAt(const Frag &f, Layout result, int64_t i);
  Frag zeroFrag(Emitter &e, Layout l);
  Value maskTile(Emitter &e, MaskOp mask, Value src, Value in, int64_t i);
  void emitStore(Emitter &e, StoreOp store);

  func::FuncOp kernel;
  mutable scf::ForOp loop;
  LoopGraph graph;
  ScheduleReport report;
  std::vector<Ring> rings;
  std::vector<Resident> residents;
  std::vector<BodyUnit> body;     // consumer units in body order
  std::vector<unsigned> loadUnits; // producer-group load units in body order
  DenseMap<Operation *, int> unitOfOp; // body index
  llvm::DenseMap<Value, Layout> layouts;
  llvm::MapVector<Value, int64_t> carried; // value -> copies carried
  int endWait = -1;
  SmallVector<Value> endTied;
  SmallVector<std::pair<unsigned, int64_t>> endReleases;
  int numDots = 0;
  int64_t consumerGroup = 0, producerGroup = -1, consumerWGs = 1, rowsPerTile = 0;
  int64_t cMin = 0, cMax = 0, pMin = 0, pMax = 0;
  int64_t threads = 128, smemBytes = 0, stagingOffset = 0, residentBar = 0;
  int64_t consumerRegs = 0, producerRegs = 0;
  StoreOp store;

  // Emission state.
  std::optional<KernelFrame> frame;
  Emitter *emitter = nullptr;
  Value curSrc; // source iteration of the unit being emitted
  KernelFrame::TripCount trip;
  Value nIter, lb, step, lane, row0, col0;
  DenseMap<Value, Frag> outside;          // pre- and post-loop values
  DenseMap<Value, Frag> cur;              // made in this kernel iteration
  DenseMap<Value, SmallVector<Frag>> hist; // made in earlier iterations
  DenseMap<Value, Frag> local;            // within the unit being emitted
};

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

Layout AttentionLowering::canonical(Type t) const {
  auto tt = cast<RankedTensorType>(t);
  if (tt.getRank() == 1)
    return {Kind::Rows, 0};
  if (tt.getElementType().isBF16())
    return {Kind::Packed, tt.getDimSize(1)};
  return {Kind::Tile, tt.getDimSize(1)};
}

int AttentionLowering::bodyIndexOfUnit(unsigned unit) const {
  for (unsigned i = 0; i < body.size(); ++i)
    if (body[i].unit == unit)
      return i;
  return -1;
}

int AttentionLowering::bodyIndexOf(Operation *op) const {
  auto it = unitOfOp.find(op);
  return it == unitOfOp.end() ? -1 : it->second;
}

const Ring *AttentionLowering::ringOf(Value v) const {
  for (const Ring &r : rings)
    if (const_cast<Ring &>(r).load.getResult() == v)
      return &r;
  return nullptr;
}

std::pair<Value, int64_t> AttentionLowering::resolve(Value v,
                                                      const BodyUnit &user) const {
  int64_t back = 0;
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0) {
      v = loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1);
      back = 1;
    }
  Operation *def = v.getDefiningOp();
  int d = def ? bodyIndexOf(def) : -1;
  if (d < 0)
    return {v, -1}; // outside the loop (or a constant)
  return {v, back + user.off - body[d].off};
}

LogicalResult AttentionLowering::analyze() {
  FailureOr<ScheduledLoop> s = prepareScheduledLoop(kernel);
  if (failed(s))
    return failure();
  loop = s->loop;
  graph = std::move(s->graph);
  report = std::move(s->report);
  if (failed(collectBody()) || failed(checkOutside()) ||
      failed(inferLayouts()) || failed(planCarries()) || failed(planWaits()) ||
      failed(layoutSharedMemory()))
    return failure();
  return success();
}

LogicalResult AttentionLowering::collectBody() {
  // Units in body order, split into the consumer group (everything but
  // loads must sit in one group) and a producer group of loads.
  std::map<unsigned, SmallVector<Operation *>> opsOf;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isScheduledOp(&op)) {
      if (isa<arith::ConstantOp>(op) ||
          llvm::all_of(op.getResultTypes(), [](Type t) { return t.isIndex(); }))
        continue;
      return op.emitError("tile-lower-to-nvvm: '")
             << op.getName() << "' in the pipelined loop has no schedule";
    }
    int u = graph.findUnit(getSchedule(&op).getName());
    if (u < 0)
      return op.emitError("tile-lower-to-nvvm: unknown unit");
    opsOf[u].push_back(&op);
  }
  consumerGroup = -1;
  for (auto &[u, ops] : opsOf)
    if (graph.units[u].kind != UnitKind::Load) {
      int64_t grp = effectiveSchedule(graph, graph.initialSchedule, u).group;
      if (consumerGroup >= 0 && grp != consumerGroup)
        return ops.front()->emitError("tile-lower-to-nvvm: unit '")
               << graph.units[u].name << "' is in warp group " << grp
               << " but the dots and the math of an attention loop must share "
                  "one warp group (here "
               << consumerGroup << "): register values do not cross groups";
      consumerGroup = grp;
    }
  cMin = pMin = INT64_MAX;
  cMax = pMax = INT64_MIN;
  for (unsigned u : report.bodyOrder) {
    OpSchedule s = effectiveSchedule(graph, graph.initialSchedule, u);
    bool isLoad = graph.units[u].kind == UnitKind::Load;
    if (s.group != consumerGroup) {
      if (!isLoad)
        continue;
      if (producerGroup >= 0 && producerGroup != s.group)
        return opsOf[u].front()->emitError(
            "tile-lower-to-nvvm: loads outside the consumer warp group must "
            "share one producer group");
      producerGroup = s.group;
      loadUnits.push_back(u);
      pMin = std::min(pMin, s.stage);
      pMax = std::max(pMax, s.stage);
      continue;
    }
    cMin = std::min(cMin, s.stage);
    cMax = std::max(cMax, s.stage);
    BodyUnit b;
    b.unit = u;
    b.isLoad = isLoad;
    b.ops = opsOf[u];
    body.push_back(b);
  }
  for (BodyUnit &b : body) {
    b.off = effectiveSchedule(graph, graph.initialSchedule, b.unit).stage - cMin;
    for (Operation *op : b.ops)
      unitOfOp[op] = &b - body.data();
  }
  for (BodyUnit &b : body) {
    for (Operation *op : b.ops)
      if (auto d = dyn_cast<DotOp>(op)) {
        if (b.ops.size() != 1)
          return d.emitError("tile-lower-to-nvvm: a dot must be alone in its "
                             "unit ('")
                 << graph.units[b.unit].name << "' holds " << b.ops.size()
                 << " ops)";
        b.dot = d;
        b.dotPos = numDots++;
      }
  }
  consumerWGs = graph.warpGroupsOf(consumerGroup);
  rowsPerTile = 64 * consumerWGs;
  threads = 128 * (consumerWGs + (producerGroup >= 0 ? 1 : 0));
  for (const GroupRegisters &gr : report.registers) {
    if (gr.group == consumerGroup) consumerRegs = gr.budget;
    if (gr.group == producerGroup) producerRegs = gr.budget;
  }

  // Loads: rings in the loop.
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(load.getDesc());
      if (!arg || arg.getOwner() != &kernel.getBody().front())
        return load.emitError("tile-lower-to-nvvm: the descriptor must be a "
                              "kernel argument");
      Ring r;
      r.unit = graph.findUnit(getSchedule(&op).getName());
      r.load = load;
      r.descArg = arg.getArgNumber();
      r.tile = SmemTile::of(load.getDesc().getType());
      rings.push_back(r);
    }

  // Dots: operands and shapes wgmma can take.
  for (BodyUnit &b : body) {
    if (!b.dot)
      continue;
    DotOp d = b.dot;
    if (d.getM() != rowsPerTile)
      return d.emitError("tile-lower-to-nvvm: M = ")
             << d.getM() << " needs " << d.getM() / 64
             << " warp groups of 64 rows in warp group " << consumerGroup
             << ", which has " << consumerWGs << " (tile.warpgroups)";
    auto aType = cast<RankedTensorType>(d.getA().getType());
    auto bType = cast<RankedTensorType>(d.getB().getType());
    if (!aType.getElementType().isBF16() || !bType.getElementType().isBF16())
      return d.emitError("tile-lower-to-nvvm: dot operands must be bf16");
    const Ring *rb = ringOf(d.getB());
    if (!rb)
      return d.emitError("tile-lower-to-nvvm: the B operand must be a TMA "
                         "load of the loop");
    int64_t bInner = d.getTransposeB() ? d.getK() : d.getN();
    if (bInner % 64)
      return d.emitError("tile-lower-to-nvvm: B's contiguous dimension (")
             << bInner << ") must be a multiple of 64 (128-byte swizzled rows)";
    bool aSmem = ringOf(d.getA()) || d.getA().getDefiningOp<LoadOp>();
    if (aSmem && d.getK() % 64)
      return d.emitError("tile-lower-to-nvvm: K = ")
             << d.getK() << " must be a multiple of 64 for a shared-memory A";
    Value acc = d.getAcc();
    if (auto c = acc.getDefiningOp<arith::ConstantOp>()) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense || !dense.isSplat() || !dense.getSplatValue<APFloat>().isZero())
        return d.emitError("tile-lower-to-nvvm: a constant accumulator must "
                           "be zero");
    }
  }
  if (numDots == 0)
    return loop.emitError("tile-lower-to-nvvm: the pipelined loop has no dot");
  return success();
}

LogicalResult AttentionLowering::checkOutside() {
  Block &entry = kernel.getBody().front();
  for (Operation &op : entry) {
    if (&op == loop.getOperation() || isa<func::ReturnOp>(op))
      continue;
    if (op.getNumResults() == 1 && op.getResult(0).getType().isIndex())
      continue; // index math, lowered where used
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(load.getDesc());
      if (!arg || arg.getOwner() != &entry)
        return load.emitError("tile-lower-to-nvvm: the descriptor must be a "
                              "kernel argument");
      for (Operation *user : load->getUsers()) {
        auto d = dyn_cast<DotOp>(user);
        if (!d || d.getA() != load.getResult())
          return load.emitError("tile-lower-to-nvvm: a tile loaded before the "
                                "loop is read only as the A operand of dots");
      }
      if (load.getDesc().getType().getTileShape().back() % 64)
        return load.emitError("tile-lower-to-nvvm: a tile loaded before the "
                              "loop needs a multiple of 64 columns");
      residents.push_back({load, arg.getArgNumber(),
                           SmemTile::of(load.getDesc().getType()), 0});
      continue;
    }
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return s.emitError("tile-lower-to-nvvm: one store per kernel");
      store = s;
      continue;
    }
    if (op.isBeforeInBlock(loop) && !isa<arith::ConstantOp>(op))
      return op.emitError("tile-lower-to-nvvm: '")
             << op.getName() << "' before the loop is not lowered (only "
             << "index math, constants and TMA loads)";
  }
  if (!store)
    return kernel.emitError("tile-lower-to-nvvm: the kernel stores nothing");
  auto vt = cast<RankedTensorType>(store.getValue().getType());
  if (!vt.getElementType().isBF16() || vt.getRank() != 2 ||
      vt.getDimSize(0) != rowsPerTile)
    return store.emitError("tile-lower-to-nvvm: the stored tile must be bf16 "
                           "with ")
           << rowsPerTile << " rows";
  return success();
}

FailureOr<Layout> AttentionLowering::inferLayout(Operation *op) {
  auto fail = [&](const Twine &why) -> FailureOr<Layout> {
    return op->emitError("tile-lower-to-nvvm: ") << why;
  };
  auto in = [&](unsigned i) { return layouts.lookup(op->getOperand(i)); };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat() || !dense.getElementType().isF32())
      return fail("only splat f32 tensor constants are lowered");
    return Layout{Kind::Splat, 0};
  }
  if (isa<LoadOp>(op))
    return Layout{Kind::Smem, 0};
  if (auto d = dyn_cast<DotOp>(op)) {
    Layout a = in(0);
    if (a.kind != Kind::Smem && a.kind != Kind::Packed)
      return fail("the A operand of a dot must be a loaded tile or a bf16 "
                  "tile in registers (arith.truncf)");
    Layout acc = in(2);
    if (acc.kind != Kind::Splat && acc.kind != Kind::Tile)
      return fail("the accumulator must be zero or a tile in registers");
    return Layout{Kind::Tile, d.getN()};
  }
  if (auto m = dyn_cast<MaskOp>(op)) {
    if (in(0).kind != Kind::Tile)
      return fail("tile.mask applies to a tile in registers (a dot result)");
    return in(0);
  }
  if (auto r = dyn_cast<ReduceOp>(op)) {
    if (r.getDim() != 1 || in(0).kind != Kind::Tile)
      return fail("only row reductions (dim = 1) of a tile in registers are "
                  "lowered");
    return Layout{Kind::Rows, 0};
  }
  if (auto bc = dyn_cast<BroadcastOp>(op)) {
    if (bc.getDim() != 1)
      return fail("only broadcasts of row vectors along columns (dim = 1) "
                  "are lowered");
    Layout l = in(0);
    if (l.kind == Kind::Splat)
      return l;
    if (l.kind != Kind::Rows)
      return fail("tile.broadcast of a non-row vector");
    return Layout{Kind::RowView, 0};
  }
  if (auto t = dyn_cast<arith::TruncFOp>(op)) {
    if (in(0).kind != Kind::Tile ||
        !cast<RankedTensorType>(t.getType()).getElementType().isBF16())
      return fail("arith.truncf is lowered from an f32 tile to bf16");
    return Layout{Kind::Packed, in(0).cols};
  }
  if (isa<arith::MulFOp, arith::AddFOp, arith::SubFOp, arith::DivFOp,
          arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp, math::Exp2Op>(op)) {
    auto rt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!rt || !rt.getElementType().isF32())
      return fail("elementwise math is lowered on f32 tensors");
    bool tile = false, rows = false;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Layout l = in(i);
      if (l.kind == Kind::Packed || l.kind == Kind::Smem)
        return fail("elementwise math on a bf16 or shared-memory tile");
      tile |= l.kind == Kind::Tile;
      rows |= l.kind == Kind::Rows || l.kind == Kind::RowView;
    }
    if (rt.getRank() == 2)
      return tile ? Layout{Kind::Tile, rt.getDimSize(1)}
             : rows ? Layout{Kind::RowView, 0}
                    : Layout{Kind::Splat, 0};
    return rows ? Layout{Kind::Rows, 0} : Layout{Kind::Splat, 0};
  }
  return fail(Twine("'") + op->getName().getStringRef() +
              "' is not lowered in an attention kernel");
}

LogicalResult AttentionLowering::inferLayouts() {
  Block &entry = kernel.getBody().front();
  for (Operation &op : entry) {
    if (&op == loop.getOperation())
      break;
    if (op.getNumResults() == 1 && isa<RankedTensorType>(op.getResult(0).getType())) {
      FailureOr<Layout> l = inferLayout(&op);
      if (failed(l))
        return failure();
      layouts[op.getResult(0)] = *l;
    }
  }
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (!isa<RankedTensorType>(arg.getType()))
      return loop.emitError("tile-lower-to-nvvm: loop-carried values must be tensors");
    layouts[arg] = canonical(arg.getType());
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (op.getNumResults() == 1 && isa<RankedTensorType>(op.getResult(0).getType())) {
      FailureOr<Layout> l = inferLayout(&op);
      if (failed(l))
        return failure();
      layouts[op.getResult(0)] = *l;
    }
  for (auto [i, r] : llvm::enumerate(loop.getResults()))
    layouts[r] = canonical(r.getType());
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    if (isa<StoreOp, func::ReturnOp>(op) || op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      continue;
    if (isa<LoadOp, DotOp, MaskOp>(op))
      return op->emitError("tile-lower-to-nvvm: '")
             << op->getName() << "' after the loop is not lowered";
    FailureOr<Layout> l = inferLayout(op);
    if (failed(l))
      return failure();
    layouts[op->getResult(0)] = *l;
  }
  return success();
}

LogicalResult AttentionLowering::planCarries() {
  // How far back each in-loop value is read; yielded values are carried at
  // least one iteration so that the loop's results leave the kernel loop.
  auto need = [&](Value v, int64_t copies) {
    int64_t &c = carried[v];
    c = std::max(c, copies);
  };
  for (BodyUnit &u : body)
    for (Operation *op : u.ops)
      for (OpOperand &use : op->getOpOperands()) {
        Value v = use.get();
        if (!isa<RankedTensorType>(v.getType()))
          continue;
        auto [def, back] = resolve(v, u);
        if (back < 0) {
          if (isa<BlockArgument>(def) && cast<BlockArgument>(def).getOwner() == loop.getBody())
            return op->emitError("tile-lower-to-nvvm: a loop-carried value "
                                 "that is yielded unchanged is not lowered");
          continue;
        }
        int d = bodyIndexOf(def.getDefiningOp());
        if (body[d].isLoad)
          continue; // read from its ring
        if (back == 0 && d > &u - body.data())
          return op->emitError("tile-lower-to-nvvm: operand ")
                 << use.getOperandNumber() << " is made later in the same "
                 << "iteration of the kernel loop (unit '"
                 << graph.units[body[d].unit].name << "')";
        if (back > 0)
          need(def, back);
      }
  for (Value y : loop.getBody()->getTerminator()->getOperands()) {
    Operation *def = y.getDefiningOp();
    if (!def || bodyIndexOf(def) < 0 || body[bodyIndexOf(def)].isLoad)
      return loop.emitError("tile-lower-to-nvvm: every loop-carried value "
                            "must be made by the consumer warp group's math");
    // Its last source iteration is made (span - its stage offset) kernel
    // iterations before the last one, which is peeled: carry it that far.
    if (int64_t back = cMax - cMin - body[bodyIndexOf(def)].off; back > 0)
      need(y, back);
  }
  for (Value init : loop.getInitArgs())
    if (!init.getDefiningOp<arith::ConstantOp>())
      return loop.emitError("tile-lower-to-nvvm: loop-carried values must "
                            "start from splat constants");
  for (auto &[v, copies] : carried) {
    Layout l = layouts.lookup(v);
    if (l.kind == Kind::Splat)
      layouts[v] = canonical(v.getType());
  }
  // Yielded values are carried in the iter_arg's layout.
  for (auto [i, y] : llvm::enumerate(loop.getBody()->getTerminator()->getOperands()))
    if (!(layouts.lookup(y) == canonical(y.getType())))
      return y.getDefiningOp()->emitError("tile-lower-to-nvvm: the loop-carried "
                                          "value has no register layout of its type");
  return success();
}

LogicalResult AttentionLowering::planWaits() {
  int nd = numDots;
  // Group index (relative to the start of the current kernel iteration)
  // of the wgmma group that made dot `d`'s value `back` iterations ago.
  auto groupOf = [&](int d, int64_t back) { return -back * nd + body[d].dotPos; };
  // A dot result carried to a later kernel iteration crosses the loop's
  // back edge, where LLVM copies loop-carried registers (it does not
  // reliably coalesce them with a tied wgmma accumulator): a copy that
  // reads a wgmma in flight makes ptxas serialize every wgmma. So carried
  // dot results are retired by a wait that closes the iteration, after
  // everything the schedule lets them overlap; readers in the same
  // iteration wait for exactly their group.
  for (auto &[v, copies] : carried) {
    auto dot = v.getDefiningOp<DotOp>();
    if (!dot)
      continue;
    int d = bodyIndexOf(dot);
    int64_t w = nd - body[d].dotPos - 1;
    endWait = endWait < 0 ? w : std::min<int64_t>(endWait, w);
    endTied.push_back(v);
  }
  int committed = 0;
  for (BodyUnit &u : body) {
    int64_t need = INT64_MAX;
    for (Operation *op : u.ops)
      for (OpOperand &use : op->getOpOperands()) {
        auto [def, back] = resolve(use.get(), u);
        if (back < 0 || (back > 0 && llvm::is_contained(endTied, def)))
          continue;
        Operation *defOp = def.getDefiningOp();
        auto dot = dyn_cast<DotOp>(defOp);
        if (!dot)
          continue;
        // A dot accumulating onto a dot result chains in registers.
        if (auto d = dyn_cast<DotOp>(op); d && use.getOperandNumber() == 2)
          continue;
        int d = bodyIndexOf(defOp);
        int64_t pending = committed - groupOf(d, back) - 1;
        if (pending < 0)
          return op->emitError("tile-lower-to-nvvm: reads a dot result before "
                               "its wgmma is issued");
        need = std::min(need, pending);
        if (!llvm::is_contained(u.tied, use.get()))
          u.tied.push_back(use.get());
      }
    // A unit that writes a dot's accumulator input runs with no wgmma in
    // flight: ptxas serializes every wgmma when other instructions define
    // accumulator registers while a wgmma group is outstanding.
    if (!u.dot)
      for (Operation *op : u.ops)
        for (OpOperand &use : op->getResult(0).getUses())
          if (auto d = dyn_cast<DotOp>(use.getOwner()); d && use.getOperandNumber() == 2)
            need = 0;
    if (need != INT64_MAX)
      u.wait = need;
    if (u.dot)
      ++committed;
  }
  // Releases: each dot's buffers go back at the first wait that retires the
  // newest group of it any wait of the iteration retires; if that is older
  // than its rings allow (or no wait retires it), close the iteration with
  // a wait that does.
  auto frontier = [&](int pos, int wait) { return pos - wait - 1; };
  auto plan = [&]() -> std::vector<std::pair<int64_t, int>> {
    // per dot body index: (newest relative iteration retired, wait index)
    std::vector<std::pair<int64_t, int>> best(body.size(), {INT64_MIN, -1});
    int pos = 0;
    for (unsigned i = 0; i <= body.size(); ++i) {
      int w = i < body.size() ? body[i].wait : endWait;
      if (w >= 0)
        for (unsigned d = 0; d < body.size(); ++d)
          if (body[d].dot) {
            int64_t r = floorDiv(frontier(pos, w) - body[d].dotPos, nd);
            if (r > best[d].first)
              best[d] = {r, static_cast<int>(i)};
          }
      if (i < body.size() && body[i].dot)
        ++pos;
    }
    return best;
  };
  for (unsigned d = 0; d < body.size(); ++d) {
    if (!body[d].dot)
      continue;
    int64_t allowed = INT64_MAX;
    for (const Ring &r : rings)
      if (r.load.getResult() == body[d].dot.getA() ||
          r.load.getResult() == body[d].dot.getB())
        for (const LoadBuffers &lb : report.buffers)
          if (lb.name == graph.units[r.unit].name)
            allowed = std::min(allowed, lb.copies - 1);
    std::pair<int64_t, int> got = plan()[d];
    if (allowed != INT64_MAX && (got.second < 0 || -got.first > allowed)) {
      // Retire the group of `allowed` iterations ago by the end of this one.
      int64_t w = nd - (-allowed * nd + body[d].dotPos) - 1;
      endWait = endWait < 0 ? w : std::min<int64_t>(endWait, w);
    }
  }
  std::vector<std::pair<int64_t, int>> best = plan();
  for (unsigned d = 0; d < body.size(); ++d) {
    if (!body[d].dot || best[d].second < 0)
      continue;
    auto &list = best[d].second < static_cast<int>(body.size())
                     ? body[best[d].second].releases
                     : endReleases;
    list.push_back({d, best[d].first});
  }
  return success();
}

LogicalResult AttentionLowering::layoutSharedMemory() {
  // Barriers: two per ring buffer, one for the tiles loaded before the loop.
  int64_t barrier = 0;
  for (Ring &r : rings) {
    for (const LoadBuffers &b : report.buffers)
      if (b.name == graph.units[r.unit].name)
        r.copies = b.copies;
    r.fullBar = barrier;
    r.emptyBar = barrier + 8 * r.copies;
    barrier += 16 * r.copies;
  }
  residentBar = barrier;
  barrier += 8;
  if (barrier > 1024)
    return kernel.emitError("tile-lower-to-nvvm: too many buffers (")
           << barrier / 16 << "); the barrier area holds 64";
  int64_t offset = 1024;
  for (Resident &r : residents) {
    r.offset = offset;
    offset += alignTo(r.tile.bytes, 1024);
  }
  for (Ring &r : rings) {
    r.stride = alignTo(r.tile.bytes, 1024);
    r.offset = offset;
    offset += r.copies * r.stride;
  }
  // The output is staged where the first resident tile was (every consumer
  // has passed its last dot by then), else after everything.
  int64_t staging = store.getDesc().getType().getBoxBytes();
  if (!residents.empty() && alignTo(residents[0].tile.bytes, 1024) >= staging) {
    stagingOffset = residents[0].offset;
    smemBytes = offset;
  } else {
    stagingOffset = offset;
    smemBytes = offset + staging;
  }
  if (smemBytes > kMaxDynamicSmem)
    return kernel.emitError("tile-lower-to-nvvm: the kernel needs ")
           << smemBytes << " bytes of shared memory; an H100 block has "
           << kMaxDynamicSmem;
  return success();
}

//===----------------------------------------------------------------------===//
// Register tensors
//===----------------------------------------------------------------------===//

Value AttentionLowering::elemAt(const Frag &f, Layout result, int64_t i) {
  switch (f.layout.kind) {
  case Kind::Splat: return f.regs[0];
  case Kind::Rows:
  case Kind::RowView:
    return result.kind == Kind::Tile ? f.regs[(i >> 1) & 1] : f.regs[i];
  default: return f.regs[i];
  }
}

Frag AttentionLowering::materialize(Emitter &e, const Frag &f, Layout to) {
  if (f.layout == to)
    return f;
  Frag out{to, {}};
  for (int64_t i = 0; i < to.regs(); ++i)
    out.regs.push_back(elemAt(f, to, i));
  return out;
}

Frag AttentionLowering::zeroFrag(Emitter &e, Layout l) {
  Value z = l.kind == Kind::Packed
                ? e.c32(0)
                : arith::ConstantOp::create(e.b, e.loc, e.b.getF32FloatAttr(0.0f)).getResult();
  return Frag{l, SmallVector<Value>(l.regs(), z)};
}

Frag AttentionLowering::lookup(Value v, const BodyUnit *user) {
  if (auto it = local.find(v); it != local.end())
    return it->second;
  if (!user)
    return outside.lookup(v);
  auto [def, back] = resolve(v, *user);
  if (back < 0)
    return outside.lookup(v);
  Frag f = back == 0 ? cur.lookup(def) : hist.lookup(def)[back - 1];
  // Source iteration 0 reads a loop-carried value as the loop's init. When
  // the unit making it runs in a later kernel iteration than its first, its
  // "iteration -1" ran predicated off and left no init behind: select it.
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg && arg.getOwner() == loop.getBody() && body[bodyIndexOf(def.getDefiningOp())].off > 0) {
    Frag init = materialize(*emitter, outside.lookup(loop.getInitArgs()[arg.getArgNumber() - 1]),
                            f.layout);
    Value first = emitter->cmp(CmpIPredicate::eq, curSrc, emitter->c32(0));
    for (auto [r, i] : llvm::zip(f.regs, init.regs))
      r = arith::SelectOp::create(emitter->b, emitter->loc, first, i, r);
    local[v] = f;
  }
  return f;
}

Value AttentionLowering::maskTile(Emitter &e, MaskOp mask, Value src, Value in,
                                  int64_t i) {
  // Element i of this thread: row row0 + 8*((i>>1)&1), column
  // col0 + 8*(i/4) + (i&1).
  IRMapping map = frame->base;
  map.map(loop.getInductionVar(), e.add(lb, e.mul(src, step)));
  Value q0 = frame->lowerIndex(e, mask.getRowOffset(), map);
  Value k0 = frame->lowerIndex(e, mask.getColOffset(), map);
  Value limit = frame->lowerIndex(e, mask.getColLimit(), map);
  Value row = e.add(q0, e.add(row0, e.c32(8 * ((i >> 1) & 1))));
  Value col = e.add(k0, e.add(col0, e.c32(8 * (i / 4) + (i & 1))));
  Value out = e.cmp(CmpIPredicate::sge, col, limit);
  if (mask.getCausal())
    out = arith::OrIOp::create(e.b, e.loc, out, e.cmp(CmpIPredicate::sgt, col, row));
  Value ninf = arith::ConstantOp::create(
      e.b, e.loc, e.b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  return arith::SelectOp::create(e.b, e.loc, out, ninf, in);
}

void AttentionLowering::evalOp(Emitter &e, Operation *op, Value src) {
  const BodyUnit *user = nullptr;
  if (int d = bodyIndexOf(op); d >= 0)
    user = &body[d];
  Value result = op->getResult(0);
  Layout l = layouts.lookup(result);
  Frag out{l, {}};
  auto operand = [&](unsigned i) { return lookup(op->getOperand(i), user); };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    float v = cast<DenseElementsAttr>(c.getValue()).getSplatValue<APFloat>().convertToFloat();
    out.regs.push_back(arith::ConstantOp::create(e.b, e.loc, e.b.getF32FloatAttr(v)));
  } else if (auto m = dyn_cast<MaskOp>(op)) {
    Frag in = operand(0);
    // Only tiles that reach past the key limit or, causal, above the
    // diagonal need the per-element test.
    IRMapping map = frame->base;
    map.map(loop.getInductionVar(), e.add(lb, e.mul(src, step)));
    Value k0 = frame->lowerIndex(e, m.getColOffset(), map);
    Value q0 = frame->lowerIndex(e, m.getRowOffset(), map);
    Value kEnd = e.add(k0, e.c32(l.cols));
    Value partial = e.cmp(CmpIPredicate::sgt, kEnd, frame->lowerIndex(e, m.getColLimit(), map));
    if (m.getCausal())
      partial = arith::OrIOp::create(e.b, e.loc, partial,
                                     e.cmp(CmpIPredicate::sgt, e.sub(kEnd, e.c32(1)), q0));
    ValueRange masked = e.ifYield(partial, in.regs, [&] {
      SmallVector<Value> r;
      for (int64_t i = 0; i < l.regs(); ++i)
        r.push_back(maskTile(e, m, src, in.regs[i], i));
      return r;
    });
    out.regs.assign(masked.begin(), masked.end());
  } else if (auto r = dyn_cast<ReduceOp>(op)) {
    Frag in = operand(0);
    bool isMax = r.getKind() == ReduceKind::Max;
    auto combine = [&](Value a, Value b) -> Value {
      if (isMax)
        return arith::MaximumFOp::create(e.b, e.loc, a, b);
      return arith::AddFOp::create(e.b, e.loc, a, b);
    };
    for (int h = 0; h < 2; ++h) {
      Value acc;
      for (int64_t i = 0; i < in.layout.regs(); ++i)
        if (((i >> 1) & 1) == h)
          acc = acc ? combine(acc, in.regs[i]) : in.regs[i];
      acc = combine(acc, e.shflXor(acc, 1));
      acc = combine(acc, e.shflXor(acc, 2));
      out.regs.push_back(acc);
    }
  } else if (isa<BroadcastOp>(op)) {
    out.regs = operand(0).regs;
  } else if (isa<arith::TruncFOp>(op)) {
    Frag in = operand(0);
    for (int64_t q = 0; q < l.regs(); ++q)
      out.regs.push_back(e.packBF16(in.regs[2 * q], in.regs[2 * q + 1]));
  } else if (isa<math::Exp2Op>(op)) {
    Frag in = operand(0);
    for (int64_t i = 0; i < l.regs(); ++i)
      out.regs.push_back(e.ex2(elemAt(in, l, i)));
  } else {
    // Binary elementwise arith on f32: the same op on each register.
    Frag a = operand(0), b = operand(1);
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : op->getAttrs())
      if (attr.getName() != "tile.sched")
        attrs.push_back(attr);
    for (int64_t i = 0; i < l.regs(); ++i) {
      OperationState st(op->getLoc(), op->getName(),
                        ValueRange{elemAt(a, l, i), elemAt(b, l, i)},
                        TypeRange{e.f32()}, attrs);
      out.regs.push_back(e.b.create(st)->getResult(0));
    }
  }
  local[result] = out;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

void AttentionLowering::emitProduce(Emitter &e, const Ring &ring, Value src) {
  frame->produce(e, loop, trip, ring.load,
                 {ring.copies, ring.offset, ring.stride, ring.fullBar, ring.emptyBar}, src);
}

void AttentionLowering::emitProducerLoop(Emitter &e, Value tid) {
  Value end = e.add(nIter, e.c32(pMax - pMin));
  auto kloop = scf::ForOp::create(e.b, e.loc, e.c32(0), end, e.c32(1));
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPoint(kloop.getBody()->getTerminator());
  Value kit = kloop.getInductionVar();
  for (unsigned u : loadUnits) {
    int64_t off = effectiveSchedule(graph, graph.initialSchedule, u).stage - pMin;
    Value src = e.sub(kit, e.c32(off));
    Value inRange = e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                           e.cmp(CmpIPredicate::slt, src, nIter));
    for (const Ring &r : rings)
      if (r.unit == u)
        e.ifThen(inRange, [&] { emitProduce(e, r, src); });
  }
}

SmallVector<Value> AttentionLowering::emitDot(Emitter &e, BodyUnit &u, Value src) {
  DotOp d = u.dot;
  const Ring *rb = ringOf(d.getB());
  const Ring *ra = ringOf(d.getA());
  auto slotBase = [&](const Ring *r) {
    Value slot = e.remu(src, e.c32(r->copies));
    Value parity = e.andi(e.divu(src, e.c32(r->copies)), e.c32(1));
    e.mbarrierWait(e.smemPtr(e.add(e.c32(r->fullBar), e.mul(slot, e.c32(8)))), parity);
    return e.smemAddr32(e.smemPtr(e.add(e.c32(r->offset), e.mul(slot, e.c32(r->stride)))));
  };
  Value baseB = slotBase(rb);
  Value baseA;
  const SmemTile *tileA = nullptr;
  if (ra) {
    baseA = ra == rb ? baseB : slotBase(ra);
    tileA = &ra->tile;
  } else if (auto load = d.getA().getDefiningOp<LoadOp>()) {
    for (const Resident &r : residents)
      if (const_cast<Resident &>(r).load == load) {
        baseA = e.smemAddr32(e.smemPtr(r.offset));
        tileA = &r.tile;
      }
  }
  Value cwg = e.divu(e.sub(e.threadIdx(), e.c32(producerGroup >= 0 ? 128 : 0)), e.c32(128));
  Frag accIn = lookup(d.getAcc(), &u);
  bool zeroAcc = accIn.layout.kind == Kind::Splat;
  SmallVector<Value> acc;
  if (zeroAcc) {
    Value undef = LLVM::UndefOp::create(e.b, e.loc, e.f32());
    acc.assign(d.getN() / 2, undef);
  } else {
    acc = accIn.regs;
  }
  Frag aRegs = tileA ? Frag{} : lookup(d.getA(), &u);
  const SmemTile &tb = rb->tile;
  // One descriptor per operand, pinned here (opaque to LLVM's loop
  // invariant motion: hoisted, the 2 x K/16 descriptors of a loop-invariant
  // operand such as Q would stay live in registers through the whole
  // loop); each k step adds its byte offset / 16 to the start address.
  Value descB0 = e.pinned(d.getTransposeB()
                              ? e.wgmmaDescriptor(baseB)
                              : e.wgmmaDescriptor(baseB, /*leadingBytes=*/tb.panelBytes,
                                                  /*strideBytes=*/1024));
  Value descA0;
  if (tileA)
    descA0 = e.pinned(e.wgmmaDescriptor(e.add(baseA, e.mul(cwg, e.c32(64 * 128)))));
  auto step = [&](Value desc, int64_t bytes) {
    return bytes ? arith::AddIOp::create(e.b, e.loc, desc, e.c64(bytes >> 4)).getResult() : desc;
  };
  e.wgmmaFence();
  for (int64_t kk = 0; kk < d.getK() / 16; ++kk) {
    // K-major: k runs along the 128-byte rows, then to the next panel;
    // MN-major: k runs down the rows (N spans panels, the leading offset).
    Value descB = step(descB0, d.getTransposeB()
                                   ? (kk / 4) * tb.panelBytes + (kk % 4) * 32
                                   : kk * 16 * 128);
    Value scaleD = e.c32(zeroAcc && kk == 0 ? 0 : 1);
    if (tileA) {
      Value descA = step(descA0, (kk / 4) * tileA->panelBytes + (kk % 4) * 32);
      acc = e.wgmmaRegs(d.getN(), {}, descA, descB, acc, scaleD, !d.getTransposeB());
    } else {
      SmallVector<Value> a(aRegs.regs.begin() + 4 * kk, aRegs.regs.begin() + 4 * kk + 4);
      acc = e.wgmmaRegs(d.getN(), a, Value(), descB, acc, scaleD, !d.getTransposeB());
    }
  }
  return acc;
}

void AttentionLowering::emitRelease(Emitter &e, const BodyUnit &du, int64_t rel,
                                    Value kit) {
  // The group of dot `du` issued `-rel` kernel iterations ago has retired:
  // its source iteration's buffers go back to the producer, one arrival per
  // consumer warp.
  Value src = e.sub(e.add(kit, e.c32(rel)), e.c32(du.off));
  Value ctid = e.sub(e.threadIdx(), e.c32(producerGroup >= 0 ? 128 : 0));
  Value lane0 = e.cmp(CmpIPredicate::eq, e.remu(ctid, e.c32(32)), e.c32(0));
  Value ok = e.land(e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                           e.cmp(CmpIPredicate::slt, src, nIter)),
                    lane0);
  e.ifThen(ok, [&] {
    SmallVector<const Ring *> done;
    for (Value v : {du.dot.getA(), du.dot.getB()})
      if (const Ring *r = ringOf(v); r && !llvm::is_contained(done, r)) {
        done.push_back(r);
        Value slot = e.remu(src, e.c32(r->copies));
        e.mbarrierArrive(e.smemPtr(e.add(e.c32(r->emptyBar), e.mul(slot, e.c32(8)))));
      }
  });
}

void AttentionLowering::emitUnit(Emitter &e, BodyUnit &u, Value kit) {
  Value src = e.sub(kit, e.c32(u.off));
  Value inRange = e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                         e.cmp(CmpIPredicate::slt, src, nIter));
  if (u.wait >= 0) {
    // Tie the dot results this unit reads through the wait.
    SmallVector<Value> regs;
    SmallVector<std::pair<Value, int64_t>> where;
    for (Value v : u.tied) {
      auto [def, back] = resolve(v, u);
      Frag f = back == 0 ? cur.lookup(def) : hist.lookup(def)[back - 1];
      regs.append(f.regs.begin(), f.regs.end());
      where.push_back({def, back});
    }
    SmallVector<Value> tied = e.wgmmaWaitTie(u.wait, regs);
    unsigned k = 0;
    for (auto [def, back] : where) {
      Frag &f = back == 0 ? cur[def] : hist[def][back - 1];
      for (Value &r : f.regs)
        r = tied[k++];
    }
    for (auto [d, rel] : u.releases)
      emitRelease(e, body[d], rel, kit);
  }
  if (u.isLoad) {
    Value ctid = e.sub(e.threadIdx(), e.c32(producerGroup >= 0 ? 128 : 0));
    for (const Ring &r : rings)
      if (r.unit == u.unit)
        e.ifThen(e.land(inRange, e.cmp(CmpIPredicate::eq, ctid, e.c32(0))),
                 [&] { emitProduce(e, r, src); });
    return;
  }
  // Values of this unit that others read, and what they are when the unit
  // is predicated off. Those are never read (source iteration 0 selects
  // the loop's init, the loop's results come from the iteration that made
  // them), so: a dot passes its accumulator input through, which keeps its
  // registers one set through the branch (a wgmma may still be writing
  // them); other units give undef (no moves, no extra live registers).
  SmallVector<Value> exports;
  SmallVector<Value> prev;
  for (Operation *op : u.ops) {
    Value r = op->getResult(0);
    bool used = carried.count(r) ||
                llvm::any_of(r.getUsers(), [&](Operation *user) {
                  return bodyIndexOf(user) != bodyIndexOf(op);
                });
    if (!used)
      continue;
    exports.push_back(r);
    Layout l = layouts.lookup(r);
    if (u.dot) {
      curSrc = src;
      local.clear();
      Frag acc = lookup(u.dot.getAcc(), &u);
      local.clear();
      if (acc.layout.kind == Kind::Splat)
        prev.append(l.regs(), LLVM::UndefOp::create(e.b, e.loc, e.f32()).getResult());
      else
        prev.append(acc.regs.begin(), acc.regs.end());
      continue;
    }
    Type t = l.kind == Kind::Packed ? e.i32() : e.f32();
    prev.append(l.regs(), LLVM::UndefOp::create(e.b, e.loc, t).getResult());
  }
  ValueRange results = e.ifYield(inRange, prev, [&]() -> SmallVector<Value> {
    local.clear();
    curSrc = src;
    if (u.dot) {
      Layout l = layouts.lookup(u.dot.getResult());
      local[u.dot.getResult()] = Frag{l, emitDot(e, u, src)};
    } else {
      for (Operation *op : u.ops)
        evalOp(e, op, src);
    }
    SmallVector<Value> flat;
    for (Value v : exports) {
      Frag f = materialize(e, local[v], layouts.lookup(v));
      flat.append(f.regs.begin(), f.regs.end());
    }
    local.clear();
    return flat;
  });
  unsigned k = 0;
  for (Value v : exports) {
    Layout l = layouts.lookup(v);
    Frag f{l, {}};
    for (int64_t i = 0; i < l.regs(); ++i)
      f.regs.push_back(results[k++]);
    cur[v] = f;
  }
  if (u.dot)
    e.wgmmaCommit(); // also when predicated off: group counts stay static
}

void AttentionLowering::emitKernelIteration(Emitter &e, Value kit,
                                            ValueRange carriedIn) {
  unsigned k = 0;
  hist.clear();
  cur.clear();
  for (auto &[v, copies] : carried) {
    Layout l = layouts.lookup(v);
    for (int64_t c = 0; c < copies; ++c) {
      Frag f{l, {}};
      for (int64_t i = 0; i < l.regs(); ++i)
        f.regs.push_back(carriedIn[k++]);
      hist[v].push_back(f);
    }
  }
  for (BodyUnit &u : body)
    emitUnit(e, u, kit);
  if (endWait >= 0) {
    SmallVector<Value> regs;
    for (Value v : endTied)
      regs.append(cur[v].regs.begin(), cur[v].regs.end());
    SmallVector<Value> tied = e.wgmmaWaitTie(endWait, regs);
    unsigned t = 0;
    for (Value v : endTied)
      for (Value &r : cur[v].regs)
        r = tied[t++];
    for (auto [d, rel] : endReleases)
      emitRelease(e, body[d], rel, kit);
  }
}

SmallVector<Value> AttentionLowering::carriedYields() {
  SmallVector<Value> yields;
  for (auto &[v, copies] : carried) {
    Frag newest = cur.count(v) ? cur[v] : hist[v][0];
    yields.append(newest.regs.begin(), newest.regs.end());
    for (int64_t c = 0; c + 1 < copies; ++c)
      yields.append(hist[v][c].regs.begin(), hist[v][c].regs.end());
  }
  return yields;
}

void AttentionLowering::emitConsumer(Emitter &e, Value ctid) {
  lane = e.remu(ctid, e.c32(32));
  Value warp = e.remu(e.divu(ctid, e.c32(32)), e.c32(4));
  Value cwg = e.divu(ctid, e.c32(128));
  row0 = e.add(e.add(e.mul(cwg, e.c32(64)), e.mul(warp, e.c32(16))),
               e.divu(lane, e.c32(4)));
  col0 = e.mul(e.remu(lane, e.c32(4)), e.c32(2));
  if (!residents.empty())
    e.mbarrierWait(e.smemPtr(residentBar), e.c32(0));

  // Values from before the loop.
  local.clear();
  Block &entry = kernel.getBody().front();
  for (Operation &op : entry) {
    if (&op == loop.getOperation())
      break;
    if (isa<arith::ConstantOp>(op) && isa<RankedTensorType>(op.getResult(0).getType())) {
      evalOp(e, &op, Value());
      outside[op.getResult(0)] = local[op.getResult(0)];
    }
  }
  local.clear();

  // The kernel loop runs kernel iterations 0 .. K-2 (K = trip count + the
  // group's stage span); the last one is peeled after it, so that values
  // made in it are read directly instead of being carried around the loop.
  // Its iter_args are the carried copies, newest first.
  SmallVector<Value> inits;
  for (auto &[v, copies] : carried) {
    Layout l = layouts.lookup(v);
    int yi = yieldedIndex(v);
    Frag init = yi >= 0 ? materialize(e, outside.lookup(loop.getInitArgs()[yi]), l)
                        : zeroFrag(e, l);
    for (int64_t c = 0; c < copies; ++c)
      inits.append(init.regs.begin(), init.regs.end());
  }
  Value total = e.add(nIter, e.c32(cMax - cMin));
  Value last = e.sub(total, e.c32(1));
  auto kloop = scf::ForOp::create(e.b, e.loc, e.c32(0), last, e.c32(1), inits);
  {
    OpBuilder::InsertionGuard guard(e.b);
    if (!kloop.getBody()->empty())
      kloop.getBody()->getTerminator()->erase();
    e.b.setInsertionPointToStart(kloop.getBody());
    emitKernelIteration(e, kloop.getInductionVar(), kloop.getRegionIterArgs());
    scf::YieldOp::create(e.b, e.loc, carriedYields());
  }

  // The last kernel iteration (none when the loop has no iterations at
  // all: then the results are the loop's inits).
  SmallVector<Value> initFinals;
  SmallVector<std::pair<Value, Layout>> order;
  for (auto [i, r] : llvm::enumerate(loop.getResults())) {
    Layout l = canonical(r.getType());
    Frag f = materialize(e, outside.lookup(loop.getInitArgs()[i]), l);
    initFinals.append(f.regs.begin(), f.regs.end());
    order.push_back({r, l});
  }
  ValueRange finals = e.ifYield(
      e.cmp(CmpIPredicate::sgt, total, e.c32(0)), initFinals,
      [&]() -> SmallVector<Value> {
        emitKernelIteration(e, last, kloop.getResults());
        // Source iteration nIter-1 of a unit in stage offset o ran
        // (span - o) kernel iterations before this last one.
        SmallVector<Value> flat;
        for (Value y : loop.getBody()->getTerminator()->getOperands()) {
          int64_t back = cMax - cMin - body[bodyIndexOf(y.getDefiningOp())].off;
          Frag f = back == 0 ? cur[y] : hist[y][back - 1];
          flat.append(f.regs.begin(), f.regs.end());
        }
        return flat;
      });
  // Every wgmma retired before the results are read.
  SmallVector<Value> tied = e.wgmmaWaitTie(0, SmallVector<Value>(finals));
  unsigned k = 0;
  for (auto [r, l] : order) {
    Frag f{l, {}};
    for (int64_t i = 0; i < l.regs(); ++i)
      f.regs.push_back(tied[k++]);
    outside[r] = f;
  }
  // After the loop: math on the results, then the store.
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      emitStore(e, s);
      continue;
    }
    if (op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()))
      continue;
    local.clear();
    evalOp(e, op, Value());
    outside[op->getResult(0)] = local[op->getResult(0)];
  }
  local.clear();
}

void AttentionLowering::emitStore(Emitter &e, StoreOp s) {
  Frag v = outside.lookup(s.getValue());
  auto shape = cast<RankedTensorType>(s.getValue().getType()).getShape();
  int64_t rowBytes = shape.back() * 2;
  Value ctid = e.sub(e.threadIdx(), e.c32(producerGroup >= 0 ? 128 : 0));
  // The staging tile overlays Q: every consumer warp group must be past its
  // last dot first.
  e.namedBarrier(1, 128 * consumerWGs);
  for (int64_t q = 0; q < v.layout.regs(); ++q) {
    // Register q holds columns 8*(q/2) + col0 (+1) of row row0 + 8*(q%2).
    Value row = e.add(row0, e.c32(8 * (q % 2)));
    Value col = e.add(col0, e.c32(8 * (q / 2)));
    Value offset = e.add(e.c32(stagingOffset),
                         e.add(e.mul(row, e.c32(rowBytes)), e.mul(col, e.c32(2))));
    LLVM::StoreOp::create(e.b, e.loc, v.regs[q], e.smemPtr(offset));
  }
  e.fenceProxyAsyncShared();
  e.namedBarrier(1, 128 * consumerWGs);
  e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] {
    IRMapping map = frame->base;
    SmallVector<Value> coords;
    for (Value c : llvm::reverse(s.getCoords()))
      coords.push_back(frame->lowerIndex(e, c, map));
    auto arg = cast<BlockArgument>(s.getDesc());
    e.tmaStore(frame->fn.getArgument(arg.getArgNumber()), e.smemPtr(stagingOffset),
               coords);
    e.tmaStoreCommitAndWait();
  });
}

void AttentionLowering::emit() {
  OpBuilder b(kernel.getContext());
  Location loc = kernel.getLoc();
  Emitter e(b, loc);
  emitter = &e;
  frame.emplace(b, kernel, threads, smemBytes);

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
    e.mbarrierInit(e.smemPtr(residentBar), 1);
  });
  e.syncThreads();
  if (!residents.empty())
    e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] {
      int64_t bytes = 0;
      for (const Resident &r : residents)
        bytes += r.tile.bytes;
      Value bar = e.smemPtr(residentBar);
      e.mbarrierArriveExpectTx(bar, bytes);
      for (const Resident &r : residents) {
        IRMapping map = frame->base; // index math local to this region
        SmallVector<Value> coords;
        for (Value c : llvm::reverse(const_cast<Resident &>(r).load.getCoords()))
          coords.push_back(frame->lowerIndex(e, c, map));
        e.tmaLoadPanels(e.smemPtr(r.offset), frame->fn.getArgument(r.descArg), coords,
                        bar, r.tile.panels, r.tile.panelCols, r.tile.panelBytes);
      }
    });

  if (producerGroup >= 0) {
    Value isProducer = e.cmp(CmpIPredicate::ult, tid, e.c32(128));
    auto branch = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    e.setMaxRegisters(producerRegs, /*increase=*/false);
    e.ifThen(e.cmp(CmpIPredicate::eq, tid, e.c32(0)), [&] { emitProducerLoop(e, tid); });
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    e.setMaxRegisters(consumerRegs, /*increase=*/true);
    emitConsumer(e, e.sub(tid, e.c32(128)));
  } else {
    emitConsumer(e, tid);
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());
}

} // namespace

bool stagecraft::isAttentionKernel(func::FuncOp kernel) {
  int dots = 0;
  kernel.walk([&](scf::ForOp loop) {
    for (Operation &op : loop.getBody()->without_terminator())
      dots += isa<DotOp>(op);
  });
  return dots > 1;
}

LogicalResult stagecraft::lowerAttentionKernel(func::FuncOp kernel) {
  return AttentionLowering(kernel).run();
}
