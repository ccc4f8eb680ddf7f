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

/// Whether every value of `x` is a computed score or a constant whose
/// product with `scale` is small or infinite, so that fusing `x * scale - m`
/// into one fma is safe. The fused difference is exact where the written one
/// rounds the product first; they differ by at most half an ulp of the
/// product, and exp2 turns that into a relative error of 2^(ulp/2). For
/// scores that is negligible (what nvcc, Triton and FlashAttention do); for
/// a finite sentinel such as -1e30, whose own row maximum is itself, it is
/// not: the written form gives exp2(0) = 1, the fused one exp2(+-1e22).
/// Infinite sentinels (tile.mask's -inf) behave the same either way.
bool safeToFuse(Value x, const APFloat &scale, int depth = 0) {
  if (depth > 8)
    return false;
  Operation *def = x.getDefiningOp();
  if (!def)
    return false;
  if (isa<DotOp>(def))
    return true;
  if (auto m = dyn_cast<MaskOp>(def))
    return safeToFuse(m.getInput(), scale, depth + 1);
  if (auto sel = dyn_cast<arith::SelectOp>(def))
    return safeToFuse(sel.getTrueValue(), scale, depth + 1) &&
           safeToFuse(sel.getFalseValue(), scale, depth + 1);
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseFPElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat())
      return false;
    APFloat v = dense.getSplatValue<APFloat>();
    if (v.isInfinity())
      return true;
    bool lost = false;
    APFloat product = v;
    product.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    APFloat s = scale;
    s.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    product.multiply(s, APFloat::rmNearestTiesToEven);
    // Half an ulp of a float below 2^20 is under 1/16: exp2 of it is
    // within 5% of 1, as for any score that large.
    return std::abs(product.convertToDouble()) < double(1 << 20);
  }
  return false;
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
    if (!scale ||
        !safeToFuse(x, cast<DenseFPElementsAttr>(scale.getValue()).getSplatValue<APFloat>()))
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
