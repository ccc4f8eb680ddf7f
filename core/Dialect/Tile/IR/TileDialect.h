//===- TileDialect.h - the tile dialect ---------------------------*- C++ -*-===//
//
// Include this to use the tile dialect: its dialect class, types, attributes
// and ops.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_DIALECT_TILE_IR_TILEDIALECT_H
#define STAGECRAFT_CORE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "core/Dialect/Tile/IR/TileDialect.h.inc"
#include "core/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "core/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "core/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "core/Dialect/Tile/IR/TileOps.h.inc"

namespace stagecraft::tile {

/// The schedule attribute of `op`, or null when it has none.
ScheduleAttr getSchedule(mlir::Operation *op);
void setSchedule(mlir::Operation *op, ScheduleAttr sched);

/// True for the element types a tile may hold in this dialect.
bool isSupportedElementType(mlir::Type type);

/// Registers the dialects a Stagecraft module may use.
void registerStagecraftDialects(mlir::DialectRegistry &registry);

} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_TILEDIALECT_H
