//===- TileOrder.cpp - set a persistent kernel's tile order ---------------===//
#include "passes/TileOrder.h"
#include "passes/Passes.h"
#include "passes/TileOrderPlan.h"

#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace stagecraft {
#define GEN_PASS_DEF_TILESETTILEORDER
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tileorder;

const char *stagecraft::tileorder::mnemonic(PlanOp::Kind kind) {
  switch (kind) {
  case PlanOp::Constant: return "arith.constant";
  case PlanOp::AddI: return "arith.addi";
  case PlanOp::SubI: return "arith.subi";
  case PlanOp::MulI: return "arith.muli";
  case PlanOp::DivUI: return "arith.divui";
  case PlanOp::RemUI: return "arith.remui";
  case PlanOp::MinUI: return "arith.minui";
  case PlanOp::CeilDivUI: return "arith.ceildivui";
  }
  return "";
}

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

Value stripCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The kernel evaluated at one set of sizes.
struct Sample {
  std::vector<int64_t> sizes;
  std::unique_ptr<tile::IndexEvaluator> ev;
  std::vector<int64_t> tileCounts; // along each dimension of the stored descriptor
};

class Planner {
public:
  Planner(func::FuncOp kernel, const TileOrderChoice &choice) : kernel(kernel), choice(choice) {}
  FailureOr<Plan> run();

private:
  void markDependent();
  LogicalResult findStore();
  LogicalResult bindSamples();
  LogicalResult findCoordinates();
  LogicalResult collectOldOps();
  LogicalResult checkUpperBound();
  void collectCandidates();
  /// Whether `v` (independent of t) evaluates to want(sample) at every sample.
  bool equalsEverywhere(Value v, llvm::function_ref<int64_t(const Sample &)> want) const;
  PlanOperand constant(int64_t value);
  FailureOr<PlanOperand> tileCount(unsigned dim);
  FailureOr<PlanOperand> materialize(AffineExpr e, const std::string &name);
  PlanOperand emit(PlanOp::Kind kind, std::vector<PlanOperand> operands, const std::string &name,
                   bool beforeLoop, int coordinate = -1);
  LogicalResult planOrder();

  func::FuncOp kernel;
  TileOrderChoice choice;
  Plan out;
  scf::ForOp pipelined, tl;
  Value t;
  tile::StoreOp store;
  tile::KernelSignature sig;
  int descIndex = -1;
  std::vector<int64_t> box;
  std::vector<unsigned> coordDims; // store dimensions that are tile dimensions
  std::vector<Sample> samples;
  DenseSet<Value> dependent;                 // values that depend on t
  std::vector<Value> candidates;             // index values defined before the tile loop
  std::map<int64_t, PlanOperand> constants;  // by value
  std::map<unsigned, PlanOperand> counts;    // by store dimension
};

FailureOr<Plan> Planner::run() {
  FailureOr<scf::ForOp> loop = findPipelinedLoop(kernel);
  if (failed(loop))
    return failure();
  pipelined = *loop;
  tl = dyn_cast_or_null<scf::ForOp>(pipelined->getParentOp());
  if (!tl)
    return pipelined.emitError()
           << "@" << kernel.getSymName()
           << " is not a persistent kernel: its pipelined loop is not inside a tile loop, so "
              "it has no tile order to set";
  t = tl.getInductionVar();
  if (!t.getType().isIndex())
    return tl.emitError() << "the tile loop's index is " << t.getType()
                          << ", not index: its tile order cannot be set";
  out.kernel = kernel;
  out.tileLoop = tl;
  markDependent();
  FailureOr<tile::KernelSignature> s = tile::KernelSignature::get(kernel);
  if (failed(s))
    return failure();
  sig = *s;
  if (failed(findStore()) || failed(bindSamples()) || failed(findCoordinates()))
    return failure();
  size_t n = out.oldCoords.size();
  if (n == 1)
    return store.emitError() << "the tile loop walks one dimension of tiles (only index "
                             << coordDims[0]
                             << " of this store depends on the tile index): there is only "
                                "one order";
  if (choice.order == TileOrder::Grouped && n != 2)
    return store.emitError() << "a grouped tile order needs two tile dimensions; this store has "
                             << n << " indices that depend on the tile index (row-major and "
                                     "column-major take any number)";
  if (failed(checkUpperBound()) || failed(collectOldOps()))
    return failure();
  collectCandidates();
  if (failed(planOrder()))
    return failure();
  return std::move(out);
}

