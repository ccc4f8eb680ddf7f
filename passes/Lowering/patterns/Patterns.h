//===- Patterns.h - one lowering pattern per op family -------------*- C++ -*-===//
//
// The ops of a tile kernel that compute in registers, each lowered by one
// pattern that knows three things about its op family:
//  - the register layout of the result, from the operands' layouts
//    (RegisterLayout.h), or why the op cannot be lowered;
//  - the pipelined lowering: this thread's elements of the result, from its
//    operands' elements (RegisterContext);
//  - the reference lowering: every element of the result, one thread per
//    element, in fp32, no pipelining (ReferenceContext; Reference.cpp).
// A new elementwise op is one entry in Elementwise.cpp; a new op family is
// one file here.
//
// Dots, TMA loads and stores touch shared memory, barriers and the wgmma
// pipeline; their patterns (Dot.cpp, LoadStore.cpp) have interfaces of
// their own, declared below.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_PATTERNS_PATTERNS_H
#define STAGECRAFT_PASSES_LOWERING_PATTERNS_PATTERNS_H

#include "passes/Lowering/HopperOps.h"
#include "passes/Lowering/RegisterLayout.h"

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <functional>
#include <string>

namespace stagecraft::lowering {

/// The element carrier type of a tensor element type in registers: f32 for
/// floats, i1 for i1, i32 for other integers.
mlir::Type carrierType(mlir::Type elementType);
/// `v` (f32) rounded to `type` (bf16, f16, FP8) and back; `v` for f32 and
/// e8m0 (only loaded: exact). FP8 rounds as Fp8.h's roundToFp8: the
/// reference's (`reference`) on its own, the kernel's by cvt.
mlir::Value roundTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                    mlir::Type type, bool reference = false);
/// Mantissa bits (with the implicit one) of a float type: 8 for bf16, 11
/// for f16, 24 for f32.
int mantissaBits(mlir::Type type);
/// Half `half` (0: low) of a pair of 16-bit `type` values in an i32, as f32.
mlir::Value unpackHalf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value pair,
                       mlir::Type type, int64_t half);

/// What a register pattern sees while it emits one op for this thread.
class RegisterContext {
public:
  RegisterContext(hopper::Emitter &e, const TileGeometry &geom)
      : e(e), geom(geom) {}
  virtual ~RegisterContext() = default;
  hopper::Emitter &e;
  const TileGeometry &geom;

  /// Operand `i` of `op`: this thread's elements in the operand's register
  /// layout (a shared-memory tile is read into registers).
  virtual Frag operand(mlir::Operation *op, unsigned i) = 0;
  /// A non-tensor operand (index math, scalar arith) lowered for the
  /// iteration being emitted.
  virtual mlir::Value scalar(mlir::Value v) = 0;
  /// Tile-local row and column (i32) of element `e` of a `layout` value.
  virtual mlir::Value rowOf(const Layout &layout, int64_t e) = 0;
  virtual mlir::Value colOf(const Layout &layout, int64_t e) = 0;
  /// This thread's index among the consumer threads (i32).
  virtual mlir::Value threadIndex() = 0;
  /// Byte offset of the shared memory the consumer warps exchange values
  /// through (KernelPlan::exchangeBytes of it: a reduction over rows).
  virtual mlir::Value exchangeBuffer() = 0;
  /// Every consumer thread meets (a named barrier).
  virtual void consumerBarrier() = 0;
  /// Whether element `e` of a `layout` result is read. The epilogue
  /// evaluates its element-local ops a store panel at a time, so that only
  /// the panel's columns are live (a residual beside the accumulators would
  /// otherwise double the registers); patterns that honour this leave the
  /// other elements poison.
  virtual bool needed(const Layout &, int64_t) { return true; }

  /// Element `e` of a `to`-layout result taken from `f` (a broadcast view,
  /// a splat or the same layout), as its exact value (rounded when `f`
  /// holds unrounded 16-bit values).
  mlir::Value element(const Frag &f, const Layout &to, int64_t e);
};

/// What a reference pattern sees: the value of any tensor element, and a
/// loop over the elements of the result.
class ReferenceContext {
public:
  ReferenceContext(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}
  virtual ~ReferenceContext() = default;
  mlir::OpBuilder &b;
  mlir::Location loc;

  /// Element `index` (i32 per dimension) of `tensor`, as its carrier type.
  virtual mlir::Value element(mlir::Value tensor, mlir::ValueRange index) = 0;
  /// Computes every element of `result` with `body` (given its index) and
  /// stores it, rounded to the result's element type.
  virtual void forEach(mlir::Value result,
                       const std::function<mlir::Value(mlir::ValueRange)> &body) = 0;
  /// A non-tensor value (index math, scalar arith) lowered.
  virtual mlir::Value scalar(mlir::Value v) = 0;
  hopper::Emitter emitter() { return hopper::Emitter(b, loc); }

  /// Step `k` (i32, 0..length-1) of a sum's loop: k, or length-1-k when the
  /// reference runs with its sums reordered (the runner's second run, which
  /// measures how much the outputs move with the sums' rounding alone).
  mlir::Value sumIndex(mlir::Value k, int64_t length);
  /// i1: the reference's `reorder` parameter is non-zero; null outside it.
  mlir::Value reorder;
};

/// A register op family.
class TilePattern {
public:
  virtual ~TilePattern() = default;
  virtual bool matches(mlir::Operation *op) const = 0;
  /// The layout of the result, or failure with `why` (one sentence).
  virtual mlir::FailureOr<Layout> inferLayout(mlir::Operation *op,
                                              llvm::ArrayRef<Layout> operands,
                                              const TileGeometry &geom,
                                              std::string &why) const = 0;
  virtual Frag emit(mlir::Operation *op, RegisterContext &ctx,
                    const Layout &result) const = 0;
  virtual void emitReference(mlir::Operation *op, ReferenceContext &ctx) const = 0;
  /// Relative error the pipelined lowering's arithmetic may add beyond the
  /// rounding of the result type (approximate PTX math), as a power of two
  /// (-11 for tanh.approx); 0 when exact.
  virtual int approximationLog2(mlir::Operation *) const { return 0; }
  /// Whether a float operand's rounding can move the result by a step, not
  /// by a rounding (a comparison, a rounding to an integer): where kernel and
  /// reference compute the operand a rounding apart the result may differ
  /// by anything (Tolerance.cpp: flips).
  virtual bool discontinuous(mlir::Operation *) const { return false; }
  /// Whether `emit` leaves a 16-bit float result unrounded (Frag::unrounded).
  virtual bool unroundedResult(mlir::Operation *) const { return false; }
  /// Whether each element of the result reads only its operands' elements
  /// at its own row and column (or a view's at its row or column) and `emit`
  /// makes nothing but arithmetic: no shared memory, shuffles, barriers or
  /// branches. Such ops after the loop are evaluated a store panel at a time.
  virtual bool elementLocal() const { return false; }
};

/// Whether the pipelined lowering holds `v`'s elements unrounded.
bool holdsUnrounded(mlir::Value v);

/// The pattern that lowers `op`, or null.
const TilePattern *findPattern(mlir::Operation *op);

/// Scalar semantics of an elementwise op on carrier values (f32, i32, i1):
/// the one definition both lowerings use. `fast` picks the pipelined
/// kernel's approximate PTX math, otherwise the reference's plainer forms.
/// Null when `op` is not elementwise.
using ScalarFn = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::Operation *, mlir::ValueRange,
                                           bool fast)>;
const ScalarFn *findScalarFn(mlir::Operation *op);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_PATTERNS_PATTERNS_H
