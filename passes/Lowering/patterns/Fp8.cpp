//===- Fp8.cpp - FP8 and e8m0 values in the lowerings ---------------------===//
//
// Exact byte -> f32 conversions without PTX's cvt (the reference and the
// kernel share them: a decoding, not a rounding), by way of f16 bit patterns:
//  - e5m2 is the upper byte of an f16 (same exponent bias 15): f16 bits = b << 8;
//  - e4m3fn (bias 7) moved into an f16's fields, sign << 15 | (b & 0x7f) << 7,
//    is the value times 2^-8, subnormals included; 0x7f / 0xff is NaN (e4m3fn
//    has no infinities);
//  - e8m0 is a bare exponent: 2^(b - 127), f32 bits b << 23, with b = 0 the
//    f32 subnormal 2^-127 and b = 255 NaN.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Fp8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

using namespace mlir;

bool stagecraft::lowering::isByteFloat(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType>(type);
}

Type stagecraft::lowering::memoryType(Type type) {
  return isByteFloat(type) ? IntegerType::get(type.getContext(), 8) : type;
}

Value stagecraft::lowering::byteFloatToF32(OpBuilder &b, Location loc, Value bits, Type type) {
  auto i32 = b.getI32Type();
  auto c = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  Value x = bits;
  if (x.getType() != i32)
    x = arith::ExtUIOp::create(b, loc, i32, x);
  x = arith::AndIOp::create(b, loc, x, c(0xFF));
  if (isa<Float8E8M0FNUType>(type)) {
    Value normal = arith::ShLIOp::create(b, loc, x, c(23));
    Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(0));
    Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(0xFF));
    Value f = arith::SelectOp::create(b, loc, isZero, c(0x00400000), normal);
    f = arith::SelectOp::create(b, loc, isNaN, c(0x7FC00000), f);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), f);
  }
  Value h;
  if (isa<Float8E5M2Type>(type)) {
    h = arith::ShLIOp::create(b, loc, x, c(8));
  } else {
    Value sign = arith::ShLIOp::create(b, loc, arith::AndIOp::create(b, loc, x, c(0x80)), c(8));
    Value mag = arith::ShLIOp::create(b, loc, arith::AndIOp::create(b, loc, x, c(0x7F)), c(7));
    h = arith::OrIOp::create(b, loc, sign, mag);
  }
  Value h16 = arith::TruncIOp::create(b, loc, b.getI16Type(), h);
  Value f = LLVM::FPExtOp::create(b, loc, b.getF32Type(),
                                  arith::BitcastOp::create(b, loc, b.getF16Type(), h16));
  if (isa<Float8E5M2Type>(type))
    return f;
  f = arith::MulFOp::create(b, loc, f,
                            arith::ConstantOp::create(b, loc, b.getF32FloatAttr(256.0f)));
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      arith::AndIOp::create(b, loc, x, c(0x7F)), c(0x7F));
  Value nan = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
  return arith::SelectOp::create(b, loc, isNaN, nan, f);
}

std::pair<Value, Value> stagecraft::lowering::fp8PairToF32(OpBuilder &b, Location loc, Value pair,
                                                          Type type) {
  Value h = pair;
  if (h.getType() != b.getI16Type())
    h = arith::TruncIOp::create(b, loc, b.getI16Type(), h);
  std::string text = isa<Float8E5M2Type>(type) ? "cvt.rn.f16x2.e5m2x2 $0, $1;"
                                               : "cvt.rn.f16x2.e4m3x2 $0, $1;";
  auto op = LLVM::InlineAsmOp::create(
      b, loc, b.getI32Type(), ValueRange{h}, b.getStringAttr(text), b.getStringAttr("=r,h"),
      /*has_side_effects=*/UnitAttr(), /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(b.getContext(), LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  Value halves = LLVM::BitcastOp::create(b, loc, VectorType::get({2}, b.getF16Type()),
                                         op.getResult(0));
  auto half = [&](int64_t i) -> Value {
    Value x = LLVM::ExtractElementOp::create(
        b, loc, halves, arith::ConstantIntOp::create(b, loc, i, 32).getResult());
    return LLVM::FPExtOp::create(b, loc, b.getF32Type(), x);
  };
  return {half(0), half(1)};
}

Value stagecraft::lowering::f32PairToFp8(OpBuilder &b, Location loc, Value lo, Value hi,
                                         Type type) {
  // The instruction's first source goes to the upper byte.
  StringRef name = isa<Float8E5M2Type>(type) ? "llvm.nvvm.ff.to.e5m2x2.rn"
                                             : "llvm.nvvm.ff.to.e4m3x2.rn";
  return LLVM::CallIntrinsicOp::create(b, loc, b.getI16Type(), b.getStringAttr(name),
                                       ValueRange{hi, lo})
      .getResult(0);
}

Value stagecraft::lowering::f32ToFp8Byte(OpBuilder &b, Location loc, Value v, Type type) {
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  return LLVM::TruncOp::create(b, loc, b.getI8Type(), f32PairToFp8(b, loc, v, zero, type));
}

Value stagecraft::lowering::roundToFp8(OpBuilder &b, Location loc, Value v, Type type,
                                       bool reference) {
  if (!reference)
    return byteFloatToF32(b, loc, f32ToFp8Byte(b, loc, v, type), type);
  bool e5m2 = isa<Float8E5M2Type>(type);
  int mantissa = e5m2 ? 2 : 3, minExponent = e5m2 ? -14 : -6;
  float largest = e5m2 ? 57344.0f : 448.0f;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto ci = [&](int64_t x) { return arith::ConstantIntOp::create(b, loc, x, 32).getResult(); };
  auto cf = [&](float x) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(x)).getResult();
  };
  // The binade's exponent from v's bits (f32 subnormals are far below
  // FP8's smallest normal, so their exponent field 0 clamps like any).
  Value bits = arith::BitcastOp::create(b, loc, i32, v);
  Value field =
      arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, bits, ci(23)), ci(0xFF));
  Value e = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, field, ci(127)),
                                   ci(minExponent));
  // quantum = 2^(e - m), built from its exponent field (e - m >= -17: normal).
  Value quantumField = arith::AddIOp::create(b, loc, e, ci(127 - mantissa));
  Value quantum = arith::BitcastOp::create(
      b, loc, f32, arith::ShLIOp::create(b, loc, quantumField, ci(23)));
  Value steps = LLVM::RoundEvenOp::create(b, loc, arith::DivFOp::create(b, loc, v, quantum));
  Value r = arith::MulFOp::create(b, loc, steps, quantum);
  Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                    LLVM::FAbsOp::create(b, loc, r), cf(largest));
  Value saturated = LLVM::CopySignOp::create(b, loc, cf(largest), v);
  return arith::SelectOp::create(b, loc, big, saturated, r);
}

Value stagecraft::lowering::loadedToF32(OpBuilder &b, Location loc, Value loaded, Type type) {
  if (isByteFloat(type))
    return byteFloatToF32(b, loc, loaded, type);
  if (type.isF32() || type.isInteger(32)) // i32 tables are carried as they are
    return loaded;
  return LLVM::FPExtOp::create(b, loc, b.getF32Type(), loaded);
}
