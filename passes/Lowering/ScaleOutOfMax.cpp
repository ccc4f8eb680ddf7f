//===- ScaleOutOfMax.cpp - max(x * c) as max(x) * c, for c > 0 ------------===//
//
// See ScaleOutOfMax.h. Runs on the scheduled kernel at the start of its
// lowering (like splitScaledDots), so the pipelining sees the rewritten ops.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/ScaleOutOfMax.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace stagecraft {
#define GEN_PASS_DEF_TILEFACTORSCALEOUTOFMAX
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

namespace {

/// The splat value of `v` when it is an arith.constant splat of a positive,
/// finite float.
arith::ConstantOp positiveSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseFPElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.isSplat())
    return nullptr;
  APFloat f = dense.getSplatValue<APFloat>();
  if (f.isNegative() || f.isZero() || !f.isFiniteNonZero())
    return nullptr;
  return c;
}

} // namespace

void stagecraft::lowering::factorScaleOutOfMax(func::FuncOp kernel) {
  SmallVector<ReduceOp> maxima;
  kernel.walk([&](ReduceOp r) {
    if (r.getKind() == ReduceKind::Max)
      maxima.push_back(r);
  });
  for (ReduceOp r : maxima) {
    auto mul = r.getInput().getDefiningOp<arith::MulFOp>();
    if (!mul)
      continue;
    Value x = mul.getLhs();
    arith::ConstantOp scale = positiveSplat(mul.getRhs());
    if (!scale) {
      x = mul.getRhs();
      scale = positiveSplat(mul.getLhs());
    }
    if (!scale)
      continue;
    auto resultType = cast<RankedTensorType>(r.getResult().getType());
    auto splat = cast<DenseFPElementsAttr>(scale.getValue());
    OpBuilder b(scale);
    b.setInsertionPointAfter(scale);
    auto reducedScale = arith::ConstantOp::create(
        b, scale.getLoc(),
        DenseElementsAttr::get(resultType, splat.getSplatValue<Attribute>()));
    b.setInsertionPoint(r);
    auto max = ReduceOp::create(b, r.getLoc(), resultType, r.getKindAttr(), x, r.getDimAttr());
    auto scaled = arith::MulFOp::create(b, r.getLoc(), max.getResult(), reducedScale.getResult(),
                                        mul.getFastmathAttr());
    if (ScheduleAttr s = getSchedule(r)) {
      setSchedule(max, s);
      setSchedule(scaled, s);
    }
    r.getResult().replaceAllUsesWith(scaled.getResult());
    r.erase();
    if (mul->use_empty()) {
      mul.erase();
      continue;
    }
    // The product is now read later only (the subtraction of the maximum):
    // made just before its first reader in the block, so that x, not both x
    // and x * c, is live across the reduction (the register estimate sees
    // the same footprint as before; LLVM fuses the product into the fma).
    Operation *first = nullptr;
    for (Operation *user : mul->getUsers()) {
      Operation *u = mul->getBlock()->findAncestorOpInBlock(*user);
      if (u && (!first || u->isBeforeInBlock(first)))
        first = u;
    }
    if (first && mul->isBeforeInBlock(first))
      mul->moveBefore(first);
  }
}

namespace {
struct TileFactorScaleOutOfMaxPass
    : stagecraft::impl::TileFactorScaleOutOfMaxBase<TileFactorScaleOutOfMaxPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp f) { lowering::factorScaleOutOfMax(f); });
  }
};
} // namespace
