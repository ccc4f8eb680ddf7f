//===- Manifest.h - the bundle manifest of a kernel ---------------*- C++ -*-===//
//
// What the runner needs to allocate, launch and check a kernel
// (docs/bundle-format.md), derived from the tile kernel's signature and the
// problem sizes before lowering, completed with what the lowerings decided
// (block size, dynamic shared memory, the reference kernel's scratch).
//
// Every kernel is checked against its reference: the same IR lowered plainly
// (tile-lower-reference), run by the runner on the same inputs, with
// tolerances derived from the IR (ToleranceFor). When the kernel's math is
// exactly a GEMM or exactly the attention forward pass, a peer (cuBLAS, the
// runner's attention reference) is named too: a second check, and cuBLAS as
// the timed peer.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_MANIFEST_H
#define STAGECRAFT_PASSES_DRIVER_MANIFEST_H

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <string>
#include <vector>

namespace stagecraft {

/// How closely an output must match its reference (norm-wise and max
/// relative error, docs/bundle-format.md), and why.
struct OutputTolerance {
  std::string tensor;
  double normRel = 1e-2, maxRel = 5e-2;
  /// The fraction of elements that may miss `maxRel` by any amount: the
  /// output passes through a comparison or a rounding to an integer of
  /// rounded values (an argmax), where kernel and reference, their operands
  /// a rounding apart, can land on either side (0: none).
  double flipFraction = 0;
  /// The output is rounded to integers from computed values: it may differ
  /// by this step (in its own units) beyond its tolerance (0: none).
  double step = 0;
  std::string basis; // e.g. "bf16 values (8 bits); reductions of 8192"
};

/// The reference kernel's launch, from its lowering.
struct ReferenceLaunch {
  std::string kernel;
  int64_t blocks = 1, threads = 256, scratchPerBlock = 0;
};

struct KernelManifest {
  std::string kernel;
  std::vector<int64_t> grid;
  std::vector<std::pair<std::string, int64_t>> sizes;
  std::string body; // JSON fields: flops, problem, tensors, params, peer
  /// The FLOPs its TFLOP/s count (in `body` too): the peer's count where the
  /// kernel has one, else the dots' executed FLOPs.
  double flops = 0;
  /// The FLOPs could not be counted (a loop bounded by lengths read from a
  /// tensor, or more loop iterations than IndexEvaluator::dotFlops walks):
  /// `flops` is 0 for that reason, not for a loop of no trips.
  bool flopsUncounted = false;
  /// The dot FLOPs the IR reference's launch executes: every program's
  /// whole tiles, the padding past an edge too (the runner's watchdog
  /// allowance for it); negative where they cannot be counted.
  double referenceFlops = -1;
  std::vector<OutputTolerance> outputs;
  int64_t programs = 1;
  /// The GPU the kernel is compiled for, written when it is not sm_90a (a
  /// runner refuses a bundle its GPU cannot run).
  std::string target = "sm_90a";
  /// CTAs per cluster along grid dimension 0 (`tile.cluster`); written when
  /// above 1 (the runner launches clusters of that shape).
  int64_t cluster = 1;
  /// The JSON document, given the lowering's block size and shared memory
  /// and the reference kernel's launch (none: the bundle has no reference).
  std::string toJson(int64_t blockThreads, int64_t dynamicSmemBytes,
                     const ReferenceLaunch *reference) const;
};

/// What the compiler refuses of `kernel` at the given sizes (overrides of
/// `tile.defaults`), with an error at the op or argument at fault: unknown
/// or out-of-range sizes, tensors TMA cannot describe, a grid the cluster
/// does not divide, an input range (`tile.init`) empty at the sizes or on a
/// stored tensor, a load or store coordinate not 16-byte aligned at the
/// sizes. deriveManifest checks it first; the timeline asks it too, so that
/// both refuse the same kernels.
mlir::LogicalResult
checkKernelAtSizes(mlir::func::FuncOp kernel,
                   const std::vector<std::pair<std::string, int64_t>> &sizes);

/// Derives the manifest of `kernel` at the given sizes (overrides of
/// `tile.defaults`); emits an error and fails on unknown sizes.
mlir::FailureOr<KernelManifest>
deriveManifest(mlir::func::FuncOp kernel,
               const std::vector<std::pair<std::string, int64_t>> &sizes);

/// The tolerance of what `store` writes: from the precision of every value
/// computed on its way (16-bit roundings, approximate functions) and the
/// length of the reductions behind it (a dot in a loop of `loopTrips`
/// iterations reduces K times that).
OutputTolerance toleranceFor(tile::StoreOp store, int64_t loopTrips);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_MANIFEST_H
