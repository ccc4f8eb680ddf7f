//===- ScheduleIR.cpp - schedules in the IR -------------------------------===//
#include "core/Schedule/ScheduleIR.h"
#include "core/Schedule/Legality.h"
#include "core/Dialect/Tile/IR/Cluster.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>
#include <tuple>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

std::string stagecraft::formatLocation(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = llvm::formatv("{0}:{1}:{2}", f.getFilename().getValue(),
                          f.getLine(), f.getColumn())
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

std::string stagecraft::formatDiagnostic(Diagnostic &diag) {
  const char *severity = "error";
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Note: severity = "note"; break;
  case DiagnosticSeverity::Warning: severity = "warning"; break;
  case DiagnosticSeverity::Remark: severity = "remark"; break;
  case DiagnosticSeverity::Error: break;
  }
  std::string loc = formatLocation(diag.getLocation());
  return (loc.empty() ? "" : loc + ": ") + severity + ": " + diag.str();
}

static bool isTensor(Type t) { return isa<RankedTensorType>(t); }

/// Shared-memory buffers start on 1024-byte boundaries in the lowering's
/// layout (WarpGroupFrame.cpp): the legality check counts them so.
static int64_t alignTo1024(int64_t bytes) { return (bytes + 1023) / 1024 * 1024; }

bool stagecraft::isScheduledOp(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() || op->hasTrait<OpTrait::ConstantLike>())
    return false;
  if (isa<LoadOp, StoreOp, DotOp, DotScaledOp>(op) || getSchedule(op))
    return true;
  // An element of a tile (a table of pages, a length) is a scalar like index
  // math: it follows its users, never a unit of its own. Of a tile the loop
  // makes, the lowering refuses it at the op; as a unit nobody named it was
  // refused for its order instead (the twelfth sweep's B1).
  if (isa<tensor::ExtractOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

FailureOr<scf::ForOp> stagecraft::findPipelinedLoopQuietly(func::FuncOp kernel) {
  ScopedDiagnosticHandler quiet(kernel.getContext(), [](Diagnostic &) { return success(); });
  return findPipelinedLoop(kernel);
}

FailureOr<scf::ForOp> stagecraft::findPipelinedLoop(func::FuncOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    for (Operation &op : loop.getBody()->without_terminator())
      if (isa<LoadOp>(op) || getSchedule(&op)) {
        loops.push_back(loop);
        return;
      }
  });
  // A persistent kernel's tile loop may load per-tile tiles (Q of an
  // attention) around the pipelined loop: the innermost candidate is the
  // one to pipeline.
  llvm::erase_if(loops, [&](scf::ForOp outer) {
    return llvm::any_of(loops, [&](scf::ForOp inner) {
      return inner != outer && outer->isProperAncestor(inner);
    });
  });
  if (loops.empty())
    return kernel.emitError("kernel @")
           << kernel.getSymName()
           << " has no loop to pipeline: no scf.for body holds a tile.load "
              "or an op with a tile.sched attribute";
  if (loops.size() > 1) {
    auto diag = loops[1].emitError("kernel @")
                << kernel.getSymName()
                << " has more than one loop to pipeline; only one loop per "
                   "kernel can be scheduled";
    diag.attachNote(loops[0].getLoc()) << "the first one is here";
    return diag;
  }
  // The lowerings keep loop-carried values in registers tile by tile (the
  // GPU kernel) or in scratch slots (the reference): a scalar carried value
  // (a counter) has no place in either. Refused here, where the board, the
  // timeline and the compiler all find the loop, rather than by one of them.
  scf::ForOp loop = loops.front();
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (!isa<RankedTensorType>(arg.getType())) {
      std::string type;
      llvm::raw_string_ostream os(type);
      arg.getType().print(os);
      return loop.emitError("the pipelined loop carries value #")
             << i << " of type " << type
             << " from one iteration to the next; only tensors may be loop-carried "
                "(derive a counter from the induction variable instead)";
    }
  return loop;
}