void Planner::markDependent() {
  SmallVector<Value> work{t};
  dependent.insert(t);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses())
      // A use nested in an op's regions makes that op's results depend too.
      for (Operation *op = use.getOwner(); op && op != tl.getOperation(); op = op->getParentOp())
        for (Value r : op->getResults())
          if (dependent.insert(r).second)
            work.push_back(r);
  }
}

LogicalResult Planner::findStore() {
  tl.getBody()->walk([&](tile::StoreOp s) {
    if (store || pipelined->isAncestor(s))
      return;
    if (llvm::any_of(s.getCoords(), [&](Value c) { return dependent.contains(c); }))
      store = s;
  });
  if (!store)
    return tl.emitError() << "cannot identify the tile coordinates: no tile.store in the tile "
                             "loop (outside its pipelined loop) has indices that depend on the "
                             "tile index";
  auto arg = dyn_cast<BlockArgument>(store.getDesc());
  if (arg && arg.getOwner()->getParentOp() == kernel.getOperation())
    for (unsigned k = 0; k < sig.descArgs.size(); ++k)
      if (sig.descArgs[k] == arg.getArgNumber())
        descIndex = static_cast<int>(k);
  if (descIndex < 0)
    return store.emitError() << "cannot identify the tile coordinates: the stored descriptor is "
                                "not an argument of the kernel";
  llvm::ArrayRef<int64_t> b = cast<tile::DescType>(store.getDesc().getType()).getBoxShape();
  box.assign(b.begin(), b.end());
  return success();
}

LogicalResult Planner::bindSamples() {
  // The defaults, and two other sets with every size different, so that a
  // value equal to a tile count at the defaults by chance (tiles_m and
  // tiles_n of a square problem) is not taken for it.
  std::vector<std::vector<std::pair<std::string, int64_t>>> sets(3);
  for (size_t i = 0; i < sig.sizeNames.size(); ++i) {
    int64_t k = static_cast<int64_t>(i) + 1;
    sets[1].push_back({sig.sizeNames[i], sig.sizeDefaults[i] + 1000 * k + 7});
    sets[2].push_back({sig.sizeNames[i], 389 * k + 1});
  }
  for (size_t i = 0; i < sets.size(); ++i) {
    // Only the defaults must bind; the others add confidence where they do.
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [&](Diagnostic &) { return success(i > 0); });
    FailureOr<tile::KernelSignature::Bound> bound = sig.bind(sets[i]);
    if (failed(bound)) {
      if (i == 0)
        return failure();
      continue;
    }
    Sample s;
    s.sizes = bound->values;
    s.ev = std::make_unique<tile::IndexEvaluator>(kernel, sig, bound->values, bound->grid);
    std::vector<int64_t> global =
        tile::KernelSignature::evaluate(sig.descShapes[descIndex], bound->values);
    if (global.size() != box.size())
      return store.emitError() << "the stored descriptor's tile.shape has " << global.size()
                               << " dimensions, its box " << box.size();
    for (size_t d = 0; d < box.size(); ++d)
      s.tileCounts.push_back(ceilDiv(global[d], box[d]));
    samples.push_back(std::move(s));
  }
  return success();
}

