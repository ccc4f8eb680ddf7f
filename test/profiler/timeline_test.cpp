// The measured-timeline path without a GPU: the manifest's "timeline" object, decoding an event
// buffer written in the documented layout (docs/bundle-format.md), the Chrome trace-event JSON
// and the result's "trace" object, and the request field.
#include "manifest.h"
#include "protocol.h"
#include "test_manifests.h"
#include "timeline_events.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::profiler;
using stagecraft::profiler::testing::gemmManifest;
using stagecraft::profiler::testing::replaced;

namespace {

const char *kTimeline = R"(,
  "timeline": {"module": "timeline", "kernel": "gemm_kernel_timeline", "clock": "globaltimer",
    "sampled_ctas": [0, 70, 4095],
    "warp_groups": [{"id": 0, "role": "producer", "name": "producer"},
                    {"id": 1, "role": "consumer", "name": "consumer 0"}],
    "units": [{"id": 0, "name": "loadA", "group": 0}, {"id": 1, "name": "MMA", "group": 1}],
    "capacity": 3}
})";

std::string withTimeline(const std::string &timeline = kTimeline) {
  std::string m = gemmManifest();
  m.pop_back();  // the closing brace
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m + timeline;
}

std::string errorOf(const std::string &text) {
  try {
    parseManifest(text);
  } catch (const ManifestError &e) {
    return e.what();
  }
  return "";
}

TEST(TimelineSpec, ParsesTheManifestObject) {
  Manifest m = parseManifest(withTimeline());
  ASSERT_TRUE(m.timeline.has_value());
  const TimelineSpec &s = *m.timeline;
  EXPECT_EQ(s.kernel, "gemm_kernel_timeline");
  EXPECT_EQ(s.sampledCtas, (std::vector<int64_t>{0, 70, 4095}));
  ASSERT_EQ(s.warpGroups.size(), 2u);
  EXPECT_EQ(s.warpGroups[1].name, "consumer 0");
  EXPECT_EQ(s.unitName(1), "MMA");
  EXPECT_EQ(s.unitName(9), "unit 9");
  // No "record": the 24-byte intervals of the bundles compiled before it.
  EXPECT_EQ(s.record, TimelineSpec::Record::Interval);
  EXPECT_EQ(s.regionBytes(), 16 + 24 * 3);
  EXPECT_EQ(s.bufferBytes(), 3 * 2 * (16 + 24 * 3));
  EXPECT_FALSE(s.runsWithoutBuffer);  // older bundles: their probes would store through null
  for (const std::string &w : m.warnings) EXPECT_EQ(w.find("timeline"), std::string::npos) << w;
  EXPECT_FALSE(parseManifest(gemmManifest()).timeline.has_value());
}

