//===- ScalarLowering.cpp - index math and scalars on i32 -----------------===//
#include "passes/Lowering/ScalarLowering.h"
#include "passes/Lowering/patterns/Patterns.h"

#include "core/Dialect/Tile/IR/Cluster.h"
#include "core/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;

namespace {
Type loweredType(hopper::Emitter &e, Type t) {
  if (t.isIndex())
    return e.i32();
  return t;
}
} // namespace

Value stagecraft::lowering::lowerScalar(hopper::Emitter &e, Value v, IRMapping &map,
                                        const ScalarSources &sources) {
  if (Value m = map.lookupOrNull(v))
    return m;
  Operation *def = v.getDefiningOp();
  assert(def && "unmapped block argument");
  Value result;
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      result = arith::ConstantIntOp::create(e.b, e.loc, i.getInt(),
                                            c.getType().isIndex() ? 32
                                                                  : c.getType().getIntOrFloatBitWidth());
    else
      result = arith::ConstantOp::create(e.b, e.loc, cast<TypedAttr>(c.getValue()));
  } else if (auto pid = dyn_cast<tile::ProgramIdOp>(def)) {
    result = sources.programId(e, pid.getDim());
  } else if (auto np = dyn_cast<tile::NumProgramsOp>(def)) {
    result = sources.numPrograms(e, np.getDim());
  } else if (isa<tile::ClusterRankOp, tile::ClusterIdOp, tile::NumClustersOp,
                 tile::ClusterSizeOp>(def)) {
    // C consecutive CTAs along dimension 0 form a cluster (tile::clusterOpValue).
    Value c = e.c32(tile::clusterSize(def));
    if (isa<tile::ClusterSizeOp>(def))
      result = c;
    else if (isa<tile::ClusterRankOp>(def))
      result = e.remu(sources.programId(e, 0), c);
    else if (isa<tile::ClusterIdOp>(def))
      result = e.divu(sources.programId(e, 0), c);
    else
      result = e.divu(sources.numPrograms(e, 0), c);
  } else if (auto ex = dyn_cast<tensor::ExtractOp>(def)) {
    // An element of a loaded tile (a per-tensor scale): read where it lives.
    SmallVector<Value> index;
    for (Value i : ex.getIndices())
      index.push_back(lowerScalar(e, i, map, sources));
    assert(sources.extract && "tensor.extract: placement checks the tile is loaded");
    result = sources.extract(e, ex.getTensor(), index);
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def)) {
    // index is i32 here: a cast to or from i32 is the value itself.
    Value in = lowerScalar(e, def->getOperand(0), map, sources);
    Type to = loweredType(e, def->getResult(0).getType());
    unsigned from = in.getType().getIntOrFloatBitWidth(), width = to.getIntOrFloatBitWidth();
    if (from == width)
      result = in;
    else if (from > width)
      result = arith::TruncIOp::create(e.b, e.loc, to, in);
    else if (isa<arith::IndexCastOp>(def))
      result = arith::ExtSIOp::create(e.b, e.loc, to, in);
    else
      result = arith::ExtUIOp::create(e.b, e.loc, to, in);
  } else if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp, arith::FloorDivSIOp>(def)) {
    // Not lowered by arith's conversion to LLVM; arith-expand would also
    // expand maximumf into compares and selects. Spelled out here:
    //   ceildiv(a, b) = (a + b - 1) / b for a >= 0, b > 0 (unsigned),
    //   signed forms rounding toward +inf / -inf.
    Value a = lowerScalar(e, def->getOperand(0), map, sources);
    Value b = lowerScalar(e, def->getOperand(1), map, sources);
    Value one = arith::ConstantIntOp::create(e.b, e.loc, 1, a.getType().getIntOrFloatBitWidth());
    Value zero = arith::ConstantIntOp::create(e.b, e.loc, 0, a.getType().getIntOrFloatBitWidth());
    if (isa<arith::CeilDivUIOp>(def)) {
      // a == 0 ? 0 : (a - 1) / b + 1 (no overflow of a + b - 1)
      Value q = arith::AddIOp::create(
          e.b, e.loc, arith::DivUIOp::create(e.b, e.loc, arith::SubIOp::create(e.b, e.loc, a, one), b),
          one);
      result = arith::SelectOp::create(
          e.b, e.loc, arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq, a, zero), zero, q);
    } else {
      // Truncating quotient, adjusted by one where the remainder is non-zero
      // and the exact quotient lies on the rounding side.
      Value q = arith::DivSIOp::create(e.b, e.loc, a, b);
      Value r = arith::RemSIOp::create(e.b, e.loc, a, b);
      Value inexact = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::ne, r, zero);
      Value negative = arith::CmpIOp::create(
          e.b, e.loc, arith::CmpIPredicate::ne,
          arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::slt, a, zero),
          arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::slt, b, zero));
      bool ceil = isa<arith::CeilDivSIOp>(def);
      Value adjust = arith::AndIOp::create(
          e.b, e.loc, inexact,
          ceil ? arith::XOrIOp::create(e.b, e.loc, negative,
                                       arith::ConstantIntOp::create(e.b, e.loc, 1, 1))
                     .getResult()
               : negative);
      Value step = ceil ? one : arith::ConstantIntOp::create(e.b, e.loc, -1, a.getType().getIntOrFloatBitWidth()).getResult();
      result = arith::SelectOp::create(e.b, e.loc, adjust, arith::AddIOp::create(e.b, e.loc, q, step), q);
    }
  } else {
    SmallVector<Value> operands;
    for (Value o : def->getOperands())
      operands.push_back(lowerScalar(e, o, map, sources));
    // f32 math through the element-wise table (the kernel's fast forms);
    // math ops on i32 and i1 too (Placement checked the types); other
    // arith ops as they are, for arith's own conversion.
    Type t = def->getResult(0).getType();
    if (const ScalarFn *fn = findScalarFn(def);
        fn && (t.isF32() || isa<math::MathDialect>(def->getDialect()))) {
      result = (*fn)(e.b, e.loc, def, operands, sources.fast);
    } else {
      OperationState state(def->getLoc(), def->getName(), operands,
                           TypeRange{loweredType(e, def->getResult(0).getType())},
                           def->getAttrs());
      result = e.b.create(state)->getResult(0);
    }
  }
  map.map(v, result);
  return result;
}

Value stagecraft::lowering::lowerAffine(hopper::Emitter &e, AffineExpr expr,
                                        ArrayRef<Value> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return e.c32(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(expr);
  Value l = lowerAffine(e, bin.getLHS(), symbols), r = lowerAffine(e, bin.getRHS(), symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add: return e.add(l, r);
  case AffineExprKind::Mul: return e.mul(l, r);
  // Sizes and shapes are positive: unsigned division is exact here.
  case AffineExprKind::FloorDiv: return e.divu(l, r);
  case AffineExprKind::CeilDiv: return e.divu(e.add(l, e.sub(r, e.c32(1))), r);
  case AffineExprKind::Mod: return e.remu(l, r);
  default: llvm_unreachable("affine expression kind");
  }
}