LogicalResult Planner::findCoordinates() {
  // Each index of the store that depends on t: a tile coordinate times the
  // tile size along it.
  for (auto [d, index] : llvm::enumerate(store.getCoords())) {
    if (!dependent.contains(index))
      continue;
    Value v = stripCasts(index), coord;
    if (auto mul = v.getDefiningOp<arith::MulIOp>())
      for (unsigned k = 0; k < 2 && !coord; ++k) {
        Value size = mul->getOperand(1 - k);
        if (!dependent.contains(size) &&
            equalsEverywhere(size, [&](const Sample &) { return box[d]; }))
          coord = mul->getOperand(k);
      }
    if (!coord && box[d] == 1)
      coord = v;
    if (!coord)
      return store.emitError() << "cannot identify the tile coordinates: index " << d
                               << " of this store depends on the tile index but is not a tile "
                                  "coordinate times the tile size "
                               << box[d] << " (arith.muli)";
    Operation *def = coord.getDefiningOp();
    if (coord == t)
      return store.emitError() << "index " << d << " of this store is the tile index itself "
                                  "times the tile size: the tile loop walks one dimension";
    if (!def || def->getBlock() != tl.getBody() || def->getNumResults() != 1 ||
        !coord.getType().isIndex())
      return store.emitError() << "cannot identify the tile coordinates: the coordinate of "
                                  "index "
                               << d
                               << " is not computed by one index op directly in the tile "
                                  "loop's body";
    if (llvm::is_contained(out.oldCoords, coord))
      return store.emitError() << "cannot identify the tile coordinates: two indices of this "
                                  "store use the same coordinate";
    out.oldCoords.push_back(coord);
    coordDims.push_back(static_cast<unsigned>(d));
  }
  return success();
}

bool Planner::equalsEverywhere(Value v, llvm::function_ref<int64_t(const Sample &)> want) const {
  DenseMap<Value, int64_t> env;
  for (const Sample &s : samples) {
    std::optional<int64_t> x = s.ev->eval(v, env);
    if (!x || *x != want(s))
      return false;
  }
  return !samples.empty();
}

LogicalResult Planner::checkUpperBound() {
  // Any order of the same tiles runs the same work only when t walks
  // exactly the stored tiles.
  DenseMap<Value, int64_t> env;
  for (const Sample &s : samples) {
    int64_t tiles = 1;
    for (unsigned d : coordDims)
      tiles *= s.tileCounts[d];
    std::optional<int64_t> ub = s.ev->eval(tl.getUpperBound(), env);
    if (!ub || *ub != tiles) {
      InFlightDiagnostic diag = tl.emitError();
      diag << "the tile loop's upper bound (";
      if (ub)
        diag << *ub;
      else
        diag << "not evaluable";
      diag << " at sizes";
      for (size_t i = 0; i < sig.sizeNames.size(); ++i)
        diag << " " << sig.sizeNames[i] << "=" << s.sizes[i];
      diag << ") is not the number of tiles the store at " << formatLocation(store.getLoc())
           << " covers (";
      for (size_t k = 0; k < coordDims.size(); ++k)
        diag << (k ? " x " : "") << s.tileCounts[coordDims[k]];
      diag << " = " << tiles << "): another order would run other tiles";
      return diag;
    }
  }
  return success();
}

LogicalResult Planner::collectOldOps() {
  Block *body = tl.getBody();
  DenseSet<Operation *> old;
  SmallVector<Operation *> work;
  for (Value c : out.oldCoords)
    work.push_back(c.getDefiningOp());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!old.insert(op).second)
      continue;
    for (Value o : op->getOperands()) {
      if (o == t || !dependent.contains(o))
        continue;
      Operation *def = o.getDefiningOp();
      if (!def || def->getBlock() != body || def->getNumRegions() || !isMemoryEffectFree(def))
        return op->emitError() << "cannot identify the tile coordinates: this op, which computes "
                                  "one, reads a value the tile-order rewrite cannot follow";
      work.push_back(def);
    }
  }
  auto outsideReader = [&](Value v) -> Operation * {
    for (Operation *user : v.getUsers())
      if (!old.contains(user))
        return user;
    return nullptr;
  };
  auto refuse = [&](Operation *user) {
    return user->emitError()
           << "the tile index reaches this op other than through the tile coordinates of the "
              "store at "
           << formatLocation(store.getLoc())
           << ": setting the tile order would change what it computes";
  };
  if (Operation *user = outsideReader(t))
    return refuse(user);
  for (Operation *op : old)
    for (Value r : op->getResults())
      if (!llvm::is_contained(out.oldCoords, r))
        if (Operation *user = outsideReader(r))
          return refuse(user);
  for (Operation &op : *body)
    if (old.contains(&op))
      out.oldOps.push_back(&op);
  // What only the old arithmetic may use: t-independent pure ops feeding it.
  DenseSet<Operation *> seen;
  SmallVector<Operation *> feed(out.oldOps.begin(), out.oldOps.end());
  while (!feed.empty()) {
    Operation *op = feed.pop_back_val();
    for (Value o : op->getOperands()) {
      Operation *def = o.getDefiningOp();
      if (!def || old.contains(def) || def->getNumRegions() || !isPure(def) ||
          !seen.insert(def).second)
        continue;
      out.maybeDead.push_back(def);
      feed.push_back(def);
    }
  }
  return success();
}