// The object exactly as stagecraft-compile --with-timeline writes it (passes/Driver/
// TimelineManifest.cpp: compact, keys sorted) for the GEMM asset on this grid (64 x 64: CTAs
// 0, 1024, 2048, 3072); test/Compile/timeline-bundle.test runs the runner on a real bundle.
TEST(TimelineSpec, AcceptsTheCompilersObject) {
  const char *compiled = R"(,
  "timeline": {"capacity":8192,"clock":"globaltimer","kernel":"gemm_kernel","module":"timeline","record":"unit_start","runs_without_buffer":true,"sampled_ctas":[0,1024,2048,3072],"units":[{"group":0,"id":0,"name":"loadA"},{"group":0,"id":1,"name":"loadB"},{"group":1,"id":2,"name":"MMA"},{"group":1,"id":3,"kind":"epilogue","name":"epilogue"}],"warp_groups":[{"id":0,"name":"producer","role":"producer"},{"id":1,"name":"consumer 0","role":"consumer"},{"id":2,"name":"consumer 1","role":"consumer"}]}
})";
  Manifest m = parseManifest(withTimeline(compiled));
  ASSERT_TRUE(m.timeline.has_value());
  for (const std::string &w : m.warnings) EXPECT_EQ(w.find("timeline"), std::string::npos) << w;
  const TimelineSpec &s = *m.timeline;
  EXPECT_EQ(s.sampledCtas, (std::vector<int64_t>{0, 1024, 2048, 3072}));
  ASSERT_EQ(s.warpGroups.size(), 3u);
  EXPECT_EQ(s.warpGroups[0].role, "producer");
  EXPECT_EQ(s.warpGroups[2].name, "consumer 1");
  EXPECT_EQ(s.unitName(2), "MMA");
  EXPECT_EQ(s.units[2].kind, "");
  // The code after each tile's loop, no unit of the schedule.
  EXPECT_EQ(s.unitName(3), "epilogue");
  EXPECT_EQ(s.units[3].kind, "epilogue");
  EXPECT_EQ(s.capacity, 8192);
  EXPECT_EQ(s.record, TimelineSpec::Record::UnitStart);
  EXPECT_TRUE(s.runsWithoutBuffer);  // the runner may launch it with a null buffer
  EXPECT_EQ(s.bufferBytes(), 4 * 3 * (16 + 16 * 8192));
}

TEST(TimelineSpec, BadFieldsAreNamed) {
  // The grid is 64 x 64: CTA 4096 does not exist.
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "4095]", "4096]")))
                .find("timeline.sampled_ctas[2]: 4096 is outside 0..4095"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "[0, 70,", "[0, 0,"))).find("sampled_ctas[1]: CTA 0 is listed twice"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"role\": \"producer\"", "\"role\": \"loader\"")))
                .find("timeline.warp_groups[0].role: unknown role \"loader\""),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"kernel\": \"gemm_kernel_timeline\", ", "")))
                .find("timeline.kernel: missing"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"clock\": \"globaltimer\"", "\"clock\": \"clock64\"")))
                .find("timeline.clock: unknown clock"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"capacity\": 3", "\"capacity\": 16000000")))
                .find("timeline.capacity: the event buffer would take"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "{\"id\": 1, \"name\": \"MMA\"", "{\"id\": 0, \"name\": \"MMA\"")))
                .find("timeline.units[1].id: unit id 0 is listed twice"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"capacity\": 3", "\"capacity\": 3, \"record\": \"unit_end\"")))
                .find("timeline.record: unknown record layout \"unit_end\""),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"capacity\": 3", "\"capacity\": 3, \"runs_without_buffer\": 1")))
                .find("timeline.runs_without_buffer: expected true or false"),
            std::string::npos);
  EXPECT_NE(errorOf(withTimeline(replaced(kTimeline, "\"name\": \"MMA\",", "\"name\": \"MMA\", \"kind\": \"prologue\",")))
                .find("timeline.units[1].kind: unknown kind \"prologue\" (expected \"epilogue\")"),
            std::string::npos);
  // Unknown fields warn, as everywhere in the manifest.
  Manifest m = parseManifest(withTimeline(replaced(kTimeline, "\"capacity\": 3", "\"capacity\": 3, \"colour\": 1")));
  bool warned = false;
  for (const std::string &w : m.warnings) warned |= w == "timeline.colour: unknown field, ignored";
  EXPECT_TRUE(warned);
}

