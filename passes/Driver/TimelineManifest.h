//===- TimelineManifest.h - the manifest's "timeline" object -----*- C++ -*-===//
//
// What the instrumented kernel records (from the lowering's
// `stagecraft.timeline` attribute, passes/Lowering/TimelineProbes.h) as the
// bundle manifest's `timeline` object (docs/bundle-format.md): the sampled
// CTAs of the launch's grid, the warp groups, the units and the capacity.
// Plain data: tested without MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_TIMELINEMANIFEST_H
#define STAGECRAFT_PASSES_DRIVER_TIMELINEMANIFEST_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft {

struct TimelineDescription {
  struct WarpGroup {
    std::string role, name;
  };
  struct Unit {
    int64_t id = 0;
    std::string name;
    int64_t group = 0;
    /// "epilogue" for the code after the loop (not a unit of the schedule),
    /// else empty.
    std::string kind;
  };
  int64_t ctas = 4, capacity = 0;
  /// A persistent kernel's tiles recorded per sampled CTA (0: every tile).
  int64_t tiles = 0;
  std::vector<WarpGroup> warpGroups; // ids are positions
  std::vector<Unit> units;
};

/// The linear ids of the CTAs that record, slot by slot: min(ctas, CTAs)
/// of them, CTA s * (CTAs / that) in slot s (as the kernel computes them).
std::vector<int64_t> sampledCtas(int64_t ctas, const std::vector<int64_t> &grid);

/// The `timeline` object as JSON text (one line).
std::string timelineManifestObject(const TimelineDescription &d, const std::string &kernel,
                                   const std::vector<int64_t> &grid);

/// `manifestJson` (a JSON object, as KernelManifest::toJson writes it) with
/// the `timeline` field added as its last member, keeping the rest of the
/// text as it is. Fails when the manifest is not a JSON object.
llvm::Expected<std::string> withTimeline(const std::string &manifestJson,
                                         const std::string &timelineObject);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_TIMELINEMANIFEST_H
