//===- Normalize.cpp - the forms both lowerings start from ----------------===//
#include "passes/Lowering/Normalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

void eraseDeadOps(func::FuncOp kernel) {
  bool erased = true;
  while (erased) {
    erased = false;
    kernel.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (op != kernel.getOperation() && isOpTriviallyDead(op)) {
        op->erase();
        erased = true;
      }
    });
  }
}

void splatScalarSelectConditions(func::FuncOp kernel) {
  SmallVector<arith::SelectOp> selects;
  kernel.walk([&](arith::SelectOp s) {
    if (!isa<ShapedType>(s.getCondition().getType()) && isa<RankedTensorType>(s.getType()))
      selects.push_back(s);
  });
  for (arith::SelectOp s : selects) {
    OpBuilder b(s);
    auto t = cast<RankedTensorType>(s.getType());
    auto cond = tensor::SplatOp::create(
        b, s.getLoc(), RankedTensorType::get(t.getShape(), b.getI1Type()), s.getCondition());
    if (Attribute sched = s->getAttr("tile.sched"))
      cond->setAttr("tile.sched", sched);
    s.getConditionMutable().assign(cond);
  }
}

/// math.sincos as a math.sin and a math.cos: the lowerings make one result
/// an op, and libdevice's sincosf is the two functions' common path anyway.
struct SplitSinCos final : OpRewritePattern<math::SincosOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SincosOp op, PatternRewriter &rewriter) const override {
    Value sin = math::SinOp::create(rewriter, op.getLoc(), op.getOperand(), op.getFastmath());
    Value cos = math::CosOp::create(rewriter, op.getLoc(), op.getOperand(), op.getFastmath());
    rewriter.replaceOp(op, ValueRange{sin, cos});
    return success();
  }
};

/// Gives every op a rewrite inserts the schedule of the op it replaces, so
/// the expansion stays in that op's unit (constants are not scheduled).
struct InheritSchedule final : RewriterBase::Listener {
  Attribute sched;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    if (sched && !isa<arith::ConstantOp>(op) && !op->hasAttr("tile.sched"))
      op->setAttr("tile.sched", sched);
  }
};

/// Ops on tiles that MLIR's own expansions write in ops the element-wise
/// patterns take: math.clampf (minimumf, maximumf), math.fpowi (multiplies
/// for a constant power, powf of the converted power otherwise),
/// arith.ceildivsi/ceildivui/floordivsi (a division and a correction),
/// math.sincos (above), on tiles or on f32 scalars (a tensor.splat's).
/// Both lowerings run after this, so the reference computes the same
/// expansion in its own precision. Integer divisions of scalars (index
/// arithmetic) are left to the scalar lowering.
void expandTileOps(func::FuncOp kernel) {
  MLIRContext *ctx = kernel.getContext();
  RewritePatternSet set(ctx);
  math::populateExpansionPatterns(set, {"clampf", "fpowi"});
  arith::populateCeilFloorDivExpandOpsPatterns(set);
  set.add<SplitSinCos>(ctx);
  FrozenRewritePatternSet patterns(std::move(set));

  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    bool onTiles =
        llvm::any_of(op->getResultTypes(), [](Type t) { return isa<RankedTensorType>(t); });
    if (isa<math::ClampFOp, math::FPowIOp, math::SincosOp>(op) ||
        (onTiles && isa<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op)))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    InheritSchedule listener;
    listener.sched = op->getAttr("tile.sched");
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
        .setListener(&listener);
    (void)applyOpPatternsGreedily(ArrayRef<Operation *>{op}, patterns, config);
  }
}

} // namespace

void stagecraft::lowering::normalizeKernel(func::FuncOp kernel) {
  eraseDeadOps(kernel);
  splatScalarSelectConditions(kernel);
  expandTileOps(kernel);
}
