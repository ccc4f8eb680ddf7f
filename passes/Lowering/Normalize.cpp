//===- Normalize.cpp - the forms both lowerings start from ----------------===//
#include "passes/Lowering/Normalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

} // namespace

void stagecraft::lowering::normalizeKernel(func::FuncOp kernel) {
  eraseDeadOps(kernel);
  splatScalarSelectConditions(kernel);
}
