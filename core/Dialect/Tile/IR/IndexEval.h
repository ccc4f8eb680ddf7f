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

#include "core/Dialect/Tile/IR/IntFold.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>

namespace stagecraft::tile {

/// A number the index value `v` is known to be a multiple of, whatever the
/// program ids (1 when nothing is known; 2^30 for zero): from constants,
/// products, sums, loop induction values (their start and step), selects,
/// remainders and casts. The kernel's size arguments take their values from
/// `sizes` (a size argument -> its value); without it they count as
/// multiples of anything (a size-generic check, the sizes checked later).
int64_t knownMultiple(mlir::Value v, const llvm::DenseMap<mlir::Value, int64_t> *sizes);

/// TMA's tile mode starts a copy at a 16-byte unit of a tensor's innermost
/// dimension: "" when the innermost of `coords` (a load's or a store's of
/// `desc`) is known to be a multiple of 16 bytes of elements, else why not.
/// Without `sizes` the kernel's sizes count as aligned (a size-generic
/// check); with them, a coordinate that depends on one is checked at its
/// value (a loop from K0).
std::string misalignedInnermostCoordinate(DescType desc, mlir::ValueRange coords,
                                          const llvm::DenseMap<mlir::Value, int64_t> *sizes,
                                          bool store = false);

/// The power of two that the kernel's size argument `size` must be a
/// multiple of for every load's and store's innermost coordinate to stay a
/// multiple of 16 bytes of elements, whatever the other sizes are (taken as
/// aligned; each size gets its own requirement): 1 when none depends on it.
/// What an exported kernel checks at other sizes than it was compiled at
/// (a loop from K0 stepping by 64 over bf16: K0 a multiple of 8).
int64_t requiredSizeMultiple(mlir::func::FuncOp kernel, mlir::Value size);

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
  std::optional<double> dotFlops(int64_t maxIterations = 20'000'000) const {
    return overPrograms(maxIterations, false);
  }

  /// The same over the dots' elements inside the tensors: a dot's M, N and K
  /// each count only the rows and columns that the tiles it reads (through
  /// element-wise math, reductions, broadcasts and other dots: attention's P
  /// has the keys K had) loaded from inside their tensor, not the padding
  /// TMA fills past an edge (a decode's one query row in a 128-row tile
  /// counts once). Masks are not read: a causal block counts whole. A load
  /// coordinate that cannot be evaluated (it reads a tensor: a page table)
  /// counts its box whole along that dimension. nullopt where dotFlops is.
  std::optional<double> usefulDotFlops(int64_t maxIterations = 20'000'000) const {
    return overPrograms(maxIterations, true);
  }

  /// A `tensor.extract` whose index lies outside its tile at these sizes.
  struct ExtractOutOfRange {
    mlir::Operation *op;
    unsigned dim;
    int64_t index, extent;
    std::array<int64_t, 3> program;
    /// The induction values of the loops around it there, outermost first.
    std::vector<int64_t> loopValues;
  };
  /// The first `tensor.extract` of a static tile whose index, evaluated for
  /// each program (every one up to `maxPrograms`, else the grid's corners)
  /// at the first and the last iteration of each loop around it, falls
  /// outside the tile: a read past a loaded table. Indices read from data
  /// are not evaluated.
  std::optional<ExtractOutOfRange> extractOutOfRange(int64_t maxPrograms = 4096) const;

  /// dotFlops estimated from at most `maxPrograms` programs spread evenly
  /// over the grid, scaled to all of them (exact for a grid that small):
  /// the IR reference's work, for its watchdog allowance, in milliseconds
  /// on a grid of half a million programs that dotFlops walks in seconds.
  std::optional<double> sampledDotFlops(int64_t maxPrograms, int64_t maxIterations) const;

  /// The kernel's size arguments and their values.
  const llvm::DenseMap<mlir::Value, int64_t> &sizeValues() const { return args; }

private:
  /// Where a dimension of a dot's operand comes from: dimension `boxDim` of
  /// a load's box.
  struct DimSource {
    mlir::Operation *load;
    unsigned boxDim;
  };
  /// The dot FLOPs of `block` (loops interpreted): whole tiles, or (`useful`)
  /// the elements inside the tensors.
  std::optional<double> count(mlir::Block &block, llvm::DenseMap<mlir::Value, int64_t> &env,
                              int64_t &budget, bool useful) const;
  /// count over every program of the grid.
  std::optional<double> overPrograms(int64_t maxIterations, bool useful) const;
  /// count (useful) of a loop without inner loops whose dots read tiles at
  /// coordinates linear in the iteration (checked at its first, second and
  /// last); nullopt otherwise.
  std::optional<double> countLinear(mlir::scf::ForOp loop, int64_t lb, int64_t step,
                                    int64_t trips,
                                    llvm::DenseMap<mlir::Value, int64_t> &env) const;
  /// The loads the dimensions M, N, K of a dot (tile.dot, tile.dot_scaled)
  /// come from.
  const std::array<llvm::SmallVector<DimSource>, 3> &sourcesOf(mlir::Operation *dot) const;
  /// How many of dimension `size` of a dot lie inside the tensors: nullopt
  /// when a coordinate cannot be evaluated.
  std::optional<int64_t> inside(llvm::ArrayRef<DimSource> sources, int64_t size,
                                const llvm::DenseMap<mlir::Value, int64_t> &env) const;
  mutable mlir::func::FuncOp kernel;
  std::vector<int64_t> sizes, grid;
  llvm::DenseMap<mlir::Value, int64_t> args;
  /// The tensor shape of each descriptor argument at these sizes.
  llvm::DenseMap<mlir::Value, std::vector<int64_t>> extents;
  mutable llvm::DenseMap<mlir::Operation *, std::array<llvm::SmallVector<DimSource>, 3>> sources;
  mutable std::vector<int64_t> pid{0, 0, 0};
};

} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_INDEXEVAL_H