/// Writes the buffer an instrumented kernel would: per (slot, warp group) a header and records.
struct BufferWriter {
  const TimelineSpec &spec;
  std::vector<uint8_t> bytes;
  explicit BufferWriter(const TimelineSpec &s) : spec(s), bytes(size_t(s.bufferBytes()), 0) {}
  uint8_t *region(int64_t slot, int64_t wg) {
    return bytes.data() + (slot * int64_t(spec.warpGroups.size()) + wg) * spec.regionBytes();
  }
  void header(int64_t slot, int64_t wg, uint32_t count, uint32_t smid) {
    std::memcpy(region(slot, wg), &count, 4);
    std::memcpy(region(slot, wg) + 4, &smid, 4);
  }
  // A "unit_start" record: the unit starts at `stamp` (TimelineSpec::kEndUnit: an end marker).
  void start(int64_t slot, int64_t wg, int64_t i, uint64_t stamp, uint32_t unit, int32_t iter) {
    uint8_t *r = region(slot, wg) + 16 + 16 * i;
    std::memcpy(r, &stamp, 8);
    std::memcpy(r + 8, &unit, 4);
    std::memcpy(r + 12, &iter, 4);
  }
  // An "interval" record (the bundles compiled before "record").
  void record(int64_t slot, int64_t wg, int64_t i, uint64_t start, uint64_t end, uint32_t unit, int32_t iter) {
    uint8_t *r = region(slot, wg) + 16 + 24 * i;
    std::memcpy(r, &start, 8);
    std::memcpy(r + 8, &end, 8);
    std::memcpy(r + 16, &unit, 4);
    std::memcpy(r + 20, &iter, 4);
  }
};

TEST(TimelineEvents, DecodesTheDocumentedLayout) {
  Manifest m = parseManifest(withTimeline());
  const TimelineSpec &spec = *m.timeline;
  BufferWriter b(spec);
  const uint64_t t0 = 1'700'000'000'000'000'000ull;  // %globaltimer is ns since an epoch
  // CTA 0 on SM 5: the producer loads iterations 0 and 1, the consumer runs MMA 0.
  b.header(0, 0, 2, 5);
  b.record(0, 0, 0, t0 + 100, t0 + 150, 0, 0);
  b.record(0, 0, 1, t0 + 160, t0 + 200, 0, 1);
  b.header(0, 1, 1, 5);
  b.record(0, 1, 0, t0 + 300, t0 + 800, 1, 0);
  // CTA 70 on SM 3: the consumer overflowed (5 attempted, 3 kept), one record names unit 7 and
  // one ends before it starts.
  b.header(1, 1, 5, 3);
  b.record(1, 1, 0, t0 + 50, t0 + 90, 1, 0);
  b.record(1, 1, 1, t0 + 95, t0 + 99, 7, 1);
  b.record(1, 1, 2, t0 + 120, t0 + 110, 1, 2);
  // CTA 4095 recorded nothing.
  DecodedTimeline d = decodeTimeline(spec, b.bytes.data(), b.bytes.size());
  ASSERT_EQ(d.events.size(), 4u);
  EXPECT_EQ(d.originNs, t0 + 50);
  EXPECT_EQ(d.smOfSlot, (std::vector<int64_t>{5, 3, -1}));
  EXPECT_EQ(d.events[0].slot, 0);
  EXPECT_EQ(d.events[0].warpGroup, 0);
  EXPECT_EQ(d.events[1].iteration, 1);
  EXPECT_EQ(d.events[2].unit, 1);
  EXPECT_EQ(d.events[2].endNs - d.events[2].startNs, 500u);
  EXPECT_EQ(d.events[3].slot, 1);
  std::string all;
  for (const std::string &w : d.warnings) all += w + "\n";
  EXPECT_NE(all.find("CTA 70, consumer 0: 5 events recorded, the buffer holds 3"), std::string::npos) << all;
  EXPECT_NE(all.find("1 events name a unit id the manifest does not list"), std::string::npos) << all;
  EXPECT_NE(all.find("1 events end before they start"), std::string::npos) << all;
  EXPECT_NE(all.find("CTA 4095 recorded no events"), std::string::npos) << all;
  EXPECT_THROW(decodeTimeline(spec, b.bytes.data(), b.bytes.size() - 1), std::invalid_argument);
}