void Planner::collectCandidates() {
  // Index values that dominate the tile loop: the kernel's arguments, and
  // the results of ops before it (in its block and each enclosing one).
  for (BlockArgument a : kernel.getArguments())
    if (a.getType().isIndex())
      candidates.push_back(a);
  std::vector<Value> before;
  for (Operation *at = tl; at && at != kernel.getOperation(); at = at->getParentOp())
    for (Operation *op = at->getPrevNode(); op; op = op->getPrevNode())
      if (op->getNumResults() == 1 && op->getResult(0).getType().isIndex() &&
          !llvm::is_contained(out.maybeDead, op))
        before.push_back(op->getResult(0));
  // Program order, earliest first.
  candidates.insert(candidates.end(), before.rbegin(), before.rend());
  // What the old arithmetic alone used is taken last, so that it can go.
  for (Operation *op : out.maybeDead)
    if (op->getNumResults() == 1 && op->getResult(0).getType().isIndex() &&
        op->getBlock() != tl.getBody())
      candidates.push_back(op->getResult(0));
}

PlanOperand Planner::emit(PlanOp::Kind kind, std::vector<PlanOperand> operands,
                          const std::string &name, bool beforeLoop, int coordinate) {
  PlanOp op;
  op.kind = kind;
  op.operands = std::move(operands);
  op.name = name;
  op.beforeLoop = beforeLoop;
  op.coordinate = coordinate;
  out.ops.push_back(std::move(op));
  PlanOperand r;
  r.newOp = static_cast<int>(out.ops.size()) - 1;
  return r;
}

PlanOperand Planner::constant(int64_t value) {
  if (auto it = constants.find(value); it != constants.end())
    return it->second;
  PlanOperand r;
  for (Value c : candidates)
    if (auto op = c.getDefiningOp<arith::ConstantOp>())
      if (auto i = dyn_cast<IntegerAttr>(op.getValue()); i && i.getInt() == value) {
        r.existing = c;
        break;
      }
  if (!r.existing) {
    r = emit(PlanOp::Constant, {}, value < 0 ? "c_neg" + std::to_string(-value)
                                             : "c" + std::to_string(value),
             /*beforeLoop=*/true);
    out.ops[r.newOp].value = value;
  }
  return constants[value] = r;
}

FailureOr<PlanOperand> Planner::materialize(AffineExpr e, const std::string &name) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return constant(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
    PlanOperand r;
    r.existing = kernel.getArgument(sig.sizeArgs[s.getPosition()]);
    return r;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return failure();
  PlanOp::Kind kind;
  switch (e.getKind()) {
  case AffineExprKind::Add: kind = PlanOp::AddI; break;
  case AffineExprKind::Mul: kind = PlanOp::MulI; break;
  case AffineExprKind::FloorDiv: kind = PlanOp::DivUI; break;
  case AffineExprKind::CeilDiv: kind = PlanOp::CeilDivUI; break;
  case AffineExprKind::Mod: kind = PlanOp::RemUI; break;
  default: return failure();
  }
  FailureOr<PlanOperand> l = materialize(bin.getLHS(), name + "_l"),
                         r = materialize(bin.getRHS(), name + "_r");
  if (failed(l) || failed(r))
    return failure();
  return emit(kind, {*l, *r}, name, /*beforeLoop=*/true);
}

