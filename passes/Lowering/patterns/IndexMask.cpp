//===- IndexMask.cpp - constants, splats, index tiles and masks -----------===//
//
// Tiles a kernel builds from scalars: splat constants and tensor.splat (one
// value per thread), tile.iota (row indices are constant along a row, column
// indices along a column: views until combined), and tile.mask, the
// attention score mask, which tests each element only in key blocks that
// reach past the key limit or (causal) above the diagonal.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <limits>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;

namespace {

using arith::CmpIPredicate;

/// A splat constant's value as a carrier scalar.
Value splatValue(OpBuilder &b, Location loc, DenseElementsAttr dense) {
  Type t = dense.getElementType();
  if (isa<FloatType>(t)) {
    APFloat v = dense.getSplatValue<APFloat>();
    bool lost;
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v.convertToFloat()));
  }
  APInt v = dense.getSplatValue<APInt>();
  if (t.isInteger(1))
    return arith::ConstantIntOp::create(b, loc, v.getBoolValue() ? 1 : 0, 1);
  return arith::ConstantIntOp::create(b, loc, v.getSExtValue(), 32);
}

class ConstantPattern final : public TilePattern {
public:
  bool elementLocal() const override { return true; }
  bool matches(Operation *op) const override {
    auto c = dyn_cast<arith::ConstantOp>(op);
    return c && isa<RankedTensorType>(c.getType());
  }
  FailureOr<Layout> inferLayout(Operation *op, ArrayRef<Layout>, const TileGeometry &,
                                std::string &why) const override {
    auto dense = dyn_cast<DenseElementsAttr>(cast<arith::ConstantOp>(op).getValue());
    if (!dense || !dense.isSplat()) {
      why = "is not a splat: only splat tensor constants are lowered (a tile with different values "
            "per element would need a load)";
      return failure();
    }
    return Layout::splat();
  }
  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    auto dense = cast<DenseElementsAttr>(cast<arith::ConstantOp>(op).getValue());
    return Frag{result, dense.getElementType(), {splatValue(ctx.e.b, ctx.e.loc, dense)}, false};
  }
  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    auto dense = cast<DenseElementsAttr>(cast<arith::ConstantOp>(op).getValue());
    ctx.forEach(op->getResult(0), [&](ValueRange) {
      return splatValue(ctx.b, ctx.loc, dense);
    });
  }
};

/// A scalar made a carrier (f32 for floats, i32 for integers and index).
Value toCarrier(OpBuilder &b, Location loc, Value s, Type elementType) {
  Type carrier = carrierType(elementType);
  if (s.getType() == carrier)
    return s;
  if (isa<FloatType>(s.getType()))
    return LLVM::FPExtOp::create(b, loc, carrier, s);
  unsigned from = s.getType().getIntOrFloatBitWidth(), to = carrier.getIntOrFloatBitWidth();
  if (from > to)
    return arith::TruncIOp::create(b, loc, carrier, s);
  return arith::ExtSIOp::create(b, loc, carrier, s);
}

class SplatPattern final : public TilePattern {
public:
  bool elementLocal() const override { return true; }
  bool matches(Operation *op) const override { return isa<tensor::SplatOp>(op); }
  FailureOr<Layout> inferLayout(Operation *, ArrayRef<Layout>, const TileGeometry &,
                                std::string &) const override {
    return Layout::splat();
  }
  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    auto s = cast<tensor::SplatOp>(op);
    Type t = s.getType().getElementType();
    Value v = toCarrier(ctx.e.b, ctx.e.loc, ctx.scalar(s.getInput()), t);
    return Frag{result, t, {v}, isa<FloatType>(t) && !t.isF32()};
  }
  bool unroundedResult(Operation *op) const override {
    Type t = cast<tensor::SplatOp>(op).getType().getElementType();
    return isa<FloatType>(t) && !t.isF32();
  }
  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    auto s = cast<tensor::SplatOp>(op);
    ctx.forEach(s.getResult(), [&](ValueRange) {
      return toCarrier(ctx.b, ctx.loc, ctx.scalar(s.getInput()), s.getType().getElementType());
    });
  }
};

