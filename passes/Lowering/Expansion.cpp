//===- Expansion.cpp - the schedule made concrete -------------------------===//
//
// Each unit of the consumer group runs, in kernel iteration k, on source
// iteration k - (its stage - the group's first stage), predicated off
// outside [0, trip count). From that:
//
// Carries. A value read s kernel iterations after it is made is carried in
// s copies (iter_args of the kernel loop); values yielded to the loop's
// results are carried until the peeled last kernel iteration.
//
// wgmma waits. Every dot unit commits one wgmma group per kernel iteration
// (an empty one when predicated off), so the group a value comes from is a
// static distance back; each reader of a dot result waits with
// wgmma.wait_group for exactly that group, leaving later ones in flight. A
// unit that writes a dot's accumulator input runs once that dot's groups
// retired (and, where it may be predicated off, with no group in flight),
// and a dot result crossing the loop's back edge other than into its own
// dot's accumulator is retired by a wait that closes the iteration: both
// keep ptxas from serializing the wgmma pipeline.
//
// Releases. A ring buffer goes back to the producer once every reader of
// its source iteration is done: a register reader at the end of its unit,
// a dot at the first wait that retires its group. A dot whose group would
// retire later than its ring's copies allow (the schedule's `wait`) gets a
// wait that closes the iteration.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/Expansion.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;

namespace {

int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

InFlightDiagnostic refuse(Operation *op, const Twine &why) {
  return op->emitError("tile-lower-to-nvvm: ") << why;
}

class Expander {
public:
  explicit Expander(KernelPlan &p) : p(p) {}
  LogicalResult run() {
    if (failed(planCarries()) || failed(planWaits()))
      return failure();
    planReleases();
    return success();
  }

private:
  LogicalResult planCarries();
  LogicalResult planWaits();
  void planReleases();
  /// Per dot unit: the newest relative kernel iteration whose group a wait
  /// retires, and that wait (a body index; body.size() is the end wait).
  std::vector<std::pair<int64_t, int>> retirements() const;
  void requireEndWait(int w) { p.endWait = p.endWait < 0 ? w : std::min(p.endWait, w); }
  bool onlyFeedsItsOwnAccumulator(Value dotResult) const;

