//===- TileLoopIR.h - read a persistent kernel's tile loop --------*- C++ -*-===//
//
// Evaluates the tile loop around a kernel's pipelined loop at the kernel's
// default sizes (tile.defaults): its bounds, and for program 0's view of
// every t the coordinates of the tile it stores (the first tile.store in the
// tile loop whose indices depend on t, divided by the store's box), then
// classifies the order (TileLoop.h). Emits nothing: what it cannot evaluate
// it says in TileLoop::note.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SCHEDULE_TILELOOPIR_H
#define STAGECRAFT_CORE_SCHEDULE_TILELOOPIR_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/TileLoop.h"

namespace stagecraft {

/// The tile loop of `pipelined` (a loop of `kernel`); persistent = false
/// when the pipelined loop is not inside another scf.for. Evaluated at the
/// kernel's default sizes, with `sizes` overriding some by name.
TileLoop analyzeTileLoop(mlir::func::FuncOp kernel, mlir::scf::ForOp pipelined,
                         const std::vector<std::pair<std::string, int64_t>> &sizes = {});

/// The order a persistent kernel's tile loop walks the tiles in at `sizes`
/// (TileLoop::orderSpec: "grouped:8", ...); "" when the kernel is not
/// persistent (or has no pipelined loop).
std::string tileOrderAt(mlir::func::FuncOp kernel,
                        const std::vector<std::pair<std::string, int64_t>> &sizes);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SCHEDULE_TILELOOPIR_H
