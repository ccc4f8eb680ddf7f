#include "timeline_events.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace stagecraft::profiler {

namespace {

template <typename T>
T readLE(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);  // the GPU and the host are both little-endian
  return v;
}

json::Value warpGroupsJson(const TimelineSpec &spec) {
  json::Value wgs = json::Value::array();
  for (const TimelineWarpGroup &w : spec.warpGroups)
    wgs.push(json::Value::object({{"id", json::Value::integer(w.id)}, {"role", json::Value::string(w.role)},
                                  {"name", json::Value::string(w.name)}}));
  return wgs;
}

json::Value unitsJson(const TimelineSpec &spec) {
  json::Value units = json::Value::array();
  for (const TimelineUnit &u : spec.units) {
    json::Value unit = json::Value::object({{"id", json::Value::integer(u.id)}, {"name", json::Value::string(u.name)},
                                            {"group", json::Value::integer(u.group)}});
    if (!u.kind.empty()) unit.set("kind", json::Value::string(u.kind));
    units.push(std::move(unit));
  }
  return units;
}

}  // namespace

DecodedTimeline decodeTimeline(const TimelineSpec &spec, const uint8_t *data, size_t size) {
  if (int64_t(size) != spec.bufferBytes())
    throw std::invalid_argument("timeline buffer of " + std::to_string(size) + " bytes, expected " +
                                std::to_string(spec.bufferBytes()));
  DecodedTimeline out;
  const int64_t W = int64_t(spec.warpGroups.size());
  out.smOfSlot.assign(spec.sampledCtas.size(), -1);
  int64_t unknownUnits = 0, inverted = 0, unstamped = 0, unended = 0;
  for (size_t s = 0; s < spec.sampledCtas.size(); ++s) {
    for (int64_t w = 0; w < W; ++w) {
      const uint8_t *region = data + (int64_t(s) * W + w) * spec.regionBytes();
      uint32_t count = readLE<uint32_t>(region);
      uint32_t smid = readLE<uint32_t>(region + 4);
      if (count == 0) continue;
      if (out.smOfSlot[s] < 0) out.smOfSlot[s] = smid;
      if (int64_t(count) > spec.capacity)
        out.warnings.push_back("CTA " + std::to_string(spec.sampledCtas[s]) + ", " + spec.warpGroups[w].name +
                               ": " + std::to_string(count) + " events recorded, the buffer holds " +
                               std::to_string(spec.capacity) + ": the first " + std::to_string(spec.capacity) +
                               " are kept");
      int64_t n = std::min<int64_t>(count, spec.capacity);
      auto at = [&](int64_t i) { return region + TimelineSpec::kHeaderBytes + i * spec.recordBytes(); };
      for (int64_t i = 0; i < n; ++i) {
        const uint8_t *rec = at(i);
        TimelineEvent e;
        e.slot = int64_t(s);
        e.warpGroup = w;
        if (spec.record == TimelineSpec::Record::UnitStart) {
          // A unit lasts until the region's next record starts.
          e.startNs = readLE<uint64_t>(rec);
          uint32_t unit = readLE<uint32_t>(rec + 8);
          if (unit == TimelineSpec::kEndUnit) continue;
          e.unit = unit;
          e.iteration = readLE<int32_t>(rec + 12);
          if (i + 1 == n) {
            ++unended;
            continue;
          }
          e.endNs = readLE<uint64_t>(at(i + 1));
        } else {
          e.startNs = readLE<uint64_t>(rec);
          e.endNs = readLE<uint64_t>(rec + 8);
          e.unit = readLE<uint32_t>(rec + 16);
          e.iteration = readLE<int32_t>(rec + 20);
        }
        bool known = false;
        for (const TimelineUnit &u : spec.units) known |= u.id == e.unit;
        if (!known) {
          ++unknownUnits;
          continue;
        }
        if (e.startNs == 0 || e.endNs == 0) {
          ++unstamped;
          continue;
        }
        if (e.endNs < e.startNs) {
          ++inverted;
          continue;
        }
        out.events.push_back(e);
      }
    }
  }
  if (unknownUnits)
    out.warnings.push_back(std::to_string(unknownUnits) + " events name a unit id the manifest does not list: dropped");
  if (unstamped) out.warnings.push_back(std::to_string(unstamped) + " events have a zero timestamp: dropped");
  if (inverted) out.warnings.push_back(std::to_string(inverted) + " events end before they start: dropped");
  if (unended)
    out.warnings.push_back(std::to_string(unended) +
                           " events have no record after them to end them (a full buffer, or a kernel that "
                           "stopped early): dropped");
  for (size_t s = 0; s < out.smOfSlot.size(); ++s)
    if (out.smOfSlot[s] < 0)
      out.warnings.push_back("CTA " + std::to_string(spec.sampledCtas[s]) + " recorded no events");
  if (!out.events.empty()) {
    out.originNs = out.events.front().startNs;
    for (const TimelineEvent &e : out.events) out.originNs = std::min(out.originNs, e.startNs);
  }
  return out;
}