  KernelPlan &p;
};

LogicalResult Expander::planCarries() {
  auto need = [&](Value v, int64_t copies) {
    int64_t &c = p.carried[v];
    c = std::max(c, copies);
  };
  for (BodyUnit &u : p.body)
    for (Operation *op : u.ops)
      for (OpOperand &use : op->getOpOperands()) {
        Value v = use.get();
        if (!isa<RankedTensorType>(v.getType()))
          continue;
        auto [def, back] = p.resolve(v, u);
        if (back < 0) {
          if (auto arg = dyn_cast<BlockArgument>(def); arg && arg.getOwner() == p.loop.getBody())
            return refuse(op, "a loop-carried value that is yielded unchanged is not lowered");
          continue;
        }
        int d = p.bodyIndexOf(def.getDefiningOp());
        if (p.body[d].isLoad)
          continue; // read from its ring
        if (back == 0 && d > &u - p.body.data())
          return refuse(op, "operand ")
                 << use.getOperandNumber() << " is made later in the same iteration of the "
                 << "kernel loop (unit '" << p.graph.units[p.body[d].unit].name << "')";
        if (back > 0)
          need(def, back);
      }
  for (Value y : p.loop.getBody()->getTerminator()->getOperands()) {
    Operation *def = y.getDefiningOp();
    int d = def ? p.bodyIndexOf(def) : -1;
    if (d < 0 || p.body[d].isLoad)
      return refuse(p.loop, "every loop-carried value must be computed in the loop by the "
                            "consumer warp group (a yielded load or outer value is not "
                            "lowered)");
    // Its last source iteration is made (span - its stage offset) kernel
    // iterations before the last one, which is peeled: carry it that far.
    if (int64_t back = p.cMax - p.cMin - p.body[d].off; back > 0)
      need(y, back);
  }
  // A yielded value is carried in its iter_arg's layout (which the loop's
  // init also takes): a splat or a view made in the loop is widened.
  for (auto [i, y] : llvm::enumerate(p.loop.getBody()->getTerminator()->getOperands()))
    p.layouts[y] = p.layouts.lookup(p.loop.getRegionIterArgs()[i]);
  return success();
}

bool Expander::onlyFeedsItsOwnAccumulator(Value v) const {
  auto dot = v.getDefiningOp<DotOp>();
  if (!dot || p.carried.lookup(v) != 1)
    return false;
  for (const BodyUnit &u : p.body)
    for (Operation *op : u.ops)
      for (OpOperand &use : op->getOpOperands()) {
        auto [def, back] = p.resolve(use.get(), u);
        if (def != v || back <= 0)
          continue;
        if (op != dot.getOperation() || use.getOperandNumber() != 2 || back != 1)
          return false;
      }
  // The loop's result taken from the carried copy is read after the loop,
  // where every group has retired.
  return true;
}

std::vector<std::pair<int64_t, int>> Expander::retirements() const {
  int nd = p.numDots;
  std::vector<std::pair<int64_t, int>> best(p.body.size(), {INT64_MIN, -1});
  int pos = 0;
  for (unsigned i = 0; i <= p.body.size(); ++i) {
    int w = i < p.body.size() ? p.body[i].wait : p.endWait;
    if (w >= 0)
      for (unsigned d = 0; d < p.body.size(); ++d)
        if (p.body[d].dot) {
          int64_t frontier = pos - w - 1; // the newest group index retired
          int64_t r = floorDiv(frontier - p.body[d].dotPos, nd);
          if (r > best[d].first)
            best[d] = {r, static_cast<int>(i)};
        }
    if (i < p.body.size() && p.body[i].dot)
      ++pos;
  }
  return best;
}

LogicalResult Expander::planWaits() {
  int nd = p.numDots;
  if (nd == 0)
    return success();
  // Group index, relative to the first group committed in the current
  // kernel iteration, of the group that made dot d's value `back`
  // iterations ago.
  auto groupOf = [&](int d, int64_t back) { return -back * nd + p.body[d].dotPos; };
  // Dot results carried across the back edge (except a dot's own
  // accumulator chain, which wgmma orders in hardware) retire at the end of
  // the iteration.
  for (auto &[v, copies] : p.carried) {
    auto dot = v.getDefiningOp<DotOp>();
    if (!dot || onlyFeedsItsOwnAccumulator(v))
      continue;
    int d = p.bodyIndexOf(dot);
    requireEndWait(nd - p.body[d].dotPos - 1);
    p.endTied.push_back(v);
  }
  int committed = 0;
  for (BodyUnit &u : p.body) {
    int64_t need = INT64_MAX;
    for (Operation *op : u.ops)
      for (OpOperand &use : op->getOpOperands()) {
        auto [def, back] = p.resolve(use.get(), u);
        if (back < 0 || (back > 0 && llvm::is_contained(p.endTied, def)))
          continue;
        auto dot = def.getDefiningOp<DotOp>();
        if (!dot)
          continue;
        // A dot accumulating onto a dot result chains in registers.
        if (isa<DotOp>(op) && use.getOperandNumber() == 2)
          continue;
        int d = p.bodyIndexOf(dot);
        int64_t pending = committed - groupOf(d, back) - 1;
        if (pending < 0)
          return refuse(op, "reads a dot result before its wgmma is issued");
        need = std::min(need, pending);
        if (!llvm::is_contained(u.tied, use.get()))
          u.tied.push_back(use.get());
      }
    // A unit that writes a dot's accumulator input runs once that dot's
    // latest group retired (its registers are the accumulator). Where the
    // unit may be predicated off, with no wgmma in flight at all: ptxas
    // serializes every wgmma of the kernel (C7515) when an instruction
    // defines accumulator registers while a group is outstanding and a
    // wgmma of that stage is issued under a branch; the steady-state kernel
    // iterations issue every dot unconditionally (ConsumerLoop.cpp).
    bool writesAccumulator = false;
    if (!u.dot)
      for (Operation *op : u.ops)
        for (OpOperand &use : op->getUses()) // a store has no result
          if (auto written = dyn_cast<DotOp>(use.getOwner());
              written && use.getOperandNumber() == 2) {
            writesAccumulator = true;
            int d = p.bodyIndexOf(written);
            int64_t latest = d < &u - p.body.data() ? groupOf(d, 0) : groupOf(d, 1);
            need = std::min<int64_t>(need, std::max<int64_t>(committed - latest - 1, 0));
          }
    if (need != INT64_MAX)
      u.wait = need;
    u.predicatedWait = writesAccumulator ? 0 : u.wait;
    if (u.dot)
      ++committed;
  }
  // A dot reading A from registers retires within its kernel iteration: the
  // registers are redefined in the next one (the same PTX registers, or the
  // loop-carried copies at the back edge) while an in-flight wgmma would
  // still read them, and ptxas does not guard that (mxfp8 with the schedule's
  // wait 1 gave garbage on the H100 before this).
  for (unsigned d = 0; d < p.body.size(); ++d) {
    DotOp dot = p.body[d].dot;
    if (!dot || dot.getA().getDefiningOp<LoadOp>() || p.localOf(dot.getA()))
      continue;
    if (retirements()[d].first < 0)
      requireEndWait(nd - p.body[d].dotPos - 1);
  }
  // A dot may keep its group in flight only as long as its rings have
  // copies for: `lag` kernel iterations after its own.
  for (unsigned d = 0; d < p.body.size(); ++d) {
    if (!p.body[d].dot)
      continue;
    int64_t allowed = INT64_MAX;
    OpSchedule ds = effectiveSchedule(p.graph, p.graph.initialSchedule, p.body[d].unit);
    for (Ring &r : p.rings)
      if (r.load.getResult() == p.body[d].dot.getA() ||
          r.load.getResult() == p.body[d].dot.getB()) {
        OpSchedule ls = effectiveSchedule(p.graph, p.graph.initialSchedule, r.unit);
        allowed = std::min(allowed, r.copies - 1 - (ds.stage - ls.stage));
      }
    if (allowed == INT64_MAX)
      continue;
    allowed = std::max<int64_t>(allowed, 0);
    std::pair<int64_t, int> got = retirements()[d];
    if (got.second < 0 || -got.first > allowed)
      requireEndWait(nd * (1 + allowed) - p.body[d].dotPos - 1);
  }
  return success();
}

void Expander::planReleases() {
  std::vector<std::pair<int64_t, int>> retire = retirements();
  for (unsigned ri = 0; ri < p.rings.size(); ++ri) {
    Value tile = p.rings[ri].load.getResult();
    // The latest reader (largest delta, then latest point) releases.
    int64_t bestDelta = INT64_MIN;
    int bestWhere = -1;        // wait index (body.size(): end), or
    int bestAfterUnit = -1;    // after this unit
    auto consider = [&](int64_t delta, int where, int afterUnit) {
      int point = where >= 0 ? 2 * where : 2 * afterUnit + 1;
      int bestPoint = bestWhere >= 0 ? 2 * bestWhere : 2 * bestAfterUnit + 1;
      if (delta > bestDelta || (delta == bestDelta && point > bestPoint)) {
        bestDelta = delta;
        bestWhere = where;
        bestAfterUnit = afterUnit;
      }
    };
    for (unsigned i = 0; i < p.body.size(); ++i) {
      const BodyUnit &u = p.body[i];
      bool reads = false, readsAsDotOperand = false;
      for (Operation *op : u.ops)
        for (OpOperand &use : op->getOpOperands())
          if (use.get() == tile) {
            reads = true;
            readsAsDotOperand |= isa<DotOp>(op) && use.getOperandNumber() < 2;
          }
      if (!reads)
        continue;
      if (readsAsDotOperand && retire[i].second >= 0)
        consider(u.off - retire[i].first, retire[i].second, -1);
      else
        consider(u.off, -1, i);
    }
    if (bestDelta == INT64_MIN)
      continue; // read by the producer's group only: cannot happen (placement)
    Release rel{ri, bestDelta};
    p.rings[ri].releaseDelta = bestDelta;
    if (bestWhere < 0)
      p.body[bestAfterUnit].releasesAfter.push_back(rel);
    else if (bestWhere < static_cast<int>(p.body.size()))
      p.body[bestWhere].releases.push_back(rel);
    else
      p.endReleases.push_back(rel);
  }
}

} // namespace

LogicalResult stagecraft::lowering::expandSchedule(KernelPlan &plan) {
  return Expander(plan).run();
}
