// The events an instrumented kernel wrote into its buffer (timeline_spec.h), decoded and turned
// into what the runner returns: a Chrome trace-event document (stagecraft-run --trace) and the
// "trace" object of a result (docs/runner-protocol.md). Pure C++: tested without a GPU.
#pragma once

#include "json.h"
#include "timeline_spec.h"

#include "core/TraceEvents/TraceEvents.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::profiler {

struct TimelineEvent {
  int64_t slot = 0;       // index into sampled_ctas
  int64_t warpGroup = 0;
  int64_t unit = 0;
  int32_t iteration = 0;
  uint64_t startNs = 0, endNs = 0;  // raw %globaltimer
};

struct DecodedTimeline {
  std::vector<TimelineEvent> events;  // by slot, warp group, then recording order
  std::vector<int64_t> smOfSlot;      // the SM each sampled CTA ran on (-1: it recorded nothing)
  uint64_t originNs = 0;              // the earliest start over all events
  std::vector<std::string> warnings;  // overflow, unknown units, inverted intervals
};

// Decodes `size` bytes laid out as `spec` says (either record layout). Never throws on bad
// content: records it cannot use (unit ids the manifest does not list, end before start, a zero
// timestamp, a unit start with no record after it) are dropped and counted in warnings; a region whose count exceeds the capacity keeps its first records and
// warns. Throws std::invalid_argument only when `size` is not the buffer's size.
DecodedTimeline decodeTimeline(const TimelineSpec &spec, const uint8_t *data, size_t size);

// What the trace carries beside the events.
struct TraceFacts {
  std::string kernel;
  std::string device;
  double plainMedianUs = 0;
  double instrumentedMedianUs = 0;
  double overhead = 0;  // instrumented / plain - 1
  int reps = 0;
  // The instrumented kernel launched with no CTA recording (TimelineSpec::runsWithoutBuffer; 0
  // when not timed): idle / plain - 1 is what ptxas's schedule of the instrumented code costs,
  // instrumented / idle - 1 what the records cost.
  double idleMedianUs = 0;
  double codeOverhead() const { return idleMedianUs / plainMedianUs - 1; }
  double recordingOverhead() const { return instrumentedMedianUs / idleMedianUs - 1; }
  // The schedule the kernel was compiled with (the bundle's schedule.json, an object), so a trace
  // opened later says which schedule it belongs to; null when the bundle had none.
  json::Value schedule;
  // The problem it ran (the manifest's "problem": its sizes by name, and "kind"), so a trace
  // opened later says at which sizes it was measured; null when the manifest had none.
  json::Value problem;
};

// Chrome trace-event JSON: a process per sampled CTA ("CTA c (SM m)"), a thread per warp group,
// one complete event per unit per iteration, timestamps in us relative to originNs. otherData:
// kind "measured", kernel, device, clock, the medians, overhead, reps (and with an idle launch
// idle_median_us, code_overhead, recording_overhead), "warning N", and what
// identifies the kernel's schedule: "warp_groups" and "units" as the manifest lists them (units
// with their schedule group) and "schedule" when known (the app checks a loaded trace with them),
// and "problem" (the sizes it ran at) when known.
trace::Document measuredTrace(const TimelineSpec &spec, const DecodedTimeline &t, const TraceFacts &facts);

// The result's "trace" object: {"overhead", "plain_median_us", "instrumented_median_us", "reps",
// with an idle launch also "idle_median_us", "code_overhead", "recording_overhead"; "clock", "warp_groups", "units", "ctas": [{"cta", "sm", "events": [[wg, unit, iteration,
// start_ns, duration_ns], ...]}], "warnings", "schedule" (null when unknown)}; start_ns relative
// to originNs.
json::Value timelineToJson(const TimelineSpec &spec, const DecodedTimeline &t, const TraceFacts &facts);

}  // namespace stagecraft::profiler
