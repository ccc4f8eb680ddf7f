//===- TileOrder.h - set a persistent kernel's tile order ---------*- C++ -*-===//
//
// A persistent kernel's tile loop (`scf.for %t = %pid to %tiles step
// %nprog` around the pipelined loop) maps t to tile coordinates with index
// arithmetic of its own (TileLoop.h recognizes the order it gives). This
// rewrites that arithmetic to a chosen order:
//
//   row-major     the last coordinate fastest: tn = t % tiles_n, tm = t / tiles_n
//   column-major  the first coordinate fastest: tm = t % tiles_m, tn = t / tiles_m
//   grouped G     Triton's grouped order over two tile dimensions:
//                   in_group = G * tiles_n, group = t / in_group,
//                   first = group * G, rows = min(tiles_m - first, G),
//                   tm = first + (t % in_group) % rows, tn = (t % in_group) / rows
//                 (the last group may have fewer rows; grouped 1 is row-major)
//
// The tile coordinates are the values the tile loop's store indexes with
// (index = coordinate * tile size, or the index itself for a tile size of
// 1), as TileLoopIR reads them. The tile counts are values the IR already
// has where one equals ceil(global size / tile size) at every size tried,
// else ceil-divs of the stored descriptor's shape are added. What computed
// the old coordinates from t is removed, with whatever only it used.
//
// Refused, with an error at the op: a kernel without a tile loop around its
// pipelined loop, a store whose indices are not coordinates times the tile
// size, a t that reaches anything other than through the coordinates, a
// tile loop that does not run exactly the stored tiles (its upper bound),
// one tile dimension (there is only one order), and grouped over other than
// two tile dimensions.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_TILEORDER_H
#define STAGECRAFT_PASSES_TILEORDER_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/TileLoop.h"

namespace stagecraft {

/// Rewrites the tile order of `kernel`'s tile loop. On failure an error was
/// emitted at the op at fault and the IR is unchanged.
mlir::LogicalResult setTileOrder(mlir::func::FuncOp kernel, const TileOrderChoice &choice);

/// The same with the order spelled as `stagecraft-compile --tile-order`
/// takes it ("grouped:8"); a bad spelling is an error at the kernel.
mlir::LogicalResult setTileOrder(mlir::func::FuncOp kernel, llvm::StringRef spec);

/// Whether setTileOrder would succeed: emits its error when it would not.
/// Changes nothing.
mlir::LogicalResult checkTileOrder(mlir::func::FuncOp kernel, const TileOrderChoice &choice);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_TILEORDER_H
