//===- ConsumerLoop.cpp - the consumer warp groups' code ------------------===//
//
// The consumers run the ops before the loop, the kernel loop over kernel
// iterations 0 .. K-2 (K = trip count + the group's stage span), the last
// kernel iteration peeled after it (so that values made in it are read
// directly instead of being carried around the loop), and the ops after the
// loop with the stores. In each kernel iteration every unit runs, in body
// order, on its source iteration (Expansion.cpp), predicated off outside
// the trip count; a unit's exported values pass through the predicate as
// undef (never read: source iteration 0 reads loop-carried values as the
// loop's init, the loop's results come from the iteration that made them)
// or, for a dot, as its accumulator input, which keeps its registers one set
// while a wgmma may still be writing them.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/ConsumerLoop.h"
#include "passes/Lowering/Tcgen05.h"
#include "passes/Lowering/TimelineProbes.h"
#include "passes/Lowering/patterns/Memory.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {
// Named barriers of the consumers: 1 their epilogue (cooperative), 2 the
// upcasts (patterns/Upcast.cpp), 3 sm_100a's (Tcgen05.cpp); ping-pong (no
// upcasts, sm_90a): each team's epilogue and each team's turn at the
// tensor cores.
constexpr int kEpilogueBarrier = 1;
constexpr int kTeamEpilogueBarrier = 4; // + team
constexpr int kTeamTurnBarrier = 6;     // + team


/// A dot accumulating into its own iter_arg, which starts at zero and which
/// nothing else reads: its first source iteration takes wgmma's scale-d = 0
/// instead of zeroed accumulators, so no instruction but a wgmma ever
/// defines them.
DotOp zeroStartedSelfDot(scf::ForOp loop, Value v);

bool isZeroSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  if (!c)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  return dense && dense.isSplat() && isa<FloatType>(dense.getElementType()) &&
         dense.getSplatValue<APFloat>().isPosZero();
}

DotOp zeroStartedSelfDot(scf::ForOp loop, Value v) {
  auto dot = v.getDefiningOp<DotOp>();
  if (!dot)
    return {};
  auto arg = dyn_cast<BlockArgument>(dot.getAcc());
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
    return {};
  unsigned i = arg.getArgNumber() - 1;
  if (loop.getBody()->getTerminator()->getOperand(i) != v || !isZeroSplat(loop.getInitArgs()[i]))
    return {};
  // Read by anything but its dot (a linear attention's state, converted
  // for another dot before it is updated), the zero is a value its first
  // iteration reads: left undef, those registers' garbage went out as the
  // first chunk's output (the twelfth sweep's l01, NaN on the H200).
  if (!arg.hasOneUse())
    return {};
  return dot;
}

class ConsumerEmitter final : public RegisterContext {
public:
  ConsumerEmitter(Emitter &e, KernelPlan &p, WarpGroupFrame &frame, Value ctid)
      : RegisterContext(e, p.geom), p(p), frame(frame), ctid(ctid) {}

  void run();

  // RegisterContext.
  Frag operand(Operation *op, unsigned i) override {
    int d = p.bodyIndexOf(op);
    return lookup(op->getOperand(i), d >= 0 ? &p.body[d] : nullptr);
  }
  Value scalar(Value v) override { return frame.scalar(e, v, curSrc); }
  Value rowOf(const Layout &l, int64_t el) override;
  Value colOf(const Layout &l, int64_t el) override;
  Value threadIndex() override { return ctid; }
  Value exchangeBuffer() override { return e.c32(p.exchangeOffset); }
  void consumerBarrier() override { epilogueBarrier(); }
  bool needed(const Layout &l, int64_t el) override;

private:
  Frag lookup(Value v, const BodyUnit *user);
  /// A loaded tile where it lies in shared memory at the current source
  /// iteration (a ring slot, after waiting for it, or a resident).
  SmemRef smemOperand(Value v);
  /// The local ring slot a value is written to (LocalRings.h), or none.
  SmemRef localSlot(Value v);
  Frag readLoaded(Value v, const BodyUnit *user);
  Frag materialize(const Frag &f, const Layout &to);
  /// How a value crosses from the unit that makes it to others (and around
  /// the kernel loop): a 16-bit float tile packed in pairs, anything else
  /// as its elements.
  bool crossesPacked(Value v) const;
  int64_t storageCount(Value v) const;
  Frag exportForm(Value v, const Frag &f);
  Frag fromStorage(Value v, ValueRange regs);
  SmallVector<Value> undefStorage(Value v);
  void evalOp(Operation *op);
  void emitUnit(BodyUnit &u, Value kit);
  void emitDotUnit(BodyUnit &u, Value src);
  void emitReleases(ArrayRef<Release> releases, Value kit);
  void emitStore(StoreOp s, int64_t &panelsStored);
  /// `s` and the stores right after it (only panel ops between them) with
  /// its panels, when any two of them share panel math: stored panel by
  /// panel in turn (emitStoreGroup), so the shared math, which LLVM makes
  /// once, is live a panel at a time; else {s}.
  SmallVector<StoreOp> storeGroup(StoreOp s);
  void emitStoreGroup(ArrayRef<StoreOp> group, int64_t &panelsStored);
  /// The ops after the loop evaluated a store panel at a time: element-local
  /// (TilePattern::elementLocal) and read only by the epilogue's stores and
  /// by each other. The accumulators stay whole; a residual, a bias, an
  /// activation are then live a panel's columns at a time, not a tile's.
  void findPanelOps();
  /// The value a store writes, only its elements in columns [first, first +
  /// cols) made (the others poison): the panel ops it reads, re-evaluated.
  Frag panelValue(Value v, int64_t first, int64_t cols);
  /// A store in the loop, in its unit `u` at source iteration `src`.
  void emitLoopStore(StoreOp s, BodyUnit &u, Value src);
  /// The panels of `s` through the staging slots, each made (valueOf: its
  /// first column and width) and written a chunk of columns at a time: panel k in slot
  /// (first + k) % 2, after waiting until at most `pending` earlier stores
  /// still read the slots.
  void storePanels(StoreOp s, const std::function<Frag(int64_t, int64_t)> &valueOf,
                   ArrayRef<Value> tileCoords, Value first,
                   const std::function<int(int64_t)> &pending, int64_t panelBegin = 0,
                   int64_t panelEnd = -1);
  /// The team's consumers synchronize around a staging slot.
  void epilogueBarrier();
  /// One tile: the expanded loop, the peeled iteration, the ops after the
  /// loop and the stores.
  void emitTile();
  /// cwg, row0 and col0 from ctid.
  void placeThread();
  void emitKernelIteration(Value kit, ValueRange carriedIn);
  /// The kernel loop and its peeled last iteration (sm_90a); the loop's
  /// results in `outside`.
  void emitKernelLoop();
  SmallVector<Value> carriedYields();
  /// The iter_arg whose init a dot's accumulator input starts as (-1: none).
  /// A dot yielded for iter_arg i that runs after its group's first stage
  /// (off > 0) reads, at its source iteration -1, its accumulator input from
  /// that input's carried copies when a unit of the first stage (off 0) makes
  /// it: those copies' initial value. Predicated off there, the dot passes
  /// the input through; started as iter_arg i's init, it is exactly what
  /// source iteration 0 reads for i, so no select per iteration is needed
  /// (computation pipelining's MMA1 after the softmax's MUL: 64 selects per
  /// thread and iteration otherwise). sm_90a, where a dot's result is its
  /// accumulator registers.
  int accStartsAsInit(DotOp d) const;
  /// The dot whose accumulator input `v` is, when accStartsAsInit holds for it.
  DotOp accStartedBy(Value v) const;
  /// The iter_arg (-1: none) whose current value unit `u` exports as `r`
  /// while predicated off. A register unit after its group's first stage
  /// (off > 0) runs predicated off before source iteration 0; when `r` is
  /// yielded for iter_arg i, or is the accumulator input of a dot yielded
  /// for i, exporting iter_arg i there (inductively its init) instead of
  /// undef leaves the init in the carried copies, so source iteration 0
  /// needs no select per iteration (computation pipelining's MUL and
  /// softmax state a stage after the first dot). Past the trip count the
  /// export is never read.
  int passesInitAs(Value r, const BodyUnit &u) const;
  /// Whether the carried copies of iter_arg `i` hold its init until source
  /// iteration 0 reads them (the unit making it, or the accumulator input
  /// of the dot making it, passes the init through).
  bool carriesInit(unsigned i) const;
  Layout layoutOf(Value v) const { return p.layouts.lookup(v); }
  Type elemTypeOf(Value v) const { return cast<RankedTensorType>(v.getType()).getElementType(); }

