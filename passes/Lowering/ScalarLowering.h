//===- ScalarLowering.h - index math and scalars on i32 -------------*- C++ -*-===//
//
// The scalar part of a tile kernel (program ids, sizes, coordinates, the
// loop's induction value, scalar f32 math feeding tensor.splat) rebuilt
// where it is used: `index` becomes i32, constants are rematerialized, an
// elementwise op on scalars takes its pattern's scalar semantics. Both the
// pipelined and the reference lowering use it; they differ in what a
// program id is.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_SCALARLOWERING_H
#define STAGECRAFT_PASSES_LOWERING_SCALARLOWERING_H

#include "passes/Lowering/HopperOps.h"

#include "mlir/IR/IRMapping.h"

#include <functional>

namespace stagecraft::lowering {

struct ScalarSources {
  /// blockIdx / gridDim along a dimension, as i32.
  std::function<mlir::Value(hopper::Emitter &, int)> programId, numPrograms;
  /// Pick the pipelined kernel's fast approximations.
  bool fast = true;
};

/// `v` rebuilt at the emitter's insertion point, memoized in `map` (which
/// holds the kernel's arguments and anything else already lowered).
mlir::Value lowerScalar(hopper::Emitter &e, mlir::Value v, mlir::IRMapping &map,
                        const ScalarSources &sources);

/// An affine expression of the kernel's sizes (`tile.shape`, `tile.grid`)
/// evaluated on i32 from the sizes' values.
mlir::Value lowerAffine(hopper::Emitter &e, mlir::AffineExpr expr,
                        mlir::ArrayRef<mlir::Value> symbols);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_SCALARLOWERING_H
