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

/// True for the element types a tensor descriptor may hold in this dialect:
/// bf16, f16, f32, the FP8 operand types and e8m0 block scales.
bool isSupportedElementType(mlir::Type type);
/// The FP8 types a dot takes as operands: f8E4M3FN (e4m3) and f8E5M2 (e5m2).
bool isFp8(mlir::Type type);
/// The block-scale type of microscaled (mx) formats: f8E8M0FNU (e8m0), a
/// power of two 2^(bits - 127).
bool isScaleType(mlir::Type type);
/// The element types both lowerings store (tile.store): f32, bf16, f16 and
/// FP8; kStoredElementTypes names them for errors.
bool isStoredElementType(mlir::Type type);
inline constexpr const char *kStoredElementTypes = "f32, bf16, f16, i32 or FP8 (e4m3, e5m2)";

/// The name a bundle, a signature and the runner give an element type:
/// "bf16", "f16", "f32", "i32", "e4m3", "e5m2", "e8m0"; "" for others.
const char *elementTypeName(mlir::Type type);

/// The longest chain of ops, each using the result of the one before, that a
/// kernel may hold (its index math is a few ops deep).
inline constexpr unsigned kMaxChainDepth = 1000;

/// Fails with an error at the op that makes a chain in `root` longer than
/// kMaxChainDepth. The kernel verifier runs it: recursive walks over
/// operands (the lowering's, the index evaluator's) must not overflow the
/// stack on a file that is long but small enough to be read.
mlir::LogicalResult checkChainDepth(mlir::Operation *root);

/// Registers the dialects a Stagecraft module may use.
void registerStagecraftDialects(mlir::DialectRegistry &registry);

} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_TILEDIALECT_H