  KernelPlan &p;
  WarpGroupFrame &frame;
  /// The consumer thread's index in its team (ping-pong: its warp group;
  /// else all consumers), its warp group in the team's tile, and its team.
  Value ctid, cwg, row0, col0, team;
  Value curSrc; // source iteration of the unit being emitted (null outside the loop)
  // The tile being emitted: earlier tiles' iterations (ring indices go on
  // from them) and its count (the tile rings' index).
  Value curBase, curTile;
  /// Staggered: whether the kernel iteration being emitted is the tile's
  /// last (i1).
  Value finalIteration;
  /// Whether the kernel iterations being emitted are the steady state
  /// (span .. trip-1), where every unit runs: no predicates, and units that
  /// write an accumulator wait only for its dot (BodyUnit::predicatedWait).
  bool steady = false;
  /// The registers of A the last register-A dot passed to its wgmmas; and,
  /// per such dot of this kernel iteration (its position among the dots),
  /// those registers, tied through the wait that retires its group so that
  /// nothing reuses them while the wgmma may still read them.
  SmallVector<Value> aPassed;
  struct InFlightA {
    int dotPos;
    SmallVector<Value> regs;
    /// The schedule keeps the dot in flight (`wait` >= 1) and register math
    /// of this iteration has been emitted since its issue.
    bool hold = false, mathAfter = false;
  };
  SmallVector<InFlightA> inFlightA;
  /// Appends to `regs` the in-flight A registers a wait of depth `pending`
  /// placed after `dotsIssued` dots of the iteration retires (and forgets
  /// them). Returns whether one of them is held under register math after
  /// it (the wait then needs the hold mark before it).
  bool retireA(int64_t pending, int dotsIssued, SmallVector<Value> &regs);
  /// A register-A dot whose schedule `wait` is at least 1 stays in flight
  /// under the register math after it, up to the wait that retires it. ptxas
  /// moves that wait up to the math's top otherwise (the SASS of Triton's
  /// cp-dot1-s3 and FlashAttention-3's order: WARPGROUP.DEPBAR.LE gsb0, 0x0
  /// before the softmax, bench/results/short-cp-h100-2026-11-27), and a
  /// store it cannot prove dead keeps it in place (Emitter::orderingStore).
  void emitHoldMark();
  DenseMap<Value, Frag> outside;           // values before and after the loop
  DenseMap<Value, Frag> cur;               // made in this kernel iteration
  DenseMap<Value, SmallVector<Frag>> hist; // made in earlier kernel iterations
  DenseMap<Value, Frag> local;             // within the unit being emitted
  llvm::SetVector<Operation *> panelOps;   // findPanelOps, in program order
  /// Columns [first, second) of the store panel being evaluated (needed).
  std::optional<std::pair<int64_t, int64_t>> panelColumns;
  /// Set while a store after the epilogue's first makes its panels, unless
  /// it shares transcendental math with an earlier store (sharesCostlyMath):
  /// the values its panel math reads from outside it (the loop's results)
  /// are read through opaque copies (readOpaque), so LLVM cannot merge the
  /// math with the same math an earlier store made, which keeps the earlier
  /// store's values of every panel live until this one's (the fifth sweep's
  /// B2: an FP8 GEMM's x / amax stored in e4m3 and e5m2 spilled 264 bytes;
  /// opaque, none and 6% faster). Where the shared math is transcendental
  /// (sigmoid stored, then sigmoid x tanh) the merge is kept: its spills
  /// (168 bytes) cost less than making the exponentials twice (2-3%,
  /// bench/results/opaque-reads-h200-2026-11-28).
  bool opaqueReads = false;
  Frag readOpaque(Frag f);
  /// The panel ops `v` reads, directly or through others.
  llvm::SmallPtrSet<Operation *, 16> panelSlice(Value v);
  /// The panel ops the tile's earlier stores made (emitStore).
  llvm::SmallPtrSet<Operation *, 16> storedSlices;
  /// The ops after the loop make a 2-d tile whole (not a store panel at a
  /// time: a reduction's input, a value a reduction reads), findPanelOps.
  bool epilogueHoldsWholeTiles = false;
};

Value ConsumerEmitter::rowOf(const Layout &l, int64_t el) {
  int64_t block = 0, half = 0;
  if (l.kind == Kind::Tile) {
    TileElement t = tileElement(l.cols, el);
    block = t.block;
    half = t.half;
  } else if (l.kind == Kind::Rows || l.kind == Kind::RowView) {
    block = el / 2;
    half = el % 2;
  }
  return e.add(row0, e.c32(geom.blockStride * block + 8 * half));
}

Value ConsumerEmitter::colOf(const Layout &l, int64_t el) {
  int64_t colBlock = 0, pair = 0;
  if (l.kind == Kind::Tile) {
    TileElement t = tileElement(l.cols, el);
    colBlock = t.colBlock;
    pair = t.colPair;
  } else if (l.kind == Kind::Cols || l.kind == Kind::ColView) {
    colBlock = el / 2;
    pair = el % 2;
  }
  return e.add(col0, e.c32(8 * colBlock + pair));
}

Frag ConsumerEmitter::materialize(const Frag &f, const Layout &to) {
  if (f.layout == to)
    return f;
  Frag out{to, f.type, {}, f.packed ? false : f.unrounded};
  for (int64_t i = 0; i < to.count(geom); ++i)
    out.elems.push_back(f.packed ? element(f, to, i)
                                 : f.elems[sourceElement(f.layout, to, i, geom)]);
  return out;
}

bool ConsumerEmitter::crossesPacked(Value v) const {
  // 16-bit floats only: an FP8 tile crosses as its f32 values (a pair of
  // FP8 is 16 bits, not an i32; packed, a store in the loop of an FP8 tile
  // another unit made read past its elements and crashed the compiler:
  // the sixth held-out sweep's fp8_stream loops).
  Layout l = layoutOf(v);
  Type t = elemTypeOf(v);
  return l.kind == Kind::Tile && isa<FloatType>(t) && !t.isF32() && !isFp8(t);
}

int64_t ConsumerEmitter::storageCount(Value v) const {
  int64_t n = layoutOf(v).count(geom);
  return crossesPacked(v) ? n / 2 : n;
}

Frag ConsumerEmitter::exportForm(Value v, const Frag &given) {
  Layout l = layoutOf(v);
  Frag f = materialize(given, l);
  if (crossesPacked(v)) {
    if (f.packed)
      return f;
    Frag out{l, f.type, {}, false, true};
    for (int64_t i = 0; i < l.count(geom); i += 2) {
      // Raw elements: the pair conversion rounds unrounded values.
      out.elems.push_back(e.pack16(f.type, f.elems[i], f.elems[i + 1]));
    }
    return out;
  }
  if (f.unrounded && !holdsUnrounded(v)) {
    Frag out{l, f.type, {}, false};
    for (int64_t i = 0; i < l.count(geom); ++i)
      out.elems.push_back(element(f, l, i));
    return out;
  }
  f.unrounded = holdsUnrounded(v) || f.unrounded;
  return f;
}

Frag ConsumerEmitter::fromStorage(Value v, ValueRange regs) {
  bool packed = crossesPacked(v);
  return Frag{layoutOf(v), elemTypeOf(v), SmallVector<Value>(regs.begin(), regs.end()),
              !packed && holdsUnrounded(v), packed};
}

SmallVector<Value> ConsumerEmitter::undefStorage(Value v) {
  Type t = crossesPacked(v) ? e.i32() : carrierType(elemTypeOf(v));
  Value u = LLVM::UndefOp::create(e.b, e.loc, t);
  return SmallVector<Value>(storageCount(v), u);
}

SmemRef ConsumerEmitter::smemOperand(Value v) {
  if (const Resident *r = p.residentOf(v))
    return SmemRef{e.c32(r->offset), &r->tile};
  const Ring *r = p.ringOf(v);
  assert(r && curSrc && "placement: a tile read from shared memory is loaded");
  Value g = e.add(curBase, curSrc);
  frame.waitFull(e, *r, g);
  return SmemRef{frame.slotOffset(e, *r, g), &r->tile};
}

SmemRef ConsumerEmitter::localSlot(Value v) {
  const LocalRing *r = p.localOf(v);
  if (!r)
    return SmemRef{};
  // Counted across tiles, as the rings are (a persistent kernel).
  Value slot = e.remu(e.add(curBase, curSrc), e.c32(r->copies));
  return SmemRef{e.add(e.c32(r->offset), e.mul(slot, e.c32(r->stride))), &r->tile};
}

