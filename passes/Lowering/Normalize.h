//===- Normalize.h - the forms both lowerings start from ----------*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_LOWERING_NORMALIZE_H
#define STAGECRAFT_PASSES_LOWERING_NORMALIZE_H

#include "core/Dialect/Tile/IR/TileDialect.h"

namespace stagecraft::lowering {

/// Rewrites what a user may write in two ways into the one form the
/// lowerings emit, in `kernel`, before either lowers it:
///  - ops whose results nobody reads and that have no effect are erased
///    (left-over math in a loop body, a chain of them): the pipelined
///    lowering emits a unit's ops where their users need them, and one with
///    none had nowhere to go;
///  - `arith.select %c, %a, %b` on tensors with a scalar i1 condition (a
///    first-iteration test) selects with `tensor.splat %c`: the element-wise
///    patterns read every operand as a tile. The splat takes the select's
///    schedule, so the board's units are unchanged;
///  - a few ops on tiles are expanded by MLIR's own patterns into ops the
///    element-wise patterns take (math.clampf, math.fpowi, math.sincos,
///    arith.ceildivsi/ceildivui/floordivsi), each new op in the expanded
///    op's unit.
void normalizeKernel(mlir::func::FuncOp kernel);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_NORMALIZE_H
