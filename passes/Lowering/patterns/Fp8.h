//===- Fp8.h - FP8 and e8m0 values in the lowerings -----------------*- C++ -*-===//
//
// LLVM has no 8-bit float types: FP8 (f8E4M3FN, f8E5M2) and e8m0 scale
// (f8E8M0FNU) elements are bytes in memory and f32 carriers in registers,
// converted exactly here. Both lowerings use these helpers, so a kernel and
// its reference read the same values.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_PATTERNS_FP8_H
#define STAGECRAFT_PASSES_LOWERING_PATTERNS_FP8_H

#include "mlir/IR/Builders.h"

#include <utility>

namespace stagecraft::lowering {

/// True for the 1-byte float types (f8E4M3FN, f8E5M2, f8E8M0FNU).
bool isByteFloat(mlir::Type type);
/// The type a `type` element is loaded and stored as: i8 for the 1-byte
/// floats, `type` itself otherwise.
mlir::Type memoryType(mlir::Type type);
/// The f32 value of the byte `bits` (i8, i16 or i32: the low 8 bits) read as
/// `type` (f8E4M3FN, f8E5M2 or f8E8M0FNU). Exact, NaN encodings included.
mlir::Value byteFloatToF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bits,
                           mlir::Type type);
/// The two FP8 values (f8E4M3FN or f8E5M2) in the low 16 bits of `pair` (i16
/// or i32; the low byte first) as f32, by one cvt.rn.f16x2.{e4m3,e5m2}x2
/// (sm_89+; exact: every FP8 value is an f16) and two conversions to f32.
/// The pipelined kernels' fast form of byteFloatToF32 (same values).
std::pair<mlir::Value, mlir::Value> fp8PairToF32(mlir::OpBuilder &b, mlir::Location loc,
                                                 mlir::Value pair, mlir::Type type);
/// Two f32 values rounded to FP8 `type` (f8E4M3FN or f8E5M2) and packed, `lo`
/// in the low byte of the i16: cvt.rn.satfinite.{e4m3,e5m2}x2.f32 (sm_89+),
/// to nearest even, magnitudes past the largest finite value (infinities
/// too) saturating to it, as CUTLASS's and Transformer Engine's epilogues
/// convert; NaN stays NaN. The pipelined kernels' conversion.
mlir::Value f32PairToFp8(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lo,
                         mlir::Value hi, mlir::Type type);
/// `v` (f32) as its FP8 `type` byte (i8), by the conversion above.
mlir::Value f32ToFp8Byte(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         mlir::Type type);
/// `v` (f32) rounded to FP8 `type` as f32, with the semantics above. The
/// kernel's (`reference` false) converts by cvt and back; the reference's
/// computes it on its own: the quantum 2^(e - m) of v's binade (e at least
/// the format's smallest normal exponent, so subnormals round alike, m its
/// mantissa bits), v / quantum rounded to even (exact: powers of two), the
/// result saturated. So a store or a rounding of FP8 is checked, not shared.
mlir::Value roundToFp8(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       mlir::Type type, bool reference);
/// A value loaded from memory as `memoryType(type)` made its carrier (f32;
/// i32 as it is).
mlir::Value loadedToF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value loaded,
                        mlir::Type type);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_PATTERNS_FP8_H