Frag ConsumerEmitter::readLoaded(Value v, const BodyUnit *user) {
  if (auto it = local.find(v); it != local.end())
    return it->second;
  if (const Resident *r = p.residentOf(v)) {
    // Residents outside the loop are read where they are used, once per unit.
    Frag f = readSmemTile(*this, SmemRef{e.c32(r->offset), &r->tile}, layoutOf(v));
    local[v] = f;
    return f;
  }
  if (const Ring *r = p.tileRingOf(v)) {
    // The tile's own load: waited for at the start of the tile.
    Frag f = readSmemTile(*this, SmemRef{frame.slotOffset(e, *r, curTile), &r->tile},
                          layoutOf(v));
    local[v] = f;
    return f;
  }
  const Ring *r = p.ringOf(v);
  assert(r && user && "a ring tile is read in the loop");
  Value g = e.add(curBase, curSrc);
  frame.waitFull(e, *r, g);
  Frag f = readSmemTile(*this, SmemRef{frame.slotOffset(e, *r, g), &r->tile}, layoutOf(v));
  local[v] = f;
  return f;
}

Frag ConsumerEmitter::lookup(Value v, const BodyUnit *user) {
  if (auto it = local.find(v); it != local.end())
    return it->second;
  if (v.getDefiningOp<LoadOp>())
    return readLoaded(v, user);
  if (!user && opaqueReads && panelColumns) // once per chunk: kept in local
    return local[v] = readOpaque(outside.lookup(v));
  if (!user)
    return outside.lookup(v);
  auto [def, back] = p.resolve(v, *user);
  if (back < 0) {
    // A constant in the loop body belongs to no unit: made where it is read.
    if (!outside.count(v) && v.getDefiningOp<arith::ConstantOp>()) {
      evalOp(v.getDefiningOp());
      return local[v];
    }
    return outside.lookup(v);
  }
  assert((back == 0 || static_cast<int64_t>(hist.lookup(def).size()) >= back) &&
         "a carried value read further back than its copies");
  Frag f = back == 0 ? cur.lookup(def) : hist.lookup(def)[back - 1];
  // Source iteration 0 reads a loop-carried value as the loop's init. When
  // the unit making it runs in a later kernel iteration than its first, its
  // "iteration -1" ran predicated off and left no init behind: select it.
  // A dot accumulating into its own iter_arg needs no select: while it is
  // predicated off it passes its accumulator through, so the carried copy
  // still holds the init.
  auto arg = dyn_cast<BlockArgument>(v);
  auto selfDot = def.getDefiningOp<DotOp>();
  bool keepsInit = (selfDot && (selfDot.getAcc() == v ||
                                (arg && accStartsAsInit(selfDot) == int(arg.getArgNumber()) - 1))) ||
                   (arg && arg.getArgNumber() > 0 && carriesInit(arg.getArgNumber() - 1));
  if (arg && arg.getOwner() == p.loop.getBody() && !keepsInit &&
      p.body[p.bodyIndexOf(def.getDefiningOp())].off > 0) {
    Frag init = outside.lookup(p.loop.getInitArgs()[arg.getArgNumber() - 1]);
    Value first = e.cmp(CmpIPredicate::eq, curSrc, e.c32(0));
    Frag out{f.layout, f.type, {}, false};
    for (int64_t i = 0; i < f.layout.count(geom); ++i) {
      // Both sides as exact values: the init may be rounded differently.
      Value a = element(init, f.layout, i), b = element(f, f.layout, i);
      out.elems.push_back(arith::SelectOp::create(e.b, e.loc, first, a, b));
    }
    local[v] = out;
    return out;
  }
  return f;
}

int ConsumerEmitter::accStartsAsInit(DotOp d) const {
  if (p.target.blackwell())
    return -1;
  int di = p.bodyIndexOf(d);
  Value a = d.getAcc();
  Operation *aDef = a.getDefiningOp();
  int ai = aDef ? p.bodyIndexOf(aDef) : -1;
  if (di < 0 || ai < 0 || p.body[di].off == 0 || p.body[ai].off != 0 || !p.carried.count(a))
    return -1;
  Operation *yield = p.loop.getBody()->getTerminator();
  int yi = -1;
  for (auto [i, y] : llvm::enumerate(yield->getOperands())) {
    if (y == a)
      return -1; // its carried copies start as its own init
    if (y == d.getResult())
      yi = int(i);
  }
  return yi;
}

int ConsumerEmitter::passesInitAs(Value r, const BodyUnit &u) const {
  if (p.target.blackwell() || u.dot || u.isLoad || u.off == 0)
    return -1;
  auto yielded = [&](Value y) {
    for (auto [i, o] : llvm::enumerate(p.loop.getBody()->getTerminator()->getOperands()))
      if (o == y)
        return int(i);
    return -1;
  };
  if (int i = yielded(r); i >= 0)
    return i;
  for (Operation *user : r.getUsers())
    if (auto d = dyn_cast<DotOp>(user); d && d.getAcc() == r && p.bodyIndexOf(d) >= 0)
      if (int i = yielded(d.getResult()); i >= 0)
        return i;
  return -1;
}

bool ConsumerEmitter::carriesInit(unsigned i) const {
  Value y = p.loop.getBody()->getTerminator()->getOperand(i);
  auto madeBy = [&](Value v) -> const BodyUnit * {
    Operation *def = v.getDefiningOp();
    int d = def ? p.bodyIndexOf(def) : -1;
    return d >= 0 ? &p.body[d] : nullptr;
  };
  const BodyUnit *u = madeBy(y);
  if (!u)
    return false;
  if (auto d = y.getDefiningOp<DotOp>()) {
    const BodyUnit *a = madeBy(d.getAcc());
    return a && passesInitAs(d.getAcc(), *a) == int(i);
  }
  return passesInitAs(y, *u) == int(i);
}

DotOp ConsumerEmitter::accStartedBy(Value v) const {
  for (Operation *user : v.getUsers())
    if (auto d = dyn_cast<DotOp>(user))
      if (d.getAcc() == v && accStartsAsInit(d) >= 0)
        return d;
  return {};
}

void ConsumerEmitter::evalOp(Operation *op) {
  Value result = op->getResult(0);
  if (auto up = dyn_cast<UpcastOp>(op)) {
    local[result] = emitUpcast(*this, up, smemOperand(up.getInput()), smemOperand(up.getScale()),
                               localSlot(result), layoutOf(result));
    return;
  }
  const TilePattern *pattern = findPattern(op);
  local[result] = pattern->emit(op, *this, layoutOf(result));
}

void ConsumerEmitter::emitDotUnit(BodyUnit &u, Value src) {
  DotOp d = u.dot;
  DotOperands ops;
  Value g = e.add(curBase, src);
  auto smem = [&](Value v) -> SmemRef {
    if (const Resident *r = p.residentOf(v))
      return SmemRef{e.c32(r->offset), &r->tile};
    if (const Ring *r = p.tileRingOf(v))
      return SmemRef{frame.slotOffset(e, *r, curTile), &r->tile};
    if (const Ring *r = p.ringOf(v))
      return SmemRef{frame.slotOffset(e, *r, g), &r->tile};
    if (p.localOf(v)) // written by its upcast, behind the upcast's barrier
      return localSlot(v);
    return SmemRef{};
  };
  const Ring *ra = p.ringOf(d.getA()), *rb = p.ringOf(d.getB());
  if (rb)
    frame.waitFull(e, *rb, g);
  if (ra && ra != rb)
    frame.waitFull(e, *ra, g);
  ops.a = smem(d.getA());
  ops.b = smem(d.getB());
  if (!ops.a)
    ops.aRegs = lookup(d.getA(), &u);
  ops.zeroAcc = isZeroSplat(d.getAcc());
  if (zeroStartedSelfDot(p.loop, d.getResult()))
    ops.firstScaleD = arith::ExtUIOp::create(
        e.b, e.loc, e.i32(), e.cmp(CmpIPredicate::ne, src, e.c32(0)));
  if (!ops.zeroAcc) {
    Frag acc = lookup(d.getAcc(), &u);
    Layout tile = Layout::tile(d.getN());
    for (int64_t i = 0; i < tile.count(geom); ++i)
      ops.acc.push_back(element(acc, tile, i));
  }
  aPassed.clear();
  ops.aPassed = &aPassed;
  SmallVector<Value> out = emitDot(e, d, geom, cwg, ops);
  local[d.getResult()] = Frag{Layout::tile(d.getN()), e.f32(), out, false};
}