int LoopUnits::find(llvm::StringRef name) const {
  for (unsigned i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return i;
  return -1;
}

FailureOr<LoopUnits> stagecraft::collectUnits(scf::ForOp loop) {
  LoopUnits units;
  std::map<std::string, Operation *> first;
  std::set<std::string> explicitNames;
  for (Operation &op : loop.getBody()->without_terminator())
    if (ScheduleAttr s = getSchedule(&op))
      explicitNames.insert(s.getName().str());

  std::map<std::string, unsigned> counters;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isScheduledOp(&op))
      continue;
    if (op.getNumRegions() != 0)
      return op.emitError("'")
             << op.getName()
             << "' has regions; only ops directly in the loop body can be "
                "scheduled (software pipelining stages whole ops)";
    std::string name;
    if (ScheduleAttr s = getSchedule(&op)) {
      name = s.getName().str();
      auto it = first.find(name);
      if (it != first.end()) {
        ScheduleAttr f = getSchedule(it->second);
        if (f.getStage() != s.getStage() || f.getOrder() != s.getOrder() ||
            f.getGroup() != s.getGroup() || f.getWait() != s.getWait()) {
          auto diag = op.emitError("ops named \"")
                      << name << "\" disagree on their schedule: ops that "
                                 "share a name move together and need the "
                                 "same stage, order, group and wait";
          diag.attachNote(it->second->getLoc()) << "the first op named \""
                                                << name << "\" is here";
          return diag;
        }
      }
    } else {
      StringRef mnemonic = op.getName().stripDialect();
      do {
        name = llvm::formatv("{0}_{1}", mnemonic, counters[mnemonic.str()]++)
                   .str();
      } while (explicitNames.count(name));
    }
    int idx = units.find(name);
    if (idx < 0) {
      units.names.push_back(name);
      units.ops.emplace_back();
      idx = units.names.size() - 1;
      first[name] = &op;
    }
    units.ops[idx].push_back(&op);
  }
  // A dot's unit is its wgmma group, issued, committed and waited for as
  // one (the schedule's `wait` is the group's): math beside it in the same
  // unit has no place in that sequence. Found here, so the board and the
  // timeline refuse what the lowering would.
  for (auto [name, ops] : llvm::zip(units.names, units.ops)) {
    auto dot = llvm::find_if(ops, [](Operation *op) { return isa<DotOp, DotScaledOp>(op); });
    if (dot == ops.end() || ops.size() == 1)
      continue;
    Operation *other = ops.front() == *dot ? ops[1] : ops.front();
    auto diag = (*dot)->emitError("a dot must be alone in its unit: \"")
                << name << "\" holds " << ops.size()
                << " ops; give the others a unit of their own (another tile.sched name)";
    diag.attachNote(other->getLoc()) << "'" << other->getName() << "' is in it too";
    return diag;
  }
  return units;
}

/// Whether a tensor's elements follow from their position alone: made from
/// tile.iota, splats and constants by integer arithmetic, compares, selects
/// and casts (a causal or window mask's row and column math). The lowering
/// computes such values where they are read, from a few per-thread bases,
/// and ptxas keeps none of their elements in registers between.
static bool positionOnly(Value v, int depth = 0) {
  if (!isa<RankedTensorType>(v.getType()))
    return true; // a scalar: one value per thread
  Operation *d = v.getDefiningOp();
  if (!d || depth > 32)
    return false;
  if (isa<IotaOp, tensor::SplatOp>(d) || d->getName().getStringRef() == "tile.splat")
    return true;
  if (auto c = dyn_cast<arith::ConstantOp>(d)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    return dense && dense.isSplat();
  }
  if (!isa<BroadcastOp, arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::CmpIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
           arith::ShRUIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp,
           arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp,
           arith::SelectOp>(d))
    return false;
  return llvm::all_of(d->getOperands(),
                      [&](Value o) { return positionOnly(o, depth + 1); });
}

static int64_t tensorBytes(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t || !t.hasStaticShape())
    return 0;
  return t.getNumElements() *
         std::max<int64_t>(1, t.getElementType().getIntOrFloatBitWidth() / 8);
}

