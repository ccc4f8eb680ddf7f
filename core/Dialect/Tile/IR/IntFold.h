//===- IntFold.h - the value of an integer arith op on known operands -*- C++ -*-===//
#ifndef STAGECRAFT_CORE_DIALECT_TILE_IR_INTFOLD_H
#define STAGECRAFT_CORE_DIALECT_TILE_IR_INTFOLD_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace stagecraft::tile {

/// The value of an integer arith op (add, sub, mul, the divisions and
/// remainders, min, max, and, or, xor, shifts, cmpi) on two known operands;
/// nullopt for another op, a division by zero or a shift past the word.
/// Every evaluator of the kernels' index math folds through it
/// (IndexEvaluator, the timeline's unit costs).
std::optional<int64_t> foldIntBinary(mlir::Operation *op, int64_t x, int64_t y);

} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_INTFOLD_H