/// Math that takes the special-function unit or a libdevice call (exp,
/// tanh, log, sin, erf, ...): not the math dialect's cheap ops.
static bool isTranscendental(Operation *op) {
  return isa<math::MathDialect>(op->getDialect()) &&
         !isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp, math::FloorOp,
              math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp>(op);
}

void ConsumerEmitter::emitStore(StoreOp s, int64_t &panelsStored) {
  // One panel at a time through two staging slots: wait until the store
  // that last used the slot has read it (the first panel of an epilogue
  // waits for all: its slot's last store may be the previous tile's last),
  // every consumer past that (and, the first time, past its last wgmma and
  // ring read: the slots overlay the rings), write, fence, synchronize, and
  // one thread stores the panel with TMA.
  local.clear();
  // A later store's addresses from a copy of the thread index of its own:
  // LLVM would otherwise share the element addresses of a tile two stores
  // read (C in f32 and in bf16, both of acc + R), each a register live from
  // the first store's panels to the second's (ptxas spilled them).
  Value outerCtid = ctid, outerCwg = cwg, outerRow0 = row0, outerCol0 = col0;
  if (panelsStored > 0) {
    ctid = e.pinned(ctid);
    placeThread();
  }
  auto restoreThread = llvm::make_scope_exit([&] {
    ctid = outerCtid, cwg = outerCwg, row0 = outerRow0, col0 = outerCol0;
  });
  // The tile's coordinates once, by every thread, before the first panel:
  // made in the storing thread's branch of each panel (a persistent kernel's
  // from its tile index, two integer divisions for a grouped order) they
  // sat between the panel's two barriers, every thread of the epilogue
  // waiting on one thread's division chain, once per panel.
  SmallVector<Value> tileCoords;
  for (Value c : llvm::reverse(s.getCoords()))
    tileCoords.push_back(frame.scalar(e, c));
  int64_t first = panelsStored;
  if (panelsStored == 0)
    storedSlices.clear();
  llvm::SmallPtrSet<Operation *, 16> slice = panelSlice(s.getValue());
  bool sharesCostlyMath = llvm::any_of(
      slice, [&](Operation *op) { return storedSlices.contains(op) && isTranscendental(op); });
  opaqueReads = panelsStored > 0 && !sharesCostlyMath;
  storedSlices.insert(slice.begin(), slice.end());
  auto plainReads = llvm::make_scope_exit([&] { opaqueReads = false; });
  SmemTile t = SmemTile::of(s.getDesc().getType());
  int64_t panelCols = s.getDesc().getType().getTileShape().size() == 2 ? t.panelCols : 0;
  storePanels(
      s,
      [&](int64_t firstCol, int64_t cols) {
        return panelCols > 0 ? panelValue(s.getValue(), firstCol, cols)
                             : lookup(s.getValue(), nullptr);
      },
      tileCoords, e.c32(first % 2), [&](int64_t k) { return first + k == 0 ? 0 : 1; });
  panelsStored += t.panels;
  local.clear();
}

SmallVector<StoreOp> ConsumerEmitter::storeGroup(StoreOp s) {
  SmallVector<StoreOp> group{s};
  auto twoD = [](StoreOp st) { return st.getDesc().getType().getTileShape().size() == 2; };
  if (!twoD(s))
    return group;
  SmemTile t = SmemTile::of(s.getDesc().getType());
  for (Operation *n = s->getNextNode(); n; n = n->getNextNode()) {
    if (panelOps.contains(n))
      continue;
    auto next = dyn_cast<StoreOp>(n);
    if (!next || !twoD(next))
      break;
    SmemTile u = SmemTile::of(next.getDesc().getType());
    if (u.rows != t.rows || u.panels != t.panels || u.panelCols != t.panelCols)
      break;
    group.push_back(next);
  }
  // The run in turn when any two of its stores share panel math (a sigmoid
  // chain and a tanh chain stored, then their product: the third shares
  // with both, the first two with nothing).
  llvm::SmallPtrSet<Operation *, 16> seen;
  bool shares = false;
  for (StoreOp st : group) {
    llvm::SmallPtrSet<Operation *, 16> slice = panelSlice(st.getValue());
    shares |= llvm::any_of(slice, [&](Operation *op) { return seen.contains(op); });
    seen.insert(slice.begin(), slice.end());
  }
  if (!shares)
    group.resize(1);
  return group;
}

void ConsumerEmitter::emitStoreGroup(ArrayRef<StoreOp> group, int64_t &panelsStored) {
  // Panel k of every store in turn, each through the next staging slot
  // (emitStore's protocol, one panel at a time): sigmoid(acc) stored, then
  // sigmoid(acc) x tanh(acc), made store after store, kept the first
  // store's sigmoids of every panel live until the second's (164-308 bytes
  // of spills, the fifth sweep's B2); in turn they are live a panel.
  local.clear();
  Value outerCtid = ctid, outerCwg = cwg, outerRow0 = row0, outerCol0 = col0;
  if (panelsStored > 0) { // as emitStore: a later store's own thread index
    ctid = e.pinned(ctid);
    placeThread();
  }
  auto restoreThread = llvm::make_scope_exit([&] {
    ctid = outerCtid, cwg = outerCwg, row0 = outerRow0, col0 = outerCol0;
  });
  if (panelsStored == 0)
    storedSlices.clear();
  SmallVector<SmallVector<Value>> coords;
  for (StoreOp s : llvm::to_vector(group)) {
    coords.emplace_back();
    for (Value c : llvm::reverse(s.getCoords()))
      coords.back().push_back(frame.scalar(e, c));
    llvm::SmallPtrSet<Operation *, 16> slice = panelSlice(s.getValue());
    storedSlices.insert(slice.begin(), slice.end());
  }
  int64_t panels = SmemTile::of(StoreOp(group.front()).getDesc().getType()).panels;
  for (int64_t panel = 0; panel < panels; ++panel)
    for (auto [stored, tileCoords] : llvm::zip(group, coords)) {
      StoreOp s = stored;
      int64_t k = panelsStored++;
      Value value = s.getValue();
      storePanels(
          s, [&](int64_t firstCol, int64_t cols) { return panelValue(value, firstCol, cols); },
          tileCoords, e.c32(((k - panel) % 2 + 2) % 2), [k](int64_t) { return k == 0 ? 0 : 1; },
          panel, panel + 1);
    }
  local.clear();
}

void ConsumerEmitter::findPanelOps() {
  // Backwards: an op's readers are decided before it.
  SmallVector<Operation *> after;
  for (Operation *op = p.loop->getNextNode(); op; op = op->getNextNode())
    after.push_back(op);
  for (Operation *op : llvm::reverse(after)) {
    if (op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()))
      continue;
    const TilePattern *pattern = findPattern(op);
    if (!pattern || !pattern->elementLocal())
      continue;
    bool panelRead = llvm::all_of(op->getResult(0).getUsers(), [&](Operation *user) {
      auto store = dyn_cast<StoreOp>(user);
      return panelOps.contains(user) ||
             (store && user->getBlock() == p.loop->getBlock() &&
              store.getDesc().getType().getTileShape().size() == 2);
    });
    if (panelRead && !op->getResult(0).use_empty())
      panelOps.insert(op);
  }
  for (Operation *op : after)
    if (op->getNumResults() == 1 && !panelOps.contains(op) && !isa<LoadOp>(op))
      if (auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType()); t && t.getRank() == 2)
        epilogueHoldsWholeTiles = true;
  // Program order, for evaluation.
  SmallVector<Operation *> ordered(panelOps.begin(), panelOps.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  panelOps.clear();
  panelOps.insert(ordered.begin(), ordered.end());
}

Frag ConsumerEmitter::panelValue(Value v, int64_t first, int64_t cols) {
  Operation *def = v.getDefiningOp();
  if (!def || !panelOps.contains(def))
    return lookup(v, nullptr);
  llvm::SmallPtrSet<Operation *, 16> slice = panelSlice(v);
  local.clear();
  panelColumns = std::make_pair(first, first + cols);
  for (Operation *op : panelOps)
    if (slice.contains(op))
      evalOp(op); // into local; loads it reads are read (the panel's columns) into local too
  Frag out = local.lookup(v);
  panelColumns.reset();
  local.clear();
  return out;
}

llvm::SmallPtrSet<Operation *, 16> ConsumerEmitter::panelSlice(Value v) {
  llvm::SmallPtrSet<Operation *, 16> slice;
  SmallVector<Operation *> work;
  if (Operation *def = v.getDefiningOp(); def && panelOps.contains(def))
    work.push_back(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!slice.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      if (Operation *d = operand.getDefiningOp(); d && panelOps.contains(d))
        work.push_back(d);
  }
  return slice;
}

