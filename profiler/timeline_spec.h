// The instrumented kernel of a bundle (manifest.json "timeline", docs/bundle-format.md): which
// module and entry to load, which CTAs record, their warp groups and units, and the layout of the
// event buffer the kernel fills with %globaltimer stamps at unit boundaries.
//
//   buffer = S slots (one per sampled CTA) x W warp groups, each region
//     header  {uint32 count (records attempted; > capacity means overflow), uint32 smid, uint64 0}
//     records capacity x R bytes, as "record" says:
//       "unit_start" (R = 16)  {uint64 stamp, uint32 unit, int32 iteration}: the unit starts at
//                    stamp and lasts until the region's next record; unit 0xFFFFFFFF is an end
//                    marker (the unit before ends, none starts)
//       "interval"   (R = 24, the bundles of before; the default when "record" is absent)
//                    {uint64 start, uint64 end, uint32 unit, int32 iteration}
//   region (s, w) starts at byte (s * W + w) * (16 + R * capacity).
// "runs_without_buffer": true says the kernel may be launched with a null buffer (nothing recorded).
#pragma once

#include "json.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::profiler {

struct TimelineWarpGroup {
  int64_t id = 0;
  std::string role;  // "producer" or "consumer"
  std::string name;  // "producer", "consumer 0", ...
};

struct TimelineUnit {
  int64_t id = 0;
  std::string name;
  int64_t group = 0;  // schedule group (informational)
  std::string kind;   // "epilogue": the code after a tile's loop, no schedule's unit; else ""
};

struct TimelineSpec {
  std::string module = "timeline";  // timeline.cubin if present, else timeline.ptx
  std::string kernel;
  std::string clock = "globaltimer";
  std::vector<int64_t> sampledCtas;  // linear CTA ids: x + gx * (y + gy * z)
  std::vector<TimelineWarpGroup> warpGroups;
  std::vector<TimelineUnit> units;
  int64_t capacity = 0;  // records per (CTA, warp group) region
  // A persistent kernel: each sampled CTA records its first recordedTiles tiles (0: all).
  int64_t recordedTiles = 0;

  enum class Record { UnitStart, Interval };
  Record record = Record::Interval;
  // "runs_without_buffer": launched with a null event buffer, no CTA records (every CTA runs the
  // plain copy), so the runner can time the instrumented code apart from its records. Absent in
  // older bundles, whose probes would store through the null pointer.
  bool runsWithoutBuffer = false;

  static constexpr int64_t kHeaderBytes = 16;
  static constexpr uint32_t kEndUnit = 0xFFFFFFFFu;  // a unit_start record that starts nothing
  int64_t recordBytes() const { return record == Record::UnitStart ? 16 : 24; }
  int64_t regionBytes() const { return kHeaderBytes + recordBytes() * capacity; }
  int64_t bufferBytes() const {
    return int64_t(sampledCtas.size()) * int64_t(warpGroups.size()) * regionBytes();
  }
  // Name of a unit id, or "unit N" for an id the manifest does not list.
  std::string unitName(int64_t id) const;
};

// The event buffer is at most this large (the runner allocates it on the GPU).
constexpr int64_t kMaxTimelineBufferBytes = int64_t(1) << 30;

// Parses and checks manifest.json's "timeline" object for a launch of `grid`. Throws
// ManifestError("manifest.json: timeline.<field>: <why>"); unknown fields become warnings.
TimelineSpec parseTimelineSpec(const json::Value &v, const std::array<int64_t, 3> &grid,
                               std::vector<std::string> &warnings);

}  // namespace stagecraft::profiler
