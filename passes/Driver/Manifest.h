//===- Manifest.h - the bundle manifest of a kernel ---------------*- C++ -*-===//
//
// What the runner needs to allocate, launch and check a kernel
// (docs/bundle-format.md), derived from the tile kernel's signature and the
// problem sizes before lowering, completed with the launch resources the
// lowering decided (block size, dynamic shared memory).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_MANIFEST_H
#define STAGECRAFT_PASSES_DRIVER_MANIFEST_H

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <string>
#include <vector>

namespace stagecraft {

struct KernelManifest {
  std::string kernel;
  std::vector<int64_t> grid;
  std::vector<std::pair<std::string, int64_t>> sizes;
  std::string body; // JSON fields: tensors, params, flops, problem, reference
  /// The JSON document, given the lowering's block size and shared memory.
  std::string toJson(int64_t blockThreads, int64_t dynamicSmemBytes) const;
};

/// Derives the manifest of `kernel` at the given sizes (overrides of
/// `tile.defaults`); emits an error and fails on unknown sizes or kernels
/// whose reference the runner cannot compute.
mlir::FailureOr<KernelManifest>
deriveManifest(mlir::func::FuncOp kernel,
               const std::vector<std::pair<std::string, int64_t>> &sizes);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_MANIFEST_H