Frag ConsumerEmitter::readOpaque(Frag f) {
  int64_t perElem = f.packed ? 2 : 1;
  for (auto [i, v] : llvm::enumerate(f.elems)) {
    Type t = v ? v.getType() : Type();
    if (!t || !(t.isF32() || t.isInteger(1) || t.isInteger(32) || t.isInteger(64)))
      continue;
    bool read = false;
    for (int64_t k = 0; k < perElem; ++k)
      read |= needed(f.layout, int64_t(i) * perElem + k);
    if (read)
      v = e.opaque(v);
  }
  return f;
}

bool ConsumerEmitter::needed(const Layout &l, int64_t el) {
  if (!panelColumns || l.kind != Kind::Tile)
    return true;
  int64_t col = 8 * tileElement(l.cols, el).colBlock;
  return col >= panelColumns->first && col < panelColumns->second;
}

void ConsumerEmitter::emitLoopStore(StoreOp s, BodyUnit &u, Value src) {
  // The loop's stores take the staging slots in turn, iteration after
  // iteration: the first panel of this one is panel src * P + k of the
  // loop's P a iteration. Each waits until only the other slot's store may
  // still read (the slots have a place of their own, WarpGroupFrame.cpp).
  int64_t perIteration = 0, before = 0;
  for (StoreOp other : p.loopStores) {
    int64_t panels = SmemTile::of(other.getDesc().getType()).panels;
    if (other == s)
      before = perIteration;
    perIteration += panels;
  }
  Frag value = lookup(s.getValue(), &u);
  SmallVector<Value> tileCoords;
  for (Value c : llvm::reverse(s.getCoords()))
    tileCoords.push_back(scalar(c));
  Value first = e.andi(e.add(e.mul(src, e.c32(perIteration)), e.c32(before)), e.c32(1));
  storePanels(
      s, [&](int64_t, int64_t) { return value; }, tileCoords, first, [](int64_t) { return 1; });
}

void ConsumerEmitter::storePanels(StoreOp s, const std::function<Frag(int64_t, int64_t)> &valueOf,
                                  ArrayRef<Value> tileCoords, Value first,
                                  const std::function<int(int64_t)> &pending, int64_t panelBegin,
                                  int64_t panelEnd) {
  SmemTile t = SmemTile::of(s.getDesc().getType());
  auto arg = cast<BlockArgument>(s.getDesc());
  // A panel is made and written a chunk of columns at a time, at most 32
  // elements of a thread's (a ping-pong warp group's 128 rows: 32 columns):
  // beside the accumulators, a residual's whole panel (64 registers)
  // spilled.
  // The chunk's width divides the panel's (16 columns times a power of two:
  // a warp group of three row blocks takes 16, not 21).
  // Much transcendental math an element (libdevice's functions inlined,
  // each with temporaries of its own) takes 16-column chunks: a GEMM
  // storing the sum of 20 functions of its tile kept 2.5 KB a thread on
  // the stack with 32 (0.8 KB with 16).
  bool twoD = s.getDesc().getType().getTileShape().size() == 2;
  int64_t costly = llvm::count_if(panelSlice(s.getValue()), isTranscendental);
  int64_t chunkLimit = costly >= 8 ? 16 : 64;
  int64_t chunkCols = std::min<int64_t>(t.panelCols, 16);
  while (twoD && chunkCols * 2 * geom.rowBlocks <= chunkLimit &&
         t.panelCols % (chunkCols * 2) == 0)
    chunkCols *= 2;
  if (!twoD)
    chunkCols = t.panelCols;
  // The last chunk may be narrower: a panel of 24, 40 or 56 columns (a
  // narrow tile) is not a multiple of 16, and rounding the count down left
  // its last 8 columns unwritten (the fifth sweep's g15: stale output).
  int64_t chunks = (t.panelCols + chunkCols - 1) / chunkCols;
  for (int64_t panel = panelBegin; panel < (panelEnd < 0 ? t.panels : panelEnd); ++panel) {
    auto chunkValue = [&](int64_t c) {
      return valueOf(panel * t.panelCols + c * chunkCols,
                     std::min(chunkCols, t.panelCols - c * chunkCols));
    };
    // The first chunk made before the slot's wait: the reads of shared
    // memory it starts overlap it.
    Frag firstChunk = chunkValue(0);
    Value parity = e.andi(e.add(first, e.c32(panel)), e.c32(1));
    Value slot = e.add(e.c32(p.stagingBase), e.mul(parity, e.c32(p.stagingSlotBytes)));
    if (p.teams > 1) // each team's two slots
      slot = e.add(slot, e.mul(team, e.c32(2 * p.stagingSlotBytes)));
    e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(e.b, e.loc, e.b.getI32IntegerAttr(pending(panel)),
                                           e.b.getUnitAttr());
    });
    epilogueBarrier();
    for (int64_t c = 0; c < chunks; ++c) {
      Frag value = c == 0 ? firstChunk : chunkValue(c);
      if (chunks > 1) // only the chunk's elements (needed)
        panelColumns = std::make_pair(panel * t.panelCols + c * chunkCols,
                                      panel * t.panelCols +
                                          std::min((c + 1) * chunkCols, t.panelCols));
      writeStagingPanel(*this, value, s, panel, slot);
      panelColumns.reset();
    }
    e.fenceProxyAsyncShared();
    epilogueBarrier();
    e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] {
      SmallVector<Value> coords(tileCoords);
      coords[0] = e.add(coords[0], e.c32(panel * t.panelCols));
      e.tmaStore(frame.arg(arg.getArgNumber()), e.smemPtr(slot), coords);
      NVVM::CpAsyncBulkCommitGroupOp::create(e.b, e.loc);
    });
  }
}

void ConsumerEmitter::epilogueBarrier() {
  if (p.teams > 1)
    e.namedBarrier(e.add(team, e.c32(kTeamEpilogueBarrier)), 128 * geom.wgs);
  else
    e.namedBarrier(kEpilogueBarrier, 128 * geom.wgs);
}

void ConsumerEmitter::emitReleases(ArrayRef<Release> releases, Value kit) {
  for (const Release &r : releases)
  {
    Value src = e.sub(kit, e.c32(r.delta));
    // Steady kernel iterations span .. trip-1 release sources in range.
    Value valid = steady && r.delta >= 0 && r.delta <= p.cMax - p.cMin
                      ? arith::ConstantIntOp::create(e.b, e.loc, 1, 1).getResult()
                      : e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                               e.cmp(CmpIPredicate::slt, src, frame.trip.count));
    frame.release(e, p.rings[r.ring], e.add(curBase, src), valid, ctid);
  }
}

