//===- IndexEval.h - a kernel's scalar index math at given sizes --*- C++ -*-===//
//
// Evaluates the `index` arithmetic of a tile kernel (program ids, sizes,
// loop bounds) on the host for concrete sizes and program ids, to count
// what the kernel does: the dot FLOPs all its programs execute, loop trip
// counts included (a causal attention loop stops at the diagonal, a
// persistent kernel walks a program-dependent set of tiles).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_DIALECT_TILE_IR_INDEXEVAL_H
#define STAGECRAFT_CORE_DIALECT_TILE_IR_INDEXEVAL_H

#include "core/Dialect/Tile/IR/KernelSignature.h"

#include <optional>

namespace stagecraft::tile {

class IndexEvaluator {
public:
  IndexEvaluator(mlir::func::FuncOp kernel, const KernelSignature &sig,
                 llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> grid);

  /// The value of an index (or integer) scalar given the values of block
  /// arguments in `env` (loop induction variables); nullopt when it depends
  /// on something this evaluator does not know.
  std::optional<int64_t> eval(mlir::Value v, const llvm::DenseMap<mlir::Value, int64_t> &env) const;

  /// 2*M*N*K summed over every dot every program executes; nullopt when a
  /// loop bound cannot be evaluated or the count needs more than
  /// `maxIterations` interpreted loop iterations.
  std::optional<double> dotFlops(int64_t maxIterations = 20'000'000) const;

private:
  std::optional<double> countBlock(mlir::Block &block,
                                   llvm::DenseMap<mlir::Value, int64_t> &env,
                                   int64_t &budget) const;
  mutable mlir::func::FuncOp kernel;
  std::vector<int64_t> sizes, grid;
  llvm::DenseMap<mlir::Value, int64_t> args;
  mutable std::vector<int64_t> pid{0, 0, 0};
};

} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_INDEXEVAL_H