// The layout the compiler writes: one record at each unit's start; a unit ends where the
// region's next record starts (the next unit, or an end marker).
TEST(TimelineEvents, DecodesUnitStartRecords) {
  Manifest m = parseManifest(withTimeline(replaced(kTimeline, "\"capacity\": 3", "\"capacity\": 4, \"record\": \"unit_start\"")));
  const TimelineSpec &spec = *m.timeline;
  ASSERT_EQ(spec.record, TimelineSpec::Record::UnitStart);
  EXPECT_EQ(spec.regionBytes(), 16 + 16 * 4);
  BufferWriter b(spec);
  const uint64_t t0 = 1'700'000'000'000'000'000ull;
  const uint32_t end = TimelineSpec::kEndUnit;
  // CTA 0: the producer loads iterations 0 and 1 back to back, then an end marker (the tile's
  // loop ended) and another (the role's code ended); the consumer's MMA 0, then a record naming
  // unit 7 (dropped, but its stamp still ends MMA 0), then MMA 1 that nothing ends.
  b.header(0, 0, 4, 5);
  b.start(0, 0, 0, t0 + 100, 0, 0);
  b.start(0, 0, 1, t0 + 160, 0, 1);
  b.start(0, 0, 2, t0 + 200, end, 0);
  b.start(0, 0, 3, t0 + 900, end, 0);
  b.header(0, 1, 3, 5);
  b.start(0, 1, 0, t0 + 300, 1, 0);
  b.start(0, 1, 1, t0 + 800, 7, 0);
  b.start(0, 1, 2, t0 + 850, 1, 1);
  // CTA 70: the consumer overflowed (6 attempted, 4 kept): the last kept record has no end.
  b.header(1, 1, 6, 3);
  b.start(1, 1, 0, t0 + 50, 1, 0);
  b.start(1, 1, 1, t0 + 90, 1, 1);
  b.start(1, 1, 2, t0 + 95, 1, 2);
  b.start(1, 1, 3, t0 + 120, 1, 3);
  // CTA 4095: only end markers (a consumer whose tiles had no iterations).
  b.header(2, 1, 2, 9);
  b.start(2, 1, 0, t0 + 10, end, 0);
  b.start(2, 1, 1, t0 + 20, end, 0);
  DecodedTimeline d = decodeTimeline(spec, b.bytes.data(), b.bytes.size());
  ASSERT_EQ(d.events.size(), 6u);
  EXPECT_EQ(d.smOfSlot, (std::vector<int64_t>{5, 3, 9}));
  EXPECT_EQ(d.originNs, t0 + 50);
  // Producer: [100, 160) and [160, 200).
  EXPECT_EQ(d.events[0].unit, 0);
  EXPECT_EQ(d.events[0].startNs, t0 + 100);
  EXPECT_EQ(d.events[0].endNs, t0 + 160);
  EXPECT_EQ(d.events[1].iteration, 1);
  EXPECT_EQ(d.events[1].endNs, t0 + 200);
  // Consumer: MMA 0 over [300, 800).
  EXPECT_EQ(d.events[2].warpGroup, 1);
  EXPECT_EQ(d.events[2].unit, 1);
  EXPECT_EQ(d.events[2].endNs - d.events[2].startNs, 500u);
  // CTA 70: three of the four kept records end at the next.
  EXPECT_EQ(d.events[3].slot, 1);
  EXPECT_EQ(d.events[3].endNs - d.events[3].startNs, 40u);
  EXPECT_EQ(d.events[4].endNs - d.events[4].startNs, 5u);
  EXPECT_EQ(d.events[5].endNs - d.events[5].startNs, 25u);
  std::string all;
  for (const std::string &w : d.warnings) all += w + "\n";
  EXPECT_NE(all.find("CTA 70, consumer 0: 6 events recorded, the buffer holds 4"), std::string::npos) << all;
  EXPECT_NE(all.find("1 events name a unit id the manifest does not list"), std::string::npos) << all;
  EXPECT_NE(all.find("2 events have no record after them to end them"), std::string::npos) << all;
  EXPECT_EQ(all.find("recorded no events"), std::string::npos) << all;
}

