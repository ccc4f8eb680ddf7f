//===- SplitScaledDots.h - tile.dot_scaled as upcasts and a dot -----*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_LOWERING_SPLITSCALEDDOTS_H
#define STAGECRAFT_PASSES_LOWERING_SPLITSCALEDDOTS_H

#include "core/Dialect/Tile/IR/TileDialect.h"

namespace stagecraft::lowering {

/// Rewrites each tile.dot_scaled of `kernel` into tile.upcast (A), tile.upcast
/// (B) and a bf16 tile.dot (passes/Passes.td: tile-split-dot-scaled).
void splitScaledDots(mlir::func::FuncOp kernel);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_SPLITSCALEDDOTS_H