void ConsumerEmitter::emitUnit(BodyUnit &u, Value kit) {
  Value src = e.sub(kit, e.c32(u.off));
  Value inRange = steady ? arith::ConstantIntOp::create(e.b, e.loc, 1, 1).getResult()
                         : e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                                  e.cmp(CmpIPredicate::slt, src, frame.trip.count));
  // The unit's start (TimelineProbes.h); a load unit by the thread that
  // issues it.
  if (frame.probes)
    frame.probes->mark(e, u.unit, e.add(curBase, src),
                       u.isLoad ? e.land(inRange, e.cmp(CmpIPredicate::eq, ctid, e.c32(0)))
                                : inRange);
  int wait = steady ? u.wait : u.predicatedWait;
  if (wait >= 0) {
    // Tie the dot results this unit reads through the wait.
    SmallVector<Value> regs;
    int dotsIssued = 0;
    for (BodyUnit &b : p.body) {
      if (&b == &u)
        break;
      dotsIssued += b.dot ? 1 : 0;
    }
    SmallVector<Value> aRegs;
    if (retireA(wait, dotsIssued, aRegs))
      emitHoldMark();
    SmallVector<std::pair<Value, int64_t>> where;
    for (Value v : u.tied) {
      auto [def, back] = p.resolve(v, u);
      assert((back == 0 || static_cast<int64_t>(hist.lookup(def).size()) >= back) &&
         "a carried value read further back than its copies");
  Frag f = back == 0 ? cur.lookup(def) : hist.lookup(def)[back - 1];
      regs.append(f.elems.begin(), f.elems.end());
      where.push_back({def, back});
    }
    size_t ownRegs = regs.size();
    regs.append(aRegs.begin(), aRegs.end());
    SmallVector<Value> tied = e.wgmmaWaitTie(wait, regs);
    tied.resize(ownRegs);
    unsigned k = 0;
    for (auto [def, back] : where) {
      Frag &f = back == 0 ? cur[def] : hist[def][back - 1];
      for (Value &r : f.elems)
        r = tied[k++];
    }
    emitReleases(u.releases, kit);
  }
  if (u.isLoad) {
    for (const Ring &r : p.rings)
      if (r.unit == u.unit)
        e.ifThen(e.land(inRange, e.cmp(CmpIPredicate::eq, ctid, e.c32(0))),
                 [&] { frame.produce(e, r, e.add(curBase, src), src); });
    return;
  }
  // The values of this unit that others read, and what they are when the
  // unit is predicated off.
  SmallVector<Value> exports;
  SmallVector<Value> prev;
  for (Operation *op : u.ops) {
    if (op->getNumResults() == 0)
      continue; // a store
    Value r = op->getResult(0);
    bool used = p.carried.count(r) || llvm::any_of(r.getUsers(), [&](Operation *user) {
                  return p.bodyIndexOf(user) != p.bodyIndexOf(op);
                });
    if (!used)
      continue;
    exports.push_back(r);
    if (steady)
      continue; // never predicated off
    if (u.dot && !isZeroSplat(u.dot.getAcc())) {
      curSrc = src;
      local.clear();
      Frag acc = materialize(lookup(u.dot.getAcc(), &u), Layout::tile(u.dot.getN()));
      local.clear();
      prev.append(acc.elems.begin(), acc.elems.end());
      continue;
    }
    if (int i = passesInitAs(r, u); i >= 0) {
      curSrc = src;
      local.clear();
      // An iter_arg the body never reads has no carried copies to look
      // through (lookup read past the end of its history): its init is the
      // value itself.
      Value arg = p.loop.getRegionIterArgs()[i];
      Frag init = exportForm(r, arg.use_empty() ? outside.lookup(p.loop.getInitArgs()[i])
                                                : lookup(arg, &u));
      local.clear();
      prev.append(init.elems.begin(), init.elems.end());
      continue;
    }
    SmallVector<Value> un = undefStorage(r);
    prev.append(un.begin(), un.end());
  }
  // A register-A dot's A leaves the unit too (undef when predicated off),
  // to be tied at the wait that retires its group.
  bool registerA = p.readsARegisters(u);
  int64_t aCount = registerA ? geom.rowBlocks * (u.dot.getK() / 16) * 4 : 0;
  auto run = [&]() -> SmallVector<Value> {
    local.clear();
    curSrc = src;
    if (u.dot)
      emitDotUnit(u, src);
    else
      for (Operation *op : u.ops) {
        if (auto st = dyn_cast<StoreOp>(op))
          emitLoopStore(st, u, src);
        else
          evalOp(op);
      }
    SmallVector<Value> flat;
    for (Value v : exports) {
      Frag f = exportForm(v, local[v]);
      flat.append(f.elems.begin(), f.elems.end());
    }
    if (registerA) {
      assert(static_cast<int64_t>(aPassed.size()) == aCount && "register A of a 16-bit dot");
      flat.append(aPassed.begin(), aPassed.end());
    }
    local.clear();
    return flat;
  };
  size_t exportCount = 0;
  for (Value v : exports)
    exportCount += storageCount(v);
  // Steady state: no branch (ptxas keeps a wgmma pipeline only where every
  // wgmma of a stage is issued unconditionally).
  SmallVector<Value> results;
  if (steady) {
    results = run();
  } else {
    for (int64_t i = 0; i < aCount; ++i)
      prev.push_back(LLVM::UndefOp::create(e.b, e.loc, e.i32()));
    assert(prev.size() == exportCount + aCount && "a predicated-off value per export");
    results = llvm::to_vector(e.ifYield(inRange, prev, run));
  }
  if (registerA)
    inFlightA.push_back(
        {u.dotPos, SmallVector<Value>(results.begin() + exportCount, results.end()),
         effectiveSchedule(p.graph, p.graph.initialSchedule, u.unit).wait >= 1});
  else if (!u.dot && !u.isLoad)
    for (InFlightA &a : inFlightA)
      a.mathAfter = true;
  unsigned k = 0;
  for (Value v : exports) {
    int64_t n = storageCount(v);
    cur[v] = fromStorage(v, ArrayRef<Value>(results).slice(k, n));
    k += n;
  }
  if (u.dot)
    e.wgmmaCommit(); // also when predicated off: group counts stay static
  emitReleases(u.releasesAfter, kit);
}

bool ConsumerEmitter::retireA(int64_t pending, int dotsIssued, SmallVector<Value> &regs) {
  // The newest group retired is number dotsIssued - pending - 1 of this
  // iteration (its dots commit one group each, in body order).
  int64_t frontier = dotsIssued - pending - 1;
  bool held = false;
  for (auto *it = inFlightA.begin(); it != inFlightA.end();) {
    if (it->dotPos <= frontier) {
      regs.append(it->regs.begin(), it->regs.end());
      held |= it->hold && it->mathAfter;
      it = inFlightA.erase(it);
    } else {
      ++it;
    }
  }
  return held;
}

void ConsumerEmitter::emitHoldMark() {
  // The flag read here, not once before the loop: ptxas keeps the wait in
  // order with the global timer's read that feeds the store, and moves it
  // past a store on a loop-invariant flag (tried: the wait still at the
  // softmax's top).
  e.orderingStore(e.neverSetFlag());
}

void ConsumerEmitter::emitKernelIteration(Value kit, ValueRange carriedIn) {
  unsigned k = 0;
  hist.clear();
  cur.clear();
  // Every register-A dot retired within its iteration (Expansion.cpp).
  inFlightA.clear();
  for (auto &[v, copies] : p.carried) {
    int64_t n = storageCount(v);
    for (int64_t c = 0; c < copies; ++c) {
      hist[v].push_back(fromStorage(v, carriedIn.slice(k, n)));
      k += n;
    }
  }
  // Staggered: this warp group's turn at the tensor cores spans the body's
  // dots (from the first to the last); the other's follows.
  int firstDot = -1, lastDot = -1;
  if (p.staggered)
    for (auto [i, u] : llvm::enumerate(p.body))
      if (u.dot) {
        firstDot = firstDot < 0 ? i : firstDot;
        lastDot = i;
      }
  for (auto [i, u] : llvm::enumerate(p.body)) {
    if (static_cast<int>(i) == firstDot) {
      // The wait for the turn is no unit's (as the predicted timeline has
      // it): the unit before ends here.
      if (frame.probes)
        frame.probes->end(e);
      e.namedBarrier(e.add(cwg, e.c32(kTeamTurnBarrier)), 256);
    }
    emitUnit(u, kit);
    if (static_cast<int>(i) == lastDot) {
      // Warp group 1 hands the turn back except after the tile's last
      // kernel iteration: every arrival has its wait.
      Value other = e.sub(e.c32(1), cwg);
      Value last = e.land(e.cmp(CmpIPredicate::eq, cwg, e.c32(1)), finalIteration);
      e.ifThen(e.cmp(CmpIPredicate::eq, last, arith::ConstantIntOp::create(e.b, e.loc, 0, 1)),
               [&] { e.namedBarrierArrive(e.add(other, e.c32(kTeamTurnBarrier)), 256); });
    }
  }
  if (p.endWait >= 0) {
    // Register math of this iteration whose values only the next one reads
    // (an FP8 promotion's running sum) would be sunk past this wait by the
    // NVPTX backend, after the wgmma it is scheduled under: tied through
    // the wait, it is computed before it, as the schedule says
    // (bench/results/fp8-promotion-h100-2026-11-28).
    // Only in loops without register-A dots: there the wait retires them and
    // ptxas places it by their registers (the hold, Emitter::orderingStore);
    // the attention kernels' code stays as measured.
    SmallVector<Value> made;
    bool anyRegisterA =
        llvm::any_of(p.body, [&](const BodyUnit &u) { return p.readsARegisters(u); });
    for (auto &[v, copies] : p.carried) {
      Operation *def = v.getDefiningOp();
      if (anyRegisterA || !def || isa<DotOp, DotScaledOp, LoadOp>(def) || !cur.count(v) ||
          llvm::is_contained(p.endTied, v))
        continue;
      if (llvm::all_of(cur[v].elems, [](Value r) {
            return r.getType().isF32() || r.getType().isInteger(32);
          }))
        made.push_back(v);
    }
    SmallVector<Value> regs;
    for (Value v : p.endTied)
      regs.append(cur[v].elems.begin(), cur[v].elems.end());
    for (Value v : made)
      regs.append(cur[v].elems.begin(), cur[v].elems.end());
    size_t ownRegs = regs.size();
    if (retireA(p.endWait, p.numDots, regs))
      emitHoldMark();
    SmallVector<Value> tied = e.wgmmaWaitTie(p.endWait, regs);
    tied.resize(ownRegs);
    unsigned t = 0;
    for (Value v : p.endTied)
      for (Value &r : cur[v].elems)
        r = tied[t++];
    for (Value v : made)
      for (Value &r : cur[v].elems)
        r = tied[t++];
    emitReleases(p.endReleases, kit);
  }
}

