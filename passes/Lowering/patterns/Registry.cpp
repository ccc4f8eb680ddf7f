//===- Registry.cpp - which pattern lowers an op ---------------------------===//
#include "passes/Lowering/patterns/Patterns.h"

namespace stagecraft::lowering {

// Each family's pattern lives in its own file.
const TilePattern &constantPattern();
const TilePattern &splatPattern();
const TilePattern &iotaPattern();
const TilePattern &maskPattern();
const TilePattern &reducePattern();
const TilePattern &broadcastPattern();
const TilePattern &elementwisePattern();

const TilePattern *findPattern(mlir::Operation *op) {
  for (const TilePattern *p : {&constantPattern(), &splatPattern(), &iotaPattern(), &maskPattern(),
                           &reducePattern(), &broadcastPattern(), &elementwisePattern()})
    if (p->matches(op))
      return p;
  return nullptr;
}

bool holdsUnrounded(mlir::Value v) {
  mlir::Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  const TilePattern *p = findPattern(def);
  return p && p->unroundedResult(def);
}

} // namespace stagecraft::lowering
