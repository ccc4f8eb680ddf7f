//===- TimelineTrace.cpp - timelines as Chrome trace-event JSON -----------===//
#include "core/Timeline/TimelineTrace.h"

using namespace stagecraft;
using namespace stagecraft::timeline;

static const char *category(ZoneKind k) {
  switch (k) {
  case ZoneKind::Load: return "load";
  case ZoneKind::Dot: return "dot";
  case ZoneKind::Compute: return "compute";
  case ZoneKind::Epilogue: return "epilogue";
  case ZoneKind::Other: return "other";
  }
  return "other";
}

void stagecraft::timeline::appendTimeline(trace::Document &doc, const Timeline &t, int64_t pid,
                                          const std::string &processName, int64_t sortIndex) {
  doc.processes.push_back({pid, processName, sortIndex});
  for (size_t r = 0; r < t.rows.size(); ++r)
    doc.threads.push_back({pid, static_cast<int64_t>(r + 1), t.rows[r].name,
                           static_cast<int64_t>(r)});
  for (const Zone &z : t.zones) {
    trace::Event e;
    const TimelineUnit *u = z.unit < t.units.size() ? &t.units[z.unit] : nullptr;
    e.name = u ? u->name : "unit " + std::to_string(z.unit);
    std::string cat = u ? category(u->kind) : "other";
    bool pipe = z.row < t.rows.size() && (t.rows[z.row].kind == RowKind::TensorCores ||
                                          t.rows[z.row].kind == RowKind::LoadPipe ||
                                          t.rows[z.row].kind == RowKind::MathPipe);
    e.category = pipe ? cat + ",pipe" : cat;
    e.pid = pid;
    e.tid = z.row + 1;
    e.tsUs = z.start / 1000.0;
    e.durUs = (z.end - z.start) / 1000.0;
    e.args.push_back(trace::Arg::num("iteration", z.iteration));
    e.args.push_back(trace::Arg::num("start_ns", z.start));
    e.args.push_back(trace::Arg::num("duration_ns", z.end - z.start));
    doc.events.push_back(std::move(e));
  }
}

trace::Document stagecraft::timeline::predictedTrace(const Prediction &p,
                                                     const std::string &kernel,
                                                     const HopperModel &model) {
  trace::Document doc;
  appendTimeline(doc, p.timeline, 0, "predicted (" + model.device + ", one CTA)", 0);
  doc.otherData = {
      trace::Arg::str("kind", "predicted"),
      trace::Arg::str("kernel", kernel),
      trace::Arg::str("model", model.device),
      trace::Arg::num("iteration_ns", p.iterationNs),
      trace::Arg::str("bound", p.bound),
      trace::Arg::str("bound_detail", p.boundDetail),
      trace::Arg::num("predicted_tflops", p.tflops),
      trace::Arg::num("predicted_total_us", p.totalNs / 1000.0),
      trace::Arg::num("cta_us", p.ctaNs / 1000.0),
      trace::Arg::num("ctas_per_sm", static_cast<double>(p.ctasPerSM)),
      trace::Arg::num("waves", p.waves),
      trace::Arg::num("sm_clock_ghz", p.clockGHz),
      trace::Arg::num("dram_tbps", p.dramTBps),
      trace::Arg::num("trip_count_shown", static_cast<double>(p.shownTrip)),
  };
  for (const ResourceUse &r : p.utilization)
    doc.otherData.push_back(trace::Arg::num("busy " + r.name, r.busy));
  for (size_t i = 0; i < p.notes.size(); ++i)
    doc.otherData.push_back(trace::Arg::str("note " + std::to_string(i + 1), p.notes[i]));
  // The sizes it was predicted at, as the measured trace's "problem" has
  // the sizes it ran at.
  if (!p.sizes.empty()) {
    std::string sizes;
    for (const auto &[name, value] : p.sizes)
      sizes += (sizes.empty() ? "{" : ", ") + trace::quote(name) + ": " + std::to_string(value);
    doc.otherData.push_back(trace::Arg::json("problem", sizes + "}"));
  }
  return doc;
}
