//===- Common.cpp - what the patterns share -------------------------------===//
#include "passes/Lowering/patterns/Patterns.h"
#include "passes/Lowering/patterns/Fp8.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace stagecraft::lowering;

Type stagecraft::lowering::carrierType(Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  if (isa<FloatType>(elementType))
    return Float32Type::get(ctx);
  if (elementType.isInteger(1))
    return IntegerType::get(ctx, 1);
  return IntegerType::get(ctx, 32);
}

Value stagecraft::lowering::roundTo(OpBuilder &b, Location loc, Value v, Type type,
                                    bool reference) {
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return roundToFp8(b, loc, v, type, reference);
  // e8m0 scales are only ever loaded (placement refuses computing them):
  // their values are exact already.
  if (!isa<FloatType>(type) || type.isF32() || isByteFloat(type))
    return v;
  Value narrow = LLVM::FPTruncOp::create(b, loc, type, v);
  return LLVM::FPExtOp::create(b, loc, b.getF32Type(), narrow);
}

int stagecraft::lowering::mantissaBits(Type type) {
  if (auto f = dyn_cast<FloatType>(type))
    return f.getFPMantissaWidth();
  return 24;
}

Value stagecraft::lowering::unpackHalf(OpBuilder &b, Location loc, Value pair, Type type,
                                       int64_t half) {
  auto vec = VectorType::get({2}, type);
  Value v = LLVM::BitcastOp::create(b, loc, vec, pair);
  Value h = LLVM::ExtractElementOp::create(
      b, loc, v, arith::ConstantIntOp::create(b, loc, half, 32).getResult());
  return LLVM::FPExtOp::create(b, loc, b.getF32Type(), h);
}

Value RegisterContext::element(const Frag &f, const Layout &to, int64_t el) {
  int64_t src = sourceElement(f.layout, to, el, geom);
  if (f.packed)
    return unpackHalf(e.b, e.loc, f.elems[src / 2], f.type, src % 2);
  Value v = f.elems[src];
  return f.unrounded ? roundTo(e.b, e.loc, v, f.type) : v;
}

Value ReferenceContext::sumIndex(Value k, int64_t length) {
  if (!reorder)
    return k;
  hopper::Emitter e = emitter();
  Value reversed = e.sub(e.c32(length - 1), k);
  return arith::SelectOp::create(b, loc, reorder, reversed, k);
}