/// Whether a 1-d tensor lives along the columns of the consumer tile (a
/// column sum, a gamma broadcast over the rows): each thread then holds 2 of
/// every 8 columns, N / 4 values, however many threads share the tile
/// (RegisterLayout.h, Cols). Decided, as the lowering's placement does, by
/// the reductions and broadcasts of the 1-d values joined to it by
/// element-wise math; a vector neither decides is taken along the rows.
static bool isColumnVector(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getRank() != 1)
    return false;
  auto sameVector = [&](Value w) {
    auto u = dyn_cast<RankedTensorType>(w.getType());
    return u && u.getShape() == t.getShape();
  };
  // Element-wise: every tensor operand and result is a vector of this shape.
  auto elementWise = [&](Operation *op) {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (dialect != "arith" && dialect != "math")
      return false;
    auto vectorOrScalar = [&](Value w) {
      return !isa<RankedTensorType>(w.getType()) || sameVector(w);
    };
    return llvm::all_of(op->getOperands(), vectorOrScalar) &&
           llvm::all_of(op->getResults(), vectorOrScalar);
  };
  SmallVector<Value> work{v};
  DenseSet<Value> seen{v};
  while (!work.empty() && seen.size() < 256) {
    Value w = work.pop_back_val();
    if (auto r = w.getDefiningOp<ReduceOp>())
      return r.getDim() == 0;
    for (Operation *user : w.getUsers())
      if (auto b = dyn_cast<BroadcastOp>(user))
        return b.getDim() == 0;
    auto visit = [&](Value x) {
      if (sameVector(x) && seen.insert(x).second)
        work.push_back(x);
    };
    if (Operation *def = w.getDefiningOp(); def && elementWise(def))
      for (Value o : def->getOperands())
        visit(o);
    for (Operation *user : w.getUsers())
      if (elementWise(user))
        for (Value r : user->getResults())
          visit(r);
  }
  return false;
}

/// What a tensor value costs in registers: a tile or a row vector its bytes
/// (shared out over the threads), a column vector N / 4 registers in every
/// thread, a broadcast what its input costs (a view of its registers).
static std::pair<int64_t, int64_t> registerCost(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = b.getInput();
  if (isColumnVector(v))
    return {0, (cast<RankedTensorType>(v.getType()).getDimSize(0) + 3) / 4};
  return {tensorBytes(v.getType()), 0};
}

/// An arith or math op on 2-d tiles (its elements each from the same
/// elements of its operands).
static bool isElementWiseTile(Operation *op) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect != "arith" && dialect != "math" || op->getNumResults() != 1)
    return false;
  auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return t && t.getRank() == 2;
}

/// isEpilogueOnlyLoad, or (`evenWithLoopStores`) what it would be but for a
/// store in the loop.
static bool readOnlyAfterLoop(LoadOp load, scf::ForOp loop, bool evenWithLoopStores) {
  Block *block = loop->getBlock();
  if (load->getBlock() != block || load->use_empty())
    return false;
  // A persistent kernel's: the tile's own loads, in the tile loop's body.
  bool persistent = !isa<func::FuncOp>(loop->getParentOp());
  bool storesInLoop = false;
  loop.getBody()->walk([&](StoreOp) { storesInLoop = true; });
  if (!persistent && storesInLoop && !evenWithLoopStores)
    return false;
  return llvm::all_of(load->getUsers(), [&](Operation *user) {
    return user->getBlock() == block && loop->isBeforeInBlock(user) &&
           !isa<tensor::ExtractOp>(user);
  });
}

bool stagecraft::isEpilogueOnlyLoad(LoadOp load, scf::ForOp loop) {
  return readOnlyAfterLoop(load, loop, false);
}

bool stagecraft::upcastFeedsDotB(Value v) {
  return !v.use_empty() && llvm::all_of(v.getUses(), [](OpOperand &use) {
    return isa<DotOp>(use.getOwner()) && use.getOperandNumber() == 1;
  });
}

static std::string describeValue(Value v, bool fromLoad) {
  std::string shape;
  if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
    for (int64_t d : t.getShape())
      shape += std::to_string(d) + "x";
    llvm::raw_string_ostream os(shape);
    os << t.getElementType();
  } else {
    // A scalar (an element of a tile, index math): "the f32 scalar result".
    llvm::raw_string_ostream os(shape);
    os << v.getType() << " scalar";
  }
  return fromLoad ? "the " + shape + " tile" : "the " + shape + " result";
}