FailureOr<PlanOperand> Planner::tileCount(unsigned dim) {
  if (auto it = counts.find(dim); it != counts.end())
    return it->second;
  PlanOperand r;
  for (Value c : candidates)
    if (equalsEverywhere(c, [&](const Sample &s) { return s.tileCounts[dim]; })) {
      r.existing = c;
      return counts[dim] = r;
    }
  // None: ceil(global size / tile size), from the descriptor's shape.
  std::string name = "tiles_d" + std::to_string(dim);
  AffineExpr global = sig.descShapes[descIndex].getResult(dim);
  FailureOr<PlanOperand> g = materialize(global, box[dim] == 1 ? name : name + "_size");
  if (failed(g))
  {
    std::string text;
    llvm::raw_string_ostream os(text);
    global.print(os);
    return store.emitError() << "no value of the IR is the number of tiles along dimension "
                             << dim << " of this store, and the descriptor's tile.shape ("
                             << text << ") cannot be computed with index arithmetic";
  }
  r = box[dim] == 1 ? *g
                    : emit(PlanOp::CeilDivUI, {*g, constant(box[dim])}, name, /*beforeLoop=*/true);
  return counts[dim] = r;
}

LogicalResult Planner::planOrder() {
  size_t n = out.oldCoords.size();
  PlanOperand tArg;
  tArg.existing = t;
  std::vector<PlanOperand> tiles;
  for (unsigned d : coordDims) {
    FailureOr<PlanOperand> c = tileCount(d);
    if (failed(c))
      return failure();
    tiles.push_back(*c);
  }
  auto coordName = [&](size_t k) { return "tile_" + std::to_string(k); };
  TileOrder order = choice.order;
  if (order == TileOrder::Grouped && choice.groupSize == 1)
    order = TileOrder::RowMajor; // one tile row per group
  if (order == TileOrder::Grouped) {
    PlanOperand g = constant(choice.groupSize);
    PlanOperand inGroup = emit(PlanOp::MulI, {g, tiles[1]}, "in_group", true);
    PlanOperand group = emit(PlanOp::DivUI, {tArg, inGroup}, "group", false);
    PlanOperand first = emit(PlanOp::MulI, {group, g}, "first_row", false);
    PlanOperand left = emit(PlanOp::SubI, {tiles[0], first}, "rows_left", false);
    PlanOperand rows = emit(PlanOp::MinUI, {left, g}, "group_rows", false);
    PlanOperand within = emit(PlanOp::RemUI, {tArg, inGroup}, "t_in_group", false);
    PlanOperand dm = emit(PlanOp::RemUI, {within, rows}, "row_in_group", false);
    emit(PlanOp::AddI, {first, dm}, coordName(0), false, 0);
    emit(PlanOp::DivUI, {within, rows}, coordName(1), false, 1);
    return success();
  }
  // Mixed radix: the fastest dimension is t modulo its count, and so on.
  bool rowMajor = order == TileOrder::RowMajor;
  PlanOperand q = tArg;
  for (size_t step = 0; step + 1 < n; ++step) {
    size_t k = rowMajor ? n - 1 - step : step;
    emit(PlanOp::RemUI, {q, tiles[k]}, coordName(k), false, static_cast<int>(k));
    q = emit(PlanOp::DivUI, {q, tiles[k]}, step + 2 < n ? "t_div" + std::to_string(step) :
                                           coordName(rowMajor ? 0 : n - 1),
             false, step + 2 < n ? -1 : static_cast<int>(rowMajor ? 0 : n - 1));
  }
  return success();
}

} // namespace

FailureOr<Plan> stagecraft::tileorder::plan(func::FuncOp kernel, const TileOrderChoice &choice) {
  return Planner(kernel, choice).run();
}

