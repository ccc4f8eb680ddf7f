//===- ChainDepth.cpp - refuse absurdly long chains of dependent ops ------===//
//
// The lowering (lowerScalar) and the index evaluator walk a value's
// operands recursively, one stack frame per op of the chain that computes
// it. A kernel's index math is a few ops deep; a file with a chain of tens of
// thousands (which fits the input size limit easily) would overflow the
// stack. The kernel verifier refuses chains over kMaxChainDepth here, once,
// so that every tool and every later walk can rely on it.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/TileDialect.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

LogicalResult stagecraft::tile::checkChainDepth(Operation *root) {
  // Ops are visited before the ops nested in them, and SSA defs precede
  // their uses: one pass computes every op's depth from its operands'.
  // (A use before its def, which the verifier reports itself, counts 0.)
  llvm::DenseMap<Operation *, unsigned> depth;
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    unsigned d = 1;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (auto it = depth.find(def); it != depth.end())
          d = std::max(d, it->second + 1);
    if (d > kMaxChainDepth) {
      op->emitError("this op ends a chain of more than ")
          << kMaxChainDepth
          << " ops, each using the one before; loop IR computes its values in a "
             "few: refusing it (the compiler walks such chains recursively)";
      return WalkResult::interrupt();
    }
    depth[op] = d;
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
