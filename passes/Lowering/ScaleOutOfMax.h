//===- ScaleOutOfMax.h - max(x * c) as max(x) * c, for c > 0 --------*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_LOWERING_SCALEOUTOFMAX_H
#define STAGECRAFT_PASSES_LOWERING_SCALEOUTOFMAX_H

#include "core/Dialect/Tile/IR/TileDialect.h"

namespace stagecraft::lowering {

/// Rewrites each `tile.reduce max (arith.mulf x, c)` of `kernel`, c a splat
/// constant that is positive and finite, into `arith.mulf (tile.reduce max x),
/// c`. Exact: rounding is monotonic, so for c > 0 the largest rounded product
/// is the rounded product of the largest x. What it buys: the tile-wide
/// product then has one use left (in attention, the subtraction of the row
/// maximum), and LLVM fuses the two into one fma per element, as
/// FlashAttention computes exp2(x * scale - max * scale). The new ops take the
/// reduce's schedule; the reference kernel is lowered from the IR as written.
void factorScaleOutOfMax(mlir::func::FuncOp kernel);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_SCALEOUTOFMAX_H