/// Checks a document against the Trace Event Format: a "traceEvents" array whose complete
/// events have name, ph "X", numeric ts, dur >= 0, pid, tid and an args object, and whose
/// metadata events name every process and thread the complete events use.
void expectTraceEventFormat(const json::Value &doc, std::map<int64_t, std::string> &processNames,
                            std::map<std::pair<int64_t, int64_t>, std::string> &threadNames, size_t &complete) {
  ASSERT_TRUE(doc.isObject());
  const json::Value *events = doc.find("traceEvents");
  ASSERT_NE(events, nullptr);
  ASSERT_TRUE(events->isArray());
  std::set<std::pair<int64_t, int64_t>> used;
  complete = 0;
  for (const json::Value &e : events->items()) {
    ASSERT_TRUE(e.isObject());
    ASSERT_NE(e.find("ph"), nullptr);
    ASSERT_NE(e.find("pid"), nullptr);
    ASSERT_TRUE(e.find("pid")->isInteger());
    std::string ph = e.find("ph")->asString();
    if (ph == "M") {
      std::string name = e.find("name")->asString();
      const json::Value *args = e.find("args");
      ASSERT_NE(args, nullptr);
      if (name == "process_name") processNames[e.find("pid")->asInt()] = args->find("name")->asString();
      if (name == "thread_name")
        threadNames[{e.find("pid")->asInt(), e.find("tid")->asInt()}] = args->find("name")->asString();
      continue;
    }
    ASSERT_EQ(ph, "X");
    ++complete;
    ASSERT_TRUE(e.find("name")->isString());
    ASSERT_TRUE(e.find("ts")->isNumber());
    ASSERT_TRUE(e.find("dur")->isNumber());
    EXPECT_GE(e.find("dur")->asDouble(), 0);
    ASSERT_TRUE(e.find("tid")->isInteger());
    ASSERT_TRUE(e.find("args")->isObject());
    used.insert({e.find("pid")->asInt(), e.find("tid")->asInt()});
  }
  for (const auto &pt : used) {
    EXPECT_TRUE(processNames.count(pt.first)) << "process " << pt.first << " has no name";
    EXPECT_TRUE(threadNames.count(pt)) << "thread " << pt.first << "/" << pt.second << " has no name";
  }
}