void stagecraft::tileorder::apply(Plan &plan,
                                  llvm::function_ref<void(Operation *)> beforeErase) {
  scf::ForOp tl = plan.tileLoop;
  Location loc = tl.getLoc();
  OpBuilder before(tl);
  OpBuilder inside = OpBuilder::atBlockBegin(tl.getBody());
  std::vector<Value> made;
  auto value = [&](const PlanOperand &o) { return o.existing ? o.existing : made[o.newOp]; };
  std::vector<Value> coords(plan.oldCoords.size());
  for (const PlanOp &p : plan.ops) {
    OpBuilder &b = p.beforeLoop ? before : inside;
    Value a = p.operands.size() > 0 ? value(p.operands[0]) : Value();
    Value c = p.operands.size() > 1 ? value(p.operands[1]) : Value();
    Value r;
    switch (p.kind) {
    case PlanOp::Constant: r = b.create<arith::ConstantIndexOp>(loc, p.value); break;
    case PlanOp::AddI: r = b.create<arith::AddIOp>(loc, a, c); break;
    case PlanOp::SubI: r = b.create<arith::SubIOp>(loc, a, c); break;
    case PlanOp::MulI: r = b.create<arith::MulIOp>(loc, a, c); break;
    case PlanOp::DivUI: r = b.create<arith::DivUIOp>(loc, a, c); break;
    case PlanOp::RemUI: r = b.create<arith::RemUIOp>(loc, a, c); break;
    case PlanOp::MinUI: r = b.create<arith::MinUIOp>(loc, a, c); break;
    case PlanOp::CeilDivUI: r = b.create<arith::CeilDivUIOp>(loc, a, c); break;
    }
    made.push_back(r);
    if (p.coordinate >= 0)
      coords[p.coordinate] = r;
  }
  for (size_t k = 0; k < coords.size(); ++k)
    plan.oldCoords[k].replaceAllUsesWith(coords[k]);
  // Users come after their operands in a block: erase from the last.
  for (Operation *op : llvm::reverse(plan.oldOps)) {
    assert(op->use_empty() && "the old arithmetic is read only by itself");
    if (beforeErase)
      beforeErase(op);
    op->erase();
  }
  DenseSet<Operation *> erased;
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : plan.maybeDead)
      if (!erased.contains(op) && op->use_empty()) {
        if (beforeErase)
          beforeErase(op);
        erased.insert(op);
        op->erase();
        changed = true;
      }
  }
  plan.oldOps.clear();
  plan.maybeDead.clear();
}

LogicalResult stagecraft::setTileOrder(func::FuncOp kernel, const TileOrderChoice &choice) {
  FailureOr<Plan> p = tileorder::plan(kernel, choice);
  if (failed(p))
    return failure();
  tileorder::apply(*p);
  return success();
}

LogicalResult stagecraft::setTileOrder(func::FuncOp kernel, StringRef spec) {
  TileOrderChoice choice;
  std::string error;
  if (!TileOrderChoice::parse(spec.str(), choice, error))
    return kernel.emitError() << "tile order: " << error;
  return setTileOrder(kernel, choice);
}

LogicalResult stagecraft::checkTileOrder(func::FuncOp kernel, const TileOrderChoice &choice) {
  return success(succeeded(tileorder::plan(kernel, choice)));
}

namespace {
struct TileSetTileOrderPass
    : stagecraft::impl::TileSetTileOrderBase<TileSetTileOrderPass> {
  using TileSetTileOrderBase::TileSetTileOrderBase;
  void runOnOperation() override {
    TileOrderChoice choice;
    std::string error;
    if (!TileOrderChoice::fromOptions(order, group, choice, error)) {
      getOperation().emitError() << "tile-set-tile-order: " << error;
      return signalPassFailure();
    }
    FailureOr<func::FuncOp> k = selectKernel(getOperation(), kernel);
    if (failed(k) || failed(setTileOrder(*k, choice)))
      return signalPassFailure();
  }
};
} // namespace