FailureOr<LoopGraph> stagecraft::buildLoopGraph(func::FuncOp kernel) {
  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoop(kernel);
  if (failed(maybeLoop))
    return failure();
  scf::ForOp loop = *maybeLoop;
  FailureOr<LoopUnits> units = collectUnits(loop);
  if (failed(units))
    return failure();

  LoopGraph g;
  g.kernel = kernel.getSymName().str();
  g.loopLocation = formatLocation(loop.getLoc());
  if (auto wg = kernel->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kWarpGroupsAttrName))
    g.warpGroups.assign(wg.asArrayRef().begin(), wg.asArrayRef().end());

  // Ops and units.
  DenseMap<Operation *, unsigned> opIndex;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isScheduledOp(&op))
      continue;
    opIndex[&op] = g.ops.size();
    g.ops.push_back({0, op.getName().getStringRef().str(),
                     formatLocation(op.getLoc())});
  }
  for (unsigned u = 0; u < units->names.size(); ++u) {
    Unit unit;
    unit.name = units->names[u];
    bool hasLoad = false, hasDot = false;
    for (Operation *op : units->ops[u]) {
      unsigned i = opIndex[op];
      g.ops[i].unit = u;
      unit.ops.push_back(i);
      // Element reads in the body follow their users (isScheduledOp), through
      // the index math between (a page table's entry, index_cast, a load's
      // coordinate): an error at one is the reading unit's.
      SmallVector<std::pair<Value, int>> work;
      for (Value o : op->getOperands())
        work.push_back({o, 0});
      while (!work.empty()) {
        auto [v, depth] = work.pop_back_val();
        Operation *def = v.getDefiningOp();
        if (!def || def->getBlock() != loop.getBody() || isScheduledOp(def) || depth > 8)
          continue;
        if (isa<tensor::ExtractOp>(def)) {
          std::string where = formatLocation(def->getLoc());
          if (!llvm::is_contained(unit.followerLocations, where))
            unit.followerLocations.push_back(where);
        }
        for (Value o : def->getOperands())
          work.push_back({o, depth + 1});
      }
      if (auto load = dyn_cast<LoadOp>(op)) {
        hasLoad = true;
        unit.bufferBytes += load.getDesc().getType().getBoxBytes();
        unit.alignedBufferBytes += alignTo1024(load.getDesc().getType().getBoxBytes());
        unit.sameInCluster = llvm::none_of(load.getCoords(),
                                           [](Value c) { return variesInCluster(c); });
        ArrayRef<int64_t> tile = load.getDesc().getType().getTileShape();
        unit.boxRows = tile.size() >= 2 ? tile[tile.size() - 2] : 1;
        for (Operation *user : load.getDesc().getUsers())
          if (user != op && unit.descriptorAlsoUsedAt.empty())
            unit.descriptorAlsoUsedAt = formatLocation(user->getLoc());
      }
      if (auto dot = dyn_cast<DotOp>(op)) {
        hasDot = true;
        unit.flops += dot.getFlops();
        // A in registers: neither a loaded tile nor an upcast the lowering
        // writes to shared memory for a dot's B (then A reads it there too).
        Operation *a = dot.getA().getDefiningOp();
        unit.registerA |= !isa_and_nonnull<LoadOp>(a) &&
                          !(isa_and_nonnull<UpcastOp>(a) && upcastFeedsDotB(dot.getA()));
      }
      if (auto dot = dyn_cast<DotScaledOp>(op)) {
        hasDot = true;
        unit.flops += dot.getFlops();
        // Its B, upcast to bf16 in shared memory for wgmma.
        unit.localSmemBytes += dot.getN() * dot.getK() * 2;
        unit.scaledDotSmemBytes += dot.getN() * dot.getK() * 2;
        unit.transientRegBytes +=
            cast<RankedTensorType>(dot.getResult().getType()).getDimSize(0) * dot.getK() * 2;
      }
      if (isa<UpcastOp>(op) && upcastFeedsDotB(op->getResult(0)))
        unit.localSmemBytes += tensorBytes(op->getResult(0).getType());
      // Ops the lowering runs with a barrier over every consumer warp group:
      // a store's staging, a reduction over rows' exchange, an upcast into
      // shared memory (a tile.dot_scaled's own too).
      if (isa<StoreOp>(op))
        unit.consumerBarrier = "stores a tile";
      else if (auto r = dyn_cast<ReduceOp>(op); r && r.getDim() == 0)
        unit.consumerBarrier = "reduces over rows (dim = 0)";
      else if ((isa<UpcastOp>(op) && upcastFeedsDotB(op->getResult(0))) || isa<DotScaledOp>(op))
        unit.consumerBarrier = "upcasts a dot's B into shared memory";
      std::string opName = op->getName().getStringRef().str();
      if (unit.summary.find(opName) == std::string::npos)
        unit.summary += (unit.summary.empty() ? "" : ", ") + opName;
    }
    unit.kind = hasDot ? UnitKind::Dot : hasLoad ? UnitKind::Load : UnitKind::Compute;
    if (unit.localSmemBytes && hasDot)
      unit.localReader = u;
    unit.location = g.ops[unit.ops.front()].location;
    g.units.push_back(std::move(unit));
  }

  // Units that upcast a dot's B into shared memory: the dot reading it.
  for (unsigned u = 0; u < units->names.size(); ++u)
    for (Operation *op : units->ops[u])
      if (isa<UpcastOp>(op) && upcastFeedsDotB(op->getResult(0)))
        for (Operation *user : op->getResult(0).getUsers())
          if (opIndex.count(user) && g.units[u].localReader < 0)
            g.units[u].localReader = g.ops[opIndex[user]].unit;

  // Edges and register-resident values.
  Operation *yield = loop.getBody()->getTerminator();
  auto bodyOpOf = [&](Value v) -> Operation * {
    Operation *def = v.getDefiningOp();
    return def && opIndex.count(def) ? def : nullptr;
  };
  DenseSet<Value> invariants;
  for (Operation &user : loop.getBody()->without_terminator()) {
    if (!opIndex.count(&user))
      continue;
    // An op nothing reads (a broadcast left unused) is dropped by LLVM: what
    // it reads from outside the loop holds no registers for it.
    bool dead = user.getNumResults() > 0 &&
                llvm::all_of(user.getResults(), [](Value r) { return r.use_empty(); });
    unsigned u = opIndex[&user];
    for (Value operand : user.getOperands()) {
      bool carried = false;
      Value source = operand;
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
          continue; // induction variable or outer block argument
        source = yield->getOperand(arg.getArgNumber() - 1);
        carried = true;
      }
      Operation *def = bodyOpOf(source);
      if (!def) {
        // A tensor from outside the loop: registers for the whole loop
        // unless it is a loaded tile (shared memory) or a constant. A
        // broadcast costs what its input does, as in the loop (a gamma
        // broadcast before the loop was charged a whole tile: the sixth
        // sweep's B2). A loaded column vector costs its registers too: LLVM
        // hoists its loop-invariant reads of shared memory out of the loop.
        Operation *outer = source.getDefiningOp();
        auto [bytes, threadRegs] = registerCost(source);
        bool loadedTile = outer && isa<LoadOp>(outer) && threadRegs == 0;
        // A splat (a scalar bound as a tile) or other position math is made
        // where it is read: one value a thread, no tile (it was charged a
        // whole 64x256 i32 tile, and a softmax over rows was refused at 290).
        if (!carried && !dead && isTensor(source.getType()) && !positionOnly(source) &&
            !(outer && (loadedTile || outer->hasTrait<OpTrait::ConstantLike>())) &&
            invariants.insert(source).second)
          g.invariantValues.push_back({g.ops[u].unit, bytes, threadRegs});
        continue;
      }
      unsigned d = opIndex[def];
      bool fromLoad = isa<LoadOp>(def);
      if (g.ops[d].unit != g.ops[u].unit || carried)
        g.edges.push_back({g.ops[d].unit, g.ops[u].unit, d, u, carried,
                           fromLoad, describeValue(source, fromLoad)});
    }
  }
  // Element-wise tiles whose elements are consumed as they are made: every
  // reader is a reduction in the same unit, or element-wise math in it that
  // is itself consumed so and whose other operands do not wait on this tile
  // (x * x into a sum of squares; exp2(s - max) into a row sum). Their
  // elements are never live together (the sixth sweep's n07b, refused at
  // 289, n02 at 290). A tile that a reduction must finish before its other
  // reader can start (s, read by max(s) and by s - max) is not.
  DenseSet<Operation *> streamed;
  for (Operation &op : llvm::reverse(loop.getBody()->without_terminator())) {
    if (!opIndex.count(&op) || !isElementWiseTile(&op) || op.getResult(0).use_empty())
      continue;
    unsigned unit = g.ops[opIndex[&op]].unit;
    SetVector<Operation *> after;
    getForwardSlice(&op, &after);
    bool ok = llvm::all_of(op.getResult(0).getUsers(), [&](Operation *user) {
      if (!opIndex.count(user) || g.ops[opIndex[user]].unit != unit)
        return false;
      if (isa<ReduceOp>(user))
        return true;
      return streamed.contains(user) && llvm::all_of(user->getOperands(), [&](Value o) {
               Operation *d = o.getDefiningOp();
               return o == op.getResult(0) || !d || !after.contains(d);
             });
    });
    if (ok)
      streamed.insert(&op);
  }
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!opIndex.count(&op) || isa<LoadOp>(op))
      continue;
    for (Value result : op.getResults()) {
      if (!isTensor(result.getType()))
        continue;
      LoopValue v;
      v.defOp = opIndex[&op];
      // A broadcast is a view: in registers each thread keeps the row values
      // it already has, so it costs what its input costs.
      std::tie(v.bytes, v.threadRegs) = registerCost(result);
      // A view of a tensor from outside the loop adds nothing: that tensor is
      // charged for the whole loop (gamma loaded before the loop and
      // broadcast in it costs what it costs broadcast before it).
      if (auto b = dyn_cast<BroadcastOp>(op); b && invariants.contains(b.getInput()))
        v.bytes = v.threadRegs = 0;
      // A tile of element-wise math summed as it is made holds no registers
      // of its own (`streamed` above).
      if (streamed.contains(&op))
        v.bytes = v.threadRegs = 0;
      // An upcast B lives in shared memory (Unit::localSmemBytes).
      if (isa<UpcastOp>(op) && upcastFeedsDotB(result))
        v.bytes = 0;
      // Position math read within its own unit holds no registers between
      // (it would, carried to another unit or iteration).
      if (positionOnly(result) && llvm::all_of(result.getUsers(), [&](Operation *user) {
            return user != yield && opIndex.count(user) &&
                   g.ops[opIndex[user]].unit == g.ops[opIndex[&op]].unit;
          }))
        v.bytes = 0;
      for (OpOperand &use : result.getUses()) {
        Operation *owner = use.getOwner();
        if (owner == yield) {
          Value arg = loop.getRegionIterArgs()[use.getOperandNumber()];
          for (Operation *argUser : arg.getUsers())
            if (opIndex.count(argUser))
              v.uses.push_back({opIndex[argUser], true});
        } else if (opIndex.count(owner)) {
          v.uses.push_back({opIndex[owner], false});
        }
      }
      g.values.push_back(std::move(v));
    }
  }

  // Registers after the loop. Element-local math (arith and math ops,
  // broadcasts, splats, iota) whose only readers are the epilogue's 2-d
  // stores and each other is made a chunk of columns at a time, as the
  // lowering does (ConsumerLoop.cpp, findPanelOps); other values a whole
  // tile, live from their op to their last reader.
  {
    SmallVector<Operation *> after;
    for (Operation *op = loop->getNextNode(); op && !op->hasTrait<OpTrait::IsTerminator>();
         op = op->getNextNode())
      after.push_back(op);
    auto elementLocal = [](Operation *op) {
      StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
      return dialect == "arith" || dialect == "math" ||
             isa<BroadcastOp, tensor::SplatOp, IotaOp>(op);
    };
    DenseSet<Operation *> panel;
    for (Operation *op : llvm::reverse(after)) {
      if (op->getNumResults() != 1 || !isTensor(op->getResult(0).getType()) ||
          !elementLocal(op) || op->getResult(0).use_empty())
        continue;
      if (llvm::all_of(op->getResult(0).getUsers(), [&](Operation *user) {
            auto store = dyn_cast<StoreOp>(user);
            return panel.contains(user) ||
                   (store && user->getBlock() == loop->getBlock() &&
                    store.getDesc().getType().getTileShape().size() == 2);
          }))
        panel.insert(op);
    }
    // A chunk of a tile read from memory (a residual, a gate) is live
    // beside the accumulators; math on the accumulators alone reuses them.
    g.epiloguePanelMath = llvm::any_of(panel, [](Operation *op) {
      return llvm::any_of(op->getOperands(), [](Value v) {
        auto t = dyn_cast<RankedTensorType>(v.getType());
        return v.getDefiningOp<LoadOp>() && t && t.getRank() == 2;
      });
    });
    for (auto [i, r] : llvm::enumerate(loop.getResults()))
      if (isTensor(r.getType()) && !r.use_empty())
        if (Operation *d = bodyOpOf(yield->getOperand(i)))
          g.resultsReadAfterLoop.push_back({opIndex[d], tensorBytes(r.getType())});
    DenseMap<Operation *, int64_t> pos;
    for (auto [i, op] : llvm::enumerate(after))
      pos[op] = static_cast<int64_t>(i);
    std::vector<int64_t> live(after.size() + 1, 0);
    for (Operation *op : after) {
      if (panel.contains(op) || isa<LoadOp>(op) || op->hasTrait<OpTrait::ConstantLike>())
        continue;
      for (Value r : op->getResults()) {
        if (!isTensor(r.getType()))
          continue;
        int64_t birth = pos[op], death = birth;
        for (Operation *user : r.getUsers()) {
          Operation *at = loop->getBlock()->findAncestorOpInBlock(*user);
          death = std::max(death, at && pos.count(at) ? pos[at] : int64_t(after.size()));
        }
        int64_t bytes = isa<BroadcastOp>(op) ? tensorBytes(op->getOperand(0).getType())
                                             : tensorBytes(r.getType());
        for (int64_t p = birth; p < death; ++p)
          live[p] += bytes;
      }
    }
    g.epilogueWholeBytes = *llvm::max_element(live);
  }

  // Shared memory beside the ring: loads outside the loop, and the staging
  // tiles of stores and the loads only they read (which reuse the ring
  // after the loop).
  g.persistent = isa<scf::ForOp>(loop->getParentOp());
  kernel.walk([&](ReduceOp r) {
    if (r.getDim() == 0 && g.rowReductionLocation.empty())
      g.rowReductionLocation = formatLocation(r.getLoc());
  });
  // Clusters: the loops' bounds the CTAs of a cluster must agree on.
  {
    SmallVector<std::pair<scf::ForOp, const char *>> loops{{loop, "the pipelined loop's"}};
    if (g.persistent)
      loops.push_back({cast<scf::ForOp>(loop->getParentOp()), "the tile loop's"});
    for (auto [l, whose] : loops)
      for (auto [what, bound] : {std::pair<const char *, Value>{"lower bound", l.getLowerBound()},
                                 {"upper bound", l.getUpperBound()},
                                 {"step", l.getStep()}})
        if (g.clusterVaryingBound.empty() && variesInCluster(bound)) {
          g.clusterVaryingBound = std::string(whose) + " " + what;
          g.clusterVaryingBoundLocation = formatLocation(l.getLoc());
        }
  }
  int64_t slot = 0;
  kernel.walk([&](Operation *op) {
    if (op->getParentOp() == loop.getOperation())
      return;
    if (auto load = dyn_cast<LoadOp>(op)) {
      // A load in a persistent kernel's tile loop has a ring of two.
      bool perTile = g.persistent && op->getParentOp() == loop->getParentOp();
      // A tile's own loads have a ring of two (the next tile's loaded while
      // this one's are read), one for those only its epilogue reads (loaded
      // after the tile's ring loads).
      int64_t bytes = alignTo1024(load.getDesc().getType().getBoxBytes());
      if (isEpilogueOnlyLoad(load, loop)) {
        g.epilogueLoadSmemBytes += bytes;
        g.epilogueLoadLocations.push_back(formatLocation(load.getLoc()));
      } else {
        g.fixedSmemBytes += (perTile ? 2 : 1) * bytes;
        if (readOnlyAfterLoop(load, loop, true))
          g.keptByLoopStoresSmemBytes += bytes;
      }
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      DescType d = store.getDesc().getType();
      int64_t panel = d.getTileShape().size() >= 2
                          ? d.getBoxBytes() / d.getBoxShape().back() * d.getLoadBoxShape().back()
                          : d.getBoxBytes();
      slot = std::max(slot, (panel + 1023) / 1024 * 1024);
    }
  });
  g.epilogueSmemBytes = 2 * slot;

  // The schedule in the IR, with defaults.
  int64_t maxStage = -1, maxOrder = -1;
  for (unsigned u = 0; u < units->names.size(); ++u)
    if (ScheduleAttr s = getSchedule(units->ops[u].front())) {
      maxStage = std::max(maxStage, s.getStage());
      maxOrder = std::max(maxOrder, s.getOrder());
    }
  int64_t lastStage = maxStage >= 0 ? maxStage : 1;
  // An op the IR left unscheduled among scheduled math runs with that math:
  // the one warp group every non-load unit must share (a multiply added
  // after a dot in the consumers' group 1 would otherwise be put in group 0,
  // the producer's, and be illegal three ways).
  std::optional<int64_t> mathGroup;
  bool oneMathGroup = true;
  for (unsigned u = 0; u < units->names.size(); ++u)
    if (ScheduleAttr s = getSchedule(units->ops[u].front());
        s && g.units[u].kind != UnitKind::Load) {
      if (mathGroup && *mathGroup != s.getGroup())
        oneMathGroup = false;
      mathGroup = s.getGroup();
    }
  g.initialSchedule.kernel = g.kernel;
  // Set only when the kernel says (unset is cooperative): schedules exported
  // from kernels without tile.consumers keep their bytes, and one that says
  // "cooperative" over a kernel's ping-pong writes it (Schedule::toJson).
  if (auto c = kernel->getAttrOfType<StringAttr>(TileDialect::kConsumersAttrName))
    if (std::optional<Consumers> parsed = parseConsumers(c.getValue()))
      g.initialSchedule.consumers = *parsed;
  // Budgets only when the kernel chose some: a schedule exported from a
  // kernel without them keeps the bytes it always had.
  if (auto r = kernel->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kRegistersAttrName))
    g.initialSchedule.registers = trimRegisterBudgets({r.asArrayRef().begin(), r.asArrayRef().end()});
  // The cluster only when the kernel has one: schedules of kernels without
  // keep their bytes.
  if (kernel->hasAttr(TileDialect::kClusterAttrName))
    g.initialSchedule.cluster = clusterSize(kernel);
  for (unsigned u = 0; u < units->names.size(); ++u) {
    OpSchedule o;
    if (ScheduleAttr s = getSchedule(units->ops[u].front())) {
      o = {s.getStage(), s.getOrder(), s.getGroup(), s.getWait()};
    } else {
      o.stage = g.units[u].kind == UnitKind::Load ? 0 : lastStage;
      o.order = maxOrder + 1 + u;
      if (g.units[u].kind != UnitKind::Load && mathGroup && oneMathGroup)
        o.group = *mathGroup;
    }
    g.initialSchedule.set(units->names[u], o);
  }
  return g;
}

