//===- Timeline.h - unit intervals per warp group, predicted or measured -*- C++ -*-===//
//
// A timeline is rows (a warp group, or a hardware unit of the predicted
// model) and zones on them: one unit of one source iteration, from start to
// end in nanoseconds since the CTA started. Predicted timelines come from
// the simulator (Simulator.h), measured ones from the runner's instrumented
// kernel (docs/bundle-format.md); the app draws both the same way and both
// export to Chrome trace-event JSON (TimelineTrace.h).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_TIMELINE_H
#define STAGECRAFT_CORE_TIMELINE_TIMELINE_H

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::timeline {

enum class RowKind {
  Producer,    // a warp group that only loads
  Consumer,    // a warp group that computes
  TensorCores, // predicted: when the SM's tensor cores run each wgmma group
  LoadPipe,    // predicted: when each TMA load streams into shared memory
  MathPipe,    // predicted: when the SM's CUDA cores run register math
};
const char *rowKindName(RowKind kind);

/// The kind of unit a zone belongs to, for colours (the board's: loads,
/// dots, register math; the code after the loop, LoopGraph::epilogueUnitName).
enum class ZoneKind : uint8_t { Load, Dot, Compute, Epilogue, Other };

struct TimelineRow {
  std::string name; // "producer", "consumer 0", "tensor cores", ...
  RowKind kind = RowKind::Consumer;
  int64_t group = -1;     // schedule group (warp-group rows)
  int64_t warpGroup = -1; // warp group index within the CTA
  /// False for a measured trace's thread that no metadata names (its kind
  /// is then a guess: Consumer).
  bool kindKnown = true;
};

struct Zone {
  double start = 0, end = 0; // ns since the CTA started
  int32_t iteration = 0;     // source iteration
  uint16_t row = 0;
  uint16_t unit = 0;         // index into Timeline::units
};

struct TimelineUnit {
  std::string name;
  ZoneKind kind = ZoneKind::Other;
};

struct Timeline {
  std::string title; // "predicted", "CTA 3 (SM 17)"
  std::vector<TimelineUnit> units;
  std::vector<TimelineRow> rows;
  std::vector<Zone> zones; // sorted by (row, start)
  int findUnit(const std::string &name) const;
  double endNs() const;
  void sortZones();
};

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_TIMELINE_H
