//===- TileOrderPlan.h - the tile-order rewrite, planned ---------*- C++ -*-===//
//
// Private to TileOrder.cpp and TileOrderText.cpp: the rewrite as a list of
// new index ops (the same list builds the MLIR ops and, for the app, their
// text), the old coordinates they replace and the old ops that go.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_TILEORDERPLAN_H
#define STAGECRAFT_PASSES_TILEORDERPLAN_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/TileLoop.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace stagecraft::tileorder {

/// An operand of a new op: a value the IR has, or an earlier new op.
struct PlanOperand {
  mlir::Value existing;
  int newOp = -1;
};

struct PlanOp {
  enum Kind { Constant, AddI, SubI, MulI, DivUI, RemUI, MinUI, CeilDivUI };
  Kind kind = Constant;
  std::vector<PlanOperand> operands;
  int64_t value = 0;    // Constant
  std::string name;     // a name for its result in text ("group", "tiles_d0")
  bool beforeLoop = false; // independent of t: placed before the tile loop
  int coordinate = -1;  // the tile dimension whose old coordinate it replaces
};

struct Plan {
  mlir::func::FuncOp kernel;
  mlir::scf::ForOp tileLoop;
  /// The old tile coordinates, one per tile dimension, outermost first.
  std::vector<mlir::Value> oldCoords;
  /// The ops that compute them from t (in block order) and, beside them,
  /// ops independent of t that only they may use (removed when unused).
  std::vector<mlir::Operation *> oldOps, maybeDead;
  /// The new ops in order: those before the loop, then those in its body.
  std::vector<PlanOp> ops;
};

/// Plans the rewrite; emits an error at the op at fault and fails when the
/// tile loop cannot take the order.
mlir::FailureOr<Plan> plan(mlir::func::FuncOp kernel, const TileOrderChoice &choice);

/// Applies a plan: the new ops, the coordinates replaced, the old ops
/// erased (`beforeErase` sees each op about to be erased).
void apply(Plan &plan, llvm::function_ref<void(mlir::Operation *)> beforeErase = nullptr);

/// The arith mnemonic of a kind ("arith.divui").
const char *mnemonic(PlanOp::Kind kind);

} // namespace stagecraft::tileorder

#endif // STAGECRAFT_PASSES_TILEORDERPLAN_H
