//===- KernelSignature.h - what a tile kernel takes and launches --*- C++ -*-===//
//
// A tile kernel is a `func.func` marked `tile.kernel`. Its arguments are
// tensor descriptors (each with a `tile.shape` affine map giving the global
// shape from the sizes) and `index` sizes (each named by `tile.size`). The
// function carries the launch grid as an affine map of the sizes
// (`tile.grid`) and default values for the sizes (`tile.defaults`):
//
//   func.func @gemm(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
//                   ..., %M: index {tile.size = "M"}, ...)
//       attributes {tile.kernel, tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
//                   tile.defaults = {M = 8192 : i64, N = 8192 : i64, K = 8192 : i64}}
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_DIALECT_TILE_IR_KERNELSIGNATURE_H
#define STAGECRAFT_CORE_DIALECT_TILE_IR_KERNELSIGNATURE_H

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <optional>
#include <string>
#include <vector>

namespace stagecraft::tile {

struct KernelSignature {
  mlir::func::FuncOp func;
  /// Sizes in argument order (affine-map symbol order).
  std::vector<std::string> sizeNames;
  std::vector<unsigned> sizeArgs;
  std::vector<int64_t> sizeDefaults;
  /// Descriptor arguments and their global-shape maps.
  std::vector<unsigned> descArgs;
  std::vector<mlir::AffineMap> descShapes;
  mlir::AffineMap grid;
  /// Per descriptor argument (parallel to descArgs): the `tile.init` range
  /// its input is drawn from, constant or an affine map of the sizes with
  /// two results; null where the argument has none (the default draw).
  std::vector<mlir::Attribute> descInits;

  /// Reads and checks the signature; emits a diagnostic at the offending
  /// function or argument on failure.
  static mlir::FailureOr<KernelSignature> get(mlir::func::FuncOp func);

  /// Index of the size named `name`, or -1.
  int sizeIndex(llvm::StringRef name) const;
  /// Evaluates an affine map of the sizes at concrete values.
  static std::vector<int64_t> evaluate(mlir::AffineMap map,
                                       llvm::ArrayRef<int64_t> sizes);

  /// The sizes (defaults, then `overrides` by name) and the launch grid at
  /// them (three dimensions). An unknown size, a size outside 1..2^31-1 or a
  /// grid dimension outside that range is an error at the kernel.
  struct Bound {
    std::vector<std::pair<std::string, int64_t>> sizes; // in argument order
    std::vector<int64_t> values;                        // the same, values only
    std::vector<int64_t> grid;
  };
  mlir::FailureOr<Bound>
  bind(const std::vector<std::pair<std::string, int64_t>> &overrides) const;

  /// Whether every tensor argument can be described to TMA at `b`'s sizes
  /// (cuTensorMapEncodeTiled: each extent at most 2^32, each step between
  /// rows a multiple of 16 bytes and under 2^40). An error at the argument
  /// otherwise, so that the compiler, the timeline and the app refuse the
  /// same sizes with the same words.
  mlir::LogicalResult checkTensors(const Bound &b) const;

  /// The `tile.init` range [low, high) of descriptor `k` (an index into
  /// descArgs) at `b`'s sizes, or std::nullopt where it declares none. A
  /// range that is empty at these sizes is an error at the kernel.
  mlir::FailureOr<std::optional<std::pair<double, double>>> initRange(unsigned k,
                                                                       const Bound &b) const;
  /// The same at `sizes` (in argument order), quietly: std::nullopt where it
  /// declares none or the range is empty.
  std::optional<std::pair<double, double>> initRangeAt(unsigned k,
                                                       llvm::ArrayRef<int64_t> sizes) const;
};

/// "[low, high)" with the shortest digits (`tile.init` diagnostics).
std::string formatRange(double low, double high);

/// The kernels of a module, in order.
llvm::SmallVector<mlir::func::FuncOp> getKernels(mlir::ModuleOp module);

} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_KERNELSIGNATURE_H