SmallVector<Value> ConsumerEmitter::carriedYields() {
  SmallVector<Value> yields;
  for (auto &[v, copies] : p.carried) {
    Frag newest = cur.count(v) ? cur[v] : hist[v][0];
    yields.append(newest.elems.begin(), newest.elems.end());
    for (int64_t c = 0; c + 1 < copies; ++c)
      yields.append(hist[v][c].elems.begin(), hist[v][c].elems.end());
  }
  return yields;
}

void ConsumerEmitter::placeThread() {
  Value lane = e.remu(ctid, e.c32(32));
  Value warp = e.remu(e.divu(ctid, e.c32(32)), e.c32(4));
  cwg = e.divu(ctid, e.c32(128));
  row0 = e.add(e.add(e.mul(cwg, e.c32(geom.blockStride * geom.rowBlocks)),
                     e.mul(warp, e.c32(geom.warpStride))),
               e.divu(lane, e.c32(4)));
  col0 = e.mul(e.remu(lane, e.c32(4)), e.c32(2));
}

void ConsumerEmitter::run() {
  team = e.c32(0);
  if (p.teams > 1) {
    team = e.divu(ctid, e.c32(128));
    ctid = e.remu(ctid, e.c32(128));
    // Team 0 has the first turn at the tensor cores: team 1 arrives on its
    // barrier, when the block has a tile at all (an arrival nobody waits for
    // would outlive the block).
    scf::ForOp tl = p.tileLoop;
    Value anyTile = e.cmp(CmpIPredicate::slt, frame.scalar(e, tl.getLowerBound()),
                          frame.scalar(e, tl.getUpperBound()));
    e.ifThen(e.land(anyTile, e.cmp(CmpIPredicate::eq, team, e.c32(1))),
             [&] { e.namedBarrierArrive(e.c32(kTeamTurnBarrier), 256); });
  }
  placeThread();
  frame.waitResidents(e);
  findPanelOps();

  // Register values before the loop (loads are read where they are used):
  // the kernel's, then (a persistent kernel) each tile's.
  auto evalBefore = [&](Block &block) {
    for (Operation &op : block) {
      if (&op == p.loop.getOperation() || &op == p.tileLoop.getOperation())
        break;
      if (op.getNumResults() == 1 && isa<RankedTensorType>(op.getResult(0).getType()) &&
          !isa<LoadOp>(op)) {
        local.clear();
        evalOp(&op);
        outside[op.getResult(0)] = local[op.getResult(0)];
      } else if (isa<LoadOp>(op) && llvm::is_contained(p.loop.getInitArgs(), op.getResult(0))) {
        // A loaded tile the loop starts a carried value from (C += A B^T,
        // a running sum continued): read into registers as the init.
        local.clear();
        outside[op.getResult(0)] = readLoaded(op.getResult(0), nullptr);
      }
    }
    local.clear();
  };
  evalBefore(p.kernel.getBody().front());
  frame.forEachTile(e, [&](Value base, Value tile) {
    curBase = base;
    curTile = tile;
    // Without a producer warp group, thread 0 loads the tile's own tiles
    // (the producer's part in a warp-specialized kernel: WarpGroupFrame's
    // emitProducerLoop), those only the epilogue reads too: their buffers
    // are free, the previous tile's epilogue released them. Nobody loaded
    // them, and a persistent kernel with every unit in one group waited for
    // its bias forever (bench/results/random-schedules-h200-2026-11-29).
    if (p.producerGroup < 0 && !p.tileRings.empty())
      e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] {
        for (const Ring &r : p.tileRings)
          frame.produce(e, r, tile, Value());
      });
    for (const Ring &r : p.tileRings)
      if (!r.afterLoop)
        frame.waitFull(e, r, tile);
    if (p.tileLoop)
      evalBefore(p.scope());
    emitTile();
    // The tile's own loads are free once its epilogue has read them.
    for (const Ring &r : p.tileRings)
      frame.release(e, r, tile, arith::ConstantIntOp::create(e.b, e.loc, 1, 1), ctid);
  }, p.teams > 1 ? team : Value());
  // The staging slots must stay until the stores have read them.
  e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)), [&] {
    NVVM::CpAsyncBulkWaitGroupOp::create(e.b, e.loc, e.b.getI32IntegerAttr(0),
                                         e.b.getUnitAttr());
  });
}