TEST(TimelineEvents, ChromeTraceAndResultObject) {
  Manifest m = parseManifest(withTimeline());
  const TimelineSpec &spec = *m.timeline;
  BufferWriter b(spec);
  const uint64_t t0 = 5'000'000;
  b.header(0, 0, 1, 5);
  b.record(0, 0, 0, t0 + 1000, t0 + 1500, 0, 0);
  b.header(0, 1, 1, 5);
  b.record(0, 1, 0, t0 + 2000, t0 + 4500, 1, 0);
  b.header(1, 1, 1, 9);
  b.record(1, 1, 0, t0 + 1200, t0 + 3000, 1, 3);
  DecodedTimeline d = decodeTimeline(spec, b.bytes.data(), b.bytes.size());
  TraceFacts facts{"gemm_kernel", "NVIDIA H100 80GB HBM3", 100.0, 102.0, 0.02, 10};

  json::Value doc = json::parse(trace::toJson(measuredTrace(spec, d, facts)));
  std::map<int64_t, std::string> processes;
  std::map<std::pair<int64_t, int64_t>, std::string> threads;
  size_t complete = 0;
  expectTraceEventFormat(doc, processes, threads, complete);
  EXPECT_EQ(complete, 3u);
  EXPECT_EQ(processes[1], "CTA 0 (SM 5)");
  EXPECT_EQ(processes[2], "CTA 70 (SM 9)");
  EXPECT_EQ(processes[3], "CTA 4095 (SM ?)");
  EXPECT_EQ((threads[{1, 1}]), "producer");
  EXPECT_EQ((threads[{2, 2}]), "consumer 0");
  // Timestamps in microseconds from the earliest start; one event per unit per iteration.
  const json::Value *mma = nullptr;
  for (const json::Value &e : doc.find("traceEvents")->items())
    if (e.find("ph")->asString() == "X" && e.find("pid")->asInt() == 1 && e.find("name")->asString() == "MMA")
      mma = &e;
  ASSERT_NE(mma, nullptr);
  EXPECT_DOUBLE_EQ(mma->find("ts")->asDouble(), 1.0);
  EXPECT_DOUBLE_EQ(mma->find("dur")->asDouble(), 2.5);
  EXPECT_EQ(mma->find("args")->find("iteration")->asInt(), 0);
  EXPECT_DOUBLE_EQ(doc.find("otherData")->find("overhead")->asDouble(), 0.02);

  json::Value o = timelineToJson(spec, d, facts);
  EXPECT_DOUBLE_EQ(o.find("overhead")->asDouble(), 0.02);
  ASSERT_EQ(o.find("ctas")->items().size(), 3u);
  const json::Value &cta70 = o.find("ctas")->items()[1];
  EXPECT_EQ(cta70.find("cta")->asInt(), 70);
  EXPECT_EQ(cta70.find("sm")->asInt(), 9);
  ASSERT_EQ(cta70.find("events")->items().size(), 1u);
  const json::Value &ev = cta70.find("events")->items()[0];  // [wg, unit, iteration, start_ns, dur_ns]
  EXPECT_EQ(ev.items()[0].asInt(), 1);
  EXPECT_EQ(ev.items()[1].asInt(), 1);
  EXPECT_EQ(ev.items()[2].asInt(), 3);
  EXPECT_EQ(ev.items()[3].asInt(), 200);
  EXPECT_EQ(ev.items()[4].asInt(), 1800);
  EXPECT_TRUE(o.find("ctas")->items()[2].find("sm")->isNull());
  EXPECT_EQ(o.find("units")->items()[1].find("name")->asString(), "MMA");
  // No schedule known: the result says null, the Chrome trace leaves it out.
  EXPECT_TRUE(o.find("schedule")->isNull());
  EXPECT_EQ(doc.find("otherData")->find("schedule"), nullptr);
  // No idle launch timed: neither says anything of it.
  EXPECT_EQ(o.find("idle_median_us"), nullptr);
  EXPECT_EQ(doc.find("otherData")->find("code_overhead"), nullptr);

  // With the instrumented kernel also timed recording nothing (101 us): the code's part and
  // the records' part of the 2%.
  facts.idleMedianUs = 101.0;
  o = timelineToJson(spec, d, facts);
  doc = json::parse(trace::toJson(measuredTrace(spec, d, facts)));
  for (const json::Value *x : std::vector<const json::Value *>{&o, doc.find("otherData")}) {
    EXPECT_DOUBLE_EQ(x->find("idle_median_us")->asDouble(), 101.0);
    EXPECT_NEAR(x->find("code_overhead")->asDouble(), 0.01, 1e-12);
    EXPECT_NEAR(x->find("recording_overhead")->asDouble(), 102.0 / 101.0 - 1, 1e-12);
  }
}