class IotaPattern final : public TilePattern {
public:
  bool elementLocal() const override { return true; }
  bool matches(Operation *op) const override { return isa<IotaOp>(op); }
  FailureOr<Layout> inferLayout(Operation *op, ArrayRef<Layout>, const TileGeometry &,
                                std::string &) const override {
    auto iota = cast<IotaOp>(op);
    auto t = cast<RankedTensorType>(iota.getType());
    if (t.getRank() == 2)
      return iota.getDim() == 0 ? Layout{Kind::RowView, t.getDimSize(1)}
                                : Layout{Kind::ColView, t.getDimSize(1)};
    // A 1-d iota runs along rows or columns as its users decide (the
    // placement's vector orientation); the caller passes it in.
    return Layout::rows();
  }
  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    auto iota = cast<IotaOp>(op);
    Value offset = ctx.scalar(iota.getOffset());
    Frag out{result, ctx.e.i32(), {}, false};
    bool byRow = result.kind == Kind::Rows || result.kind == Kind::RowView;
    for (int64_t e = 0; e < result.count(ctx.geom); ++e)
      out.elems.push_back(ctx.e.add(offset, byRow ? ctx.rowOf(result, e) : ctx.colOf(result, e)));
    return out;
  }
  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    auto iota = cast<IotaOp>(op);
    ctx.forEach(iota.getResult(), [&](ValueRange index) {
      hopper::Emitter e = ctx.emitter();
      return e.add(ctx.scalar(iota.getOffset()), index[iota.getDim()]);
    });
  }
};

class MaskPattern final : public TilePattern {
public:
  bool matches(Operation *op) const override { return isa<MaskOp>(op); }
  FailureOr<Layout> inferLayout(Operation *op, ArrayRef<Layout> operands, const TileGeometry &,
                                std::string &why) const override {
    if (!operands[0].is2d() && operands[0].kind != Kind::Splat) {
      why = "needs a tile in registers";
      return failure();
    }
    return Layout::tile(cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(1));
  }

  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    auto m = cast<MaskOp>(op);
    hopper::Emitter &e = ctx.e;
    Frag in = ctx.operand(op, 0);
    SmallVector<Value> regs;
    for (int64_t i = 0; i < result.count(ctx.geom); ++i)
      regs.push_back(ctx.element(in, result, i));
    Value q0 = ctx.scalar(m.getRowOffset());
    Value k0 = ctx.scalar(m.getColOffset());
    Value limit = ctx.scalar(m.getColLimit());
    // Only blocks that reach past the key limit or, causal, above the
    // diagonal take the per-element test.
    Value kEnd = e.add(k0, e.c32(result.cols));
    Value partial = e.cmp(CmpIPredicate::sgt, kEnd, limit);
    if (m.getCausal())
      partial = arith::OrIOp::create(e.b, e.loc, partial,
                                     e.cmp(CmpIPredicate::sgt, e.sub(kEnd, e.c32(1)), q0));
    ValueRange masked = e.ifYield(partial, regs, [&] {
      Value ninf = arith::ConstantOp::create(
          e.b, e.loc, e.b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
      SmallVector<Value> r;
      for (int64_t i = 0; i < result.count(ctx.geom); ++i) {
        Value row = e.add(q0, ctx.rowOf(result, i));
        Value col = e.add(k0, ctx.colOf(result, i));
        Value out = e.cmp(CmpIPredicate::sge, col, limit);
        if (m.getCausal())
          out = arith::OrIOp::create(e.b, e.loc, out, e.cmp(CmpIPredicate::sgt, col, row));
        r.push_back(arith::SelectOp::create(e.b, e.loc, out, ninf, regs[i]));
      }
      return r;
    });
    return Frag{result, e.f32(), SmallVector<Value>(masked.begin(), masked.end()), false};
  }

  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    auto m = cast<MaskOp>(op);
    ctx.forEach(m.getResult(), [&](ValueRange index) {
      hopper::Emitter e = ctx.emitter();
      Value row = e.add(ctx.scalar(m.getRowOffset()), index[0]);
      Value col = e.add(ctx.scalar(m.getColOffset()), index[1]);
      Value out = e.cmp(CmpIPredicate::sge, col, ctx.scalar(m.getColLimit()));
      if (m.getCausal())
        out = arith::OrIOp::create(e.b, e.loc, out, e.cmp(CmpIPredicate::sgt, col, row));
      Value ninf = arith::ConstantOp::create(
          e.b, e.loc, e.b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
      return arith::SelectOp::create(e.b, e.loc, out, ninf, ctx.element(m.getInput(), index))
          .getResult();
    });
  }
};

} // namespace

namespace stagecraft::lowering {
const TilePattern &constantPattern() {
  static ConstantPattern p;
  return p;
}
const TilePattern &splatPattern() {
  static SplatPattern p;
  return p;
}
const TilePattern &iotaPattern() {
  static IotaPattern p;
  return p;
}
const TilePattern &maskPattern() {
  static MaskPattern p;
  return p;
}

} // namespace stagecraft::lowering