trace::Document measuredTrace(const TimelineSpec &spec, const DecodedTimeline &t, const TraceFacts &facts) {
  trace::Document doc;
  for (size_t s = 0; s < spec.sampledCtas.size(); ++s) {
    int64_t pid = int64_t(s) + 1;
    std::string sm = t.smOfSlot[s] >= 0 ? std::to_string(t.smOfSlot[s]) : "?";
    doc.processes.push_back({pid, "CTA " + std::to_string(spec.sampledCtas[s]) + " (SM " + sm + ")", int64_t(s)});
    for (const TimelineWarpGroup &w : spec.warpGroups)
      doc.threads.push_back({pid, w.id + 1, w.name, w.id});
  }
  for (const TimelineEvent &e : t.events) {
    trace::Event x;
    x.name = spec.unitName(e.unit);
    x.category = spec.warpGroups[e.warpGroup].role;
    x.pid = e.slot + 1;
    x.tid = e.warpGroup + 1;
    x.tsUs = double(e.startNs - t.originNs) / 1000.0;
    x.durUs = double(e.endNs - e.startNs) / 1000.0;
    x.args = {trace::Arg::num("iteration", e.iteration), trace::Arg::num("start_ns", double(e.startNs - t.originNs)),
              trace::Arg::num("duration_ns", double(e.endNs - e.startNs))};
    doc.events.push_back(std::move(x));
  }
  doc.otherData = {trace::Arg::str("kind", "measured"),
                   trace::Arg::str("kernel", facts.kernel),
                   trace::Arg::str("device", facts.device),
                   trace::Arg::str("clock", spec.clock),
                   trace::Arg::num("plain_median_us", facts.plainMedianUs),
                   trace::Arg::num("instrumented_median_us", facts.instrumentedMedianUs),
                   trace::Arg::num("overhead", facts.overhead),
                   trace::Arg::num("reps", facts.reps)};
  if (facts.idleMedianUs > 0) {
    doc.otherData.push_back(trace::Arg::num("idle_median_us", facts.idleMedianUs));
    doc.otherData.push_back(trace::Arg::num("code_overhead", facts.codeOverhead()));
    doc.otherData.push_back(trace::Arg::num("recording_overhead", facts.recordingOverhead()));
  }
  if (spec.recordedTiles > 0)
    doc.otherData.push_back(trace::Arg::num("recorded_tiles", double(spec.recordedTiles)));
  for (size_t i = 0; i < t.warnings.size(); ++i)
    doc.otherData.push_back(trace::Arg::str("warning " + std::to_string(i + 1), t.warnings[i]));
  // What the trace belongs to, as the result's trace object says it (added after the first
  // traces were written; readers treat them as optional).
  doc.otherData.push_back(trace::Arg::json("warp_groups", json::write(warpGroupsJson(spec))));
  doc.otherData.push_back(trace::Arg::json("units", json::write(unitsJson(spec))));
  if (facts.schedule.isObject())
    doc.otherData.push_back(trace::Arg::json("schedule", json::write(facts.schedule)));
  if (facts.problem.isObject())
    doc.otherData.push_back(trace::Arg::json("problem", json::write(facts.problem)));
  return doc;
}

json::Value timelineToJson(const TimelineSpec &spec, const DecodedTimeline &t, const TraceFacts &facts) {
  using json::Value;
  Value o = Value::object();
  o.set("overhead", Value::number(facts.overhead));
  o.set("plain_median_us", Value::number(facts.plainMedianUs));
  o.set("instrumented_median_us", Value::number(facts.instrumentedMedianUs));
  o.set("reps", Value::integer(facts.reps));
  if (facts.idleMedianUs > 0) {
    o.set("idle_median_us", Value::number(facts.idleMedianUs));
    o.set("code_overhead", Value::number(facts.codeOverhead()));
    o.set("recording_overhead", Value::number(facts.recordingOverhead()));
  }
  o.set("clock", Value::string(spec.clock));
  o.set("warp_groups", warpGroupsJson(spec));
  o.set("units", unitsJson(spec));
  Value ctas = Value::array();
  for (size_t s = 0; s < spec.sampledCtas.size(); ++s) {
    Value events = Value::array();
    for (const TimelineEvent &e : t.events) {
      if (e.slot != int64_t(s)) continue;
      events.push(Value::array({Value::integer(e.warpGroup), Value::integer(e.unit), Value::integer(e.iteration),
                                Value::integer(int64_t(e.startNs - t.originNs)),
                                Value::integer(int64_t(e.endNs - e.startNs))}));
    }
    ctas.push(Value::object({{"cta", Value::integer(spec.sampledCtas[s])},
                             {"sm", t.smOfSlot[s] >= 0 ? Value::integer(t.smOfSlot[s]) : Value::null()},
                             {"events", events}}));
  }
  o.set("ctas", ctas);
  Value w = Value::array();
  for (const std::string &x : t.warnings) w.push(Value::string(x));
  o.set("warnings", w);
  o.set("schedule", facts.schedule.isObject() ? facts.schedule : Value::null());
  return o;
}

}  // namespace stagecraft::profiler