TEST(TimelineEvents, TracesSayWhatKernelAndScheduleTheyBelongTo) {
  Manifest m = parseManifest(withTimeline(
      replaced(kTimeline, "\"group\": 1}]", "\"group\": 1}, {\"id\": 2, \"name\": \"epilogue\", \"group\": 1, \"kind\": \"epilogue\"}]")));
  const TimelineSpec &spec = *m.timeline;
  BufferWriter b(spec);
  b.header(0, 1, 1, 5);
  b.record(0, 1, 0, 2000, 4500, 1, 0);
  DecodedTimeline d = decodeTimeline(spec, b.bytes.data(), b.bytes.size());
  TraceFacts facts{"gemm_kernel", "NVIDIA H100 80GB HBM3", 100.0, 102.0, 0.02, 10};
  facts.schedule = json::parse(
      R"({"format": "stagecraft-schedule", "version": 1, "kernel": "gemm_kernel", "ops": [{"name": "MMA", "stage": 1, "order": 0, "group": 1}]})");
  // The Chrome trace's otherData: the kernel, the warp groups and units as the manifest lists
  // them (units with their schedule group), and the schedule, as JSON values (not strings).
  json::Value doc = json::parse(trace::toJson(measuredTrace(spec, d, facts)));
  const json::Value *other = doc.find("otherData");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->find("kernel")->asString(), "gemm_kernel");
  ASSERT_TRUE(other->find("units")->isArray());
  ASSERT_EQ(other->find("units")->items().size(), spec.units.size());
  for (size_t i = 0; i < spec.units.size(); ++i) {
    const json::Value &u = other->find("units")->items()[i];
    EXPECT_EQ(u.find("id")->asInt(), spec.units[i].id);
    EXPECT_EQ(u.find("name")->asString(), spec.units[i].name);
    EXPECT_EQ(u.find("group")->asInt(), spec.units[i].group);
    // The epilogue says what it is; the loop's units have no kind.
    const json::Value *kind = u.find("kind");
    EXPECT_EQ(kind ? kind->asString() : "", spec.units[i].kind);
  }
  ASSERT_EQ(spec.units.size(), 3u);
  EXPECT_EQ(spec.units[2].kind, "epilogue");
  ASSERT_TRUE(other->find("warp_groups")->isArray());
  ASSERT_EQ(other->find("warp_groups")->items().size(), spec.warpGroups.size());
  EXPECT_EQ(other->find("warp_groups")->items()[0].find("role")->asString(), spec.warpGroups[0].role);
  ASSERT_TRUE(other->find("schedule")->isObject());
  EXPECT_EQ(other->find("schedule")->find("ops")->items()[0].find("stage")->asInt(), 1);
  // The result's trace object carries the same schedule.
  json::Value o = timelineToJson(spec, d, facts);
  ASSERT_TRUE(o.find("schedule")->isObject());
  EXPECT_EQ(o.find("schedule")->find("kernel")->asString(), "gemm_kernel");
  // No problem known: the Chrome trace says nothing of its sizes.
  EXPECT_EQ(other->find("problem"), nullptr);
  // The manifest's problem: the sizes it ran at, as a JSON object.
  facts.problem = json::parse(R"({"kind": "gemm", "M": 1536, "N": 1536, "K": 384})");
  doc = json::parse(trace::toJson(measuredTrace(spec, d, facts)));
  const json::Value *problem = doc.find("otherData")->find("problem");
  ASSERT_NE(problem, nullptr);
  ASSERT_TRUE(problem->isObject());
  EXPECT_EQ(problem->find("M")->asInt(), 1536);
  EXPECT_EQ(problem->find("K")->asInt(), 384);
  EXPECT_EQ(problem->find("kind")->asString(), "gemm");
}

TEST(TimelineEvents, TraceRequestField) {
  json::Value id;
  Request r = parseRequest(R"({"bundle": "b", "trace": true})", Request(), &id);
  EXPECT_TRUE(r.trace);
  EXPECT_FALSE(parseRequest(R"({"bundle": "b"})", Request(), &id).trace);
  try {
    parseRequest(R"({"bundle": "b", "trace": "yes"})", Request(), &id);
    FAIL() << "a string trace field was accepted";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("\"trace\": expected true or false"), std::string::npos);
  }
  // Results carry the field (null when no trace was asked for).
  json::Value res = json::parse(serializeResult(Result()));
  ASSERT_NE(res.find("trace"), nullptr);
  EXPECT_TRUE(res.find("trace")->isNull());
  EXPECT_TRUE(res.find("trace_file")->isNull());
}

}  // namespace