void ConsumerEmitter::emitKernelLoop() {
  // Carried copies start as the loop's init (yielded values) or undef.
  SmallVector<Value> inits;
  for (auto &[v, copies] : p.carried) {
    Layout l = layoutOf(v);
    int yi = -1;
    for (auto [i, y] : llvm::enumerate(p.loop.getBody()->getTerminator()->getOperands()))
      if (y == v)
        yi = i;
    SmallVector<Value> init = undefStorage(v);
    // A persistent kernel's zero-started accumulators are defined at each
    // tile's start (one opaque zero: LLVM cannot fold it into the epilogue),
    // though wgmma's scale-d = 0 ignores them: left undef, the registers'
    // first reader is the next tile's first wgmma, so ptxas kept the last
    // tile's accumulators live through its epilogue beside what the
    // epilogue makes from them (acc * 2 stored and row-reduced: 340 bytes
    // of spills, the fifth sweep's B3; its SASS in bench/results/
    // opaque-hybrid-h200-2026-11-28/sass).
    // Only where the epilogue holds a whole tile beside them: in one made
    // a store panel at a time the 128 moves a tile cost 0.1-1.3% (bench/
    // results/tile-acc-init-h200-2026-11-28).
    if (p.tileLoop && epilogueHoldsWholeTiles && zeroStartedSelfDot(p.loop, v) &&
        !init.empty() && init.front().getType().isF32())
      init.assign(init.size(),
                  e.opaque(arith::ConstantOp::create(e.b, e.loc, e.b.getF32FloatAttr(0.0f))));
    if (yi < 0)
      if (DotOp d = accStartedBy(v))
        yi = accStartsAsInit(d);
    if (yi >= 0 && !zeroStartedSelfDot(p.loop, v)) {
      Frag given = outside.lookup(p.loop.getInitArgs()[yi]);
      Frag exact{l, elemTypeOf(v), {}, false};
      for (int64_t i = 0; i < l.count(geom); ++i)
        exact.elems.push_back(element(given, l, i));
      init = exportForm(v, exact).elems;
    }
    for (int64_t c = 0; c < copies; ++c)
      inits.append(init.begin(), init.end());
  }
  // Carried copies of a value hold its elements as the unit making it does
  // (holdsUnrounded); an exact init is a valid unrounded value too.
  Value total = e.add(frame.trip.count, e.c32(p.cMax - p.cMin));
  Value last = e.sub(total, e.c32(1));
  Value someTrip = e.cmp(CmpIPredicate::sgt, frame.trip.count, e.c32(0));
  if (p.staggered) {
    // Warp group 0 has the first turn when the tile runs a kernel iteration
    // at all (the loop's, or the peeled one).
    Value runs = arith::OrIOp::create(e.b, e.loc, e.cmp(CmpIPredicate::sgt, last, e.c32(0)), someTrip);
    e.ifThen(e.land(runs, e.cmp(CmpIPredicate::eq, cwg, e.c32(1))),
             [&] { e.namedBarrierArrive(e.c32(kTeamTurnBarrier), 256); });
  }
  // Kernel iterations 0 .. last-1 in up to three loops: the prologue
  // (before every unit has a source iteration), the steady state (span ..
  // trip-1: every unit runs, nothing predicated), the epilogue (after the
  // first units ran out); the last kernel iteration is peeled below. With
  // few iterations the steady loop is empty and the others take them all.
  int64_t span = p.cMax - p.cMin;
  Value steadyLo = arith::MinSIOp::create(e.b, e.loc, e.c32(span), last);
  Value steadyHi = arith::MaxSIOp::create(
      e.b, e.loc, steadyLo, arith::MinSIOp::create(e.b, e.loc, frame.trip.count, last));
  auto kernelLoop = [&](Value lo, Value hi, ValueRange carried, bool isSteady) {
    auto kloop = scf::ForOp::create(e.b, e.loc, lo, hi, e.c32(1), carried);
    OpBuilder::InsertionGuard guard(e.b);
    if (!kloop.getBody()->empty())
      kloop.getBody()->getTerminator()->erase();
    e.b.setInsertionPointToStart(kloop.getBody());
    // The loop's last iteration is the tile's last only when no peeled one
    // follows (a trip count of 0).
    if (p.staggered)
      finalIteration = e.land(e.cmp(CmpIPredicate::eq, kloop.getInductionVar(),
                                    e.sub(last, e.c32(1))),
                              e.cmp(CmpIPredicate::eq, someTrip,
                                    arith::ConstantIntOp::create(e.b, e.loc, 0, 1)));
    steady = isSteady;
    emitKernelIteration(kloop.getInductionVar(), kloop.getRegionIterArgs());
    steady = false;
    scf::YieldOp::create(e.b, e.loc, carriedYields());
    return SmallVector<Value>(kloop.getResults());
  };
  // A span of 0 has no prologue or epilogue; a span of 1 no epilogue loop
  // (its one epilogue iteration is the peeled one).
  SmallVector<Value> carried(inits);
  if (span > 0)
    carried = kernelLoop(e.c32(0), steadyLo, carried, false);
  carried = kernelLoop(steadyLo, steadyHi, carried, true);
  if (span > 1)
    carried = kernelLoop(steadyHi, last, carried, false);

  // The last kernel iteration, when the loop has iterations at all (else
  // its results are its inits: every unit would be predicated off).
  SmallVector<std::pair<Value, Layout>> order;
  SmallVector<Type> finalTypes;
  for (Value r : p.loop.getResults()) {
    Layout l = layoutOf(r);
    order.push_back({r, l});
    finalTypes.append(l.count(geom), carrierType(elemTypeOf(r)));
  }
  ValueRange finals = e.ifElse(
      someTrip, finalTypes,
      [&]() -> SmallVector<Value> {
        if (p.staggered)
          finalIteration = arith::ConstantIntOp::create(e.b, e.loc, 1, 1);
        emitKernelIteration(last, carried);
        // Source iteration trip-1 of a unit at stage offset o ran
        // (span - o) kernel iterations before this last one.
        SmallVector<Value> flat;
        for (auto [i, y] : llvm::enumerate(p.loop.getBody()->getTerminator()->getOperands())) {
          int64_t back = p.cMax - p.cMin - p.body[p.bodyIndexOf(y.getDefiningOp())].off;
          Frag f = back == 0 ? cur[y] : hist[y][back - 1];
          Layout l = order[i].second;
          for (int64_t j = 0; j < l.count(geom); ++j)
            flat.push_back(element(f, l, j));
        }
        // Every wgmma retired before the results leave the branch (a copy
        // of a register a wgmma still writes serializes the pipeline).
        return e.wgmmaWaitTie(0, flat);
      },
      [&]() -> SmallVector<Value> {
        // Nothing may define a register a wgmma of the kernel loop could
        // still write before every group retired (ptxas would serialize).
        SmallVector<Value> inits;
        for (auto [i, rl] : llvm::enumerate(order)) {
          // A tile loaded before the loop (C += A B^T from a loaded C) read
          // again where it still is: passing the registers read before the
          // loop through, LLVM made the branch a select after the loop and
          // kept them live through it beside the accumulators (a warp
          // group's 128x128: 180 bytes of spills).
          Value init = p.loop.getInitArgs()[i];
          Frag given = init.getDefiningOp<LoadOp>() ? readLoaded(init, nullptr)
                                                    : outside.lookup(init);
          for (int64_t j = 0; j < rl.second.count(geom); ++j)
            inits.push_back(element(given, rl.second, j));
        }
        // Constant inits (mostly zeros) as values LLVM cannot see into: with
        // a constant on one side of the branch's results, InstCombine moves
        // every element-wise op of the epilogue that reads one up into both
        // branches (folding it on the constant), before the stores' panels,
        // and the whole tile of its results is live at once (a ping-pong
        // GEMM's acc + acc spilled 256 bytes). One copy per constant: tied
        // through the wait instead, ptxas serialized the wgmma pipeline
        // (C7515).
        e.wgmmaWait(0);
        DenseMap<Value, Value> hidden;
        for (Value &v : inits)
          if (matchPattern(v, m_Constant())) {
            Value &h = hidden[v];
            if (!h)
              h = e.opaque(v);
            v = h;
          }
        return inits;
      });
  // The tile's last unit ends with its loop, where its epilogue starts.
  if (frame.probes)
    frame.probes->epilogue(e, e.add(curBase, frame.trip.count));
  SmallVector<Value> tied(finals);
  unsigned k = 0;
  for (auto [r, l] : order) {
    Frag f{l, elemTypeOf(r), {}, false};
    for (int64_t i = 0; i < l.count(geom); ++i)
      f.elems.push_back(tied[k++]);
    outside[r] = f;
  }

  // A ring slot is released `releaseDelta` kernel iterations after the unit
  // that reads it (when its wgmma retired); the loop's last sources have no
  // such iteration left. Every wgmma retired above: release them here, or a
  // persistent kernel's producer would wait for them in the next tile.
  if (p.tileLoop) {
    int64_t span = p.cMax - p.cMin;
    for (const Ring &r : p.rings)
      for (int64_t j = 1; j <= r.releaseDelta - span; ++j) {
        Value src = e.sub(frame.trip.count, e.c32(j));
        frame.release(e, r, e.add(curBase, src), e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                      ctid);
      }
  }
}

void ConsumerEmitter::emitTile() {
  if (p.target.blackwell()) {
    // sm_100a: the accumulators stay in tensor memory (Tcgen05.h).
    for (auto &[r, f] : emitTcgen05Loop(e, p, frame, ctid))
      outside[r] = f;
  } else if (p.teams > 1) {
    // Ping-pong: the team's main loop waits for its turn at the tensor
    // cores and hands the turn over once its last wgmma is issued (and
    // retired: the peeled iteration waits for all), so this team's epilogue
    // overlaps the other's main loop. The hand-over only when the other
    // team has a tile to take it with.
    e.namedBarrier(e.add(team, e.c32(kTeamTurnBarrier)), 256);
    emitKernelLoop();
    Value other = e.sub(e.c32(1), team);
    e.ifThen(frame.nextTileExists,
             [&] { e.namedBarrierArrive(e.add(other, e.c32(kTeamTurnBarrier)), 256); });
  } else {
    emitKernelLoop();
  }
  // The tiles only the epilogue reads (a residual): into the rings' place,
  // or, a persistent kernel's, by the producer after the tile's ring loads.
  frame.loadResidentsAfterLoop(e, ctid, [&] { epilogueBarrier(); });
  for (const Ring &r : p.tileRings)
    if (r.afterLoop)
      frame.waitFull(e, r, curTile);

  // After the loop: register math and the stores (scalars at no source
  // iteration).
  curSrc = Value();
  // The epilogue's shared-memory addresses (each element of a residual,
  // each stmatrix of the staging) depend on the thread alone: in a
  // persistent kernel LLVM hoists them out of the tile loop, a register
  // each live through the main loop, and ptxas spills them (a ping-pong
  // GEMM with a residual: 328 bytes). Made from a copy of the thread index
  // it cannot see through, they are made where the epilogue reads them.
  Value loopCtid = ctid, loopCwg = cwg, loopRow0 = row0, loopCol0 = col0;
  if (p.tileLoop) {
    ctid = e.pinned(ctid);
    placeThread();
  }
  auto restoreThread = llvm::make_scope_exit([&] {
    ctid = loopCtid, cwg = loopCwg, row0 = loopRow0, col0 = loopCol0;
  });
  int64_t panelsStored = 0;
  for (Operation *op = p.loop->getNextNode(); op; op = op->getNextNode()) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      SmallVector<StoreOp> group = storeGroup(s);
      if (group.size() > 1) {
        emitStoreGroup(group, panelsStored);
        op = group.back(); // the panel ops between them are made per panel
      } else {
        emitStore(s, panelsStored);
      }
      continue;
    }
    if (panelOps.contains(op)) // made per store panel (emitStore)
      continue;
    if (op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()) ||
        isa<LoadOp, scf::YieldOp>(op))
      continue;
    local.clear();
    evalOp(op);
    outside[op->getResult(0)] = local[op->getResult(0)];
  }
  local.clear();
  // The epilogue ends with its stores (a persistent kernel's next tile
  // may first wait for its turn or its loads).
  if (frame.probes)
    frame.probes->end(e);
}

} // namespace

void stagecraft::lowering::emitConsumers(Emitter &e, KernelPlan &plan, WarpGroupFrame &frame,
                                         Value ctid) {
  ConsumerEmitter(e, plan, frame, ctid).run();
}