LogicalResult stagecraft::writeSchedule(func::FuncOp kernel,
                                        const Schedule &schedule) {
  FailureOr<LoopGraph> graph = buildLoopGraph(kernel);
  if (failed(graph))
    return failure();
  for (const ScheduleEntry &e : schedule.entries())
    if (graph->findUnit(e.name) < 0) {
      std::string known;
      for (const Unit &u : graph->units)
        known += (known.empty() ? "" : ", ") + u.name;
      return kernel.emitError("the schedule names \"")
             << e.name << "\", but the pipelined loop of @"
             << kernel.getSymName() << " has no op with that name (it has: "
             << known << ")";
    }
  scf::ForOp loop = *findPipelinedLoop(kernel);
  FailureOr<LoopUnits> units = collectUnits(loop);
  if (failed(units))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  for (unsigned u = 0; u < units->names.size(); ++u) {
    OpSchedule s = effectiveSchedule(*graph, schedule, u);
    auto attr = ScheduleAttr::get(ctx, units->names[u], s.stage, s.order,
                                  s.group, s.wait);
    for (Operation *op : units->ops[u])
      setSchedule(op, attr);
  }
  if (schedule.consumers) {
    if (*schedule.consumers == Consumers::Cooperative)
      kernel->removeAttr(TileDialect::kConsumersAttrName);
    else
      kernel->setAttr(TileDialect::kConsumersAttrName,
                      StringAttr::get(ctx, consumersName(*schedule.consumers)));
  }
  if (schedule.cluster) {
    if (*schedule.cluster == 1)
      kernel->removeAttr(TileDialect::kClusterAttrName);
    else
      kernel->setAttr(TileDialect::kClusterAttrName,
                      IntegerAttr::get(IntegerType::get(ctx, 64), *schedule.cluster));
  }
  if (schedule.registers) {
    std::vector<int64_t> budgets = trimRegisterBudgets(*schedule.registers);
    if (budgets.empty())
      kernel->removeAttr(TileDialect::kRegistersAttrName);
    else
      kernel->setAttr(TileDialect::kRegistersAttrName, DenseI64ArrayAttr::get(ctx, budgets));
  }
  return success();
}
