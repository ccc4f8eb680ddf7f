//===- MeasuredTraceFile.cpp - a measured timeline read from a file -------===//
#include "app/MeasuredTraceFile.h"
#include "core/Support/InputCheck.h"
#include "core/Support/Json.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::app;
namespace json = llvm::json;

size_t MeasuredTraceFile::eventCount() const {
  size_t n = 0;
  for (const MeasuredCta &c : trace.ctas)
    n += c.timeline.zones.size();
  return n;
}

namespace {

constexpr size_t kMaxIndex = UINT16_MAX; // Zone::row and Zone::unit are 16 bits

std::string at(size_t i) { return "traceEvents[" + std::to_string(i) + "]"; }

/// "CTA 512 (SM 52)" -> 512, 52 ("SM ?": -1).
void parseProcessName(const std::string &name, int64_t &cta, int64_t &sm) {
  long long c = 0, s = 0;
  if (std::sscanf(name.c_str(), "CTA %lld (SM %lld)", &c, &s) == 2) {
    cta = c;
    sm = s;
  } else if (std::sscanf(name.c_str(), "CTA %lld", &c) == 1) {
    cta = c;
    sm = -1;
  }
}

/// A complete event as the file has it.
struct RawEvent {
  int64_t pid = 0, tid = 0;
  size_t unit = 0;
  int32_t iteration = 0;
  double startNs = 0, durNs = 0;
};

/// The Chrome trace-event form that stagecraft-run --trace writes.
bool parseChromeTrace(const json::Object &root, MeasuredTraceFile &out, std::string &error) {
  using namespace stagecraft::timeline;
  out.format = MeasuredTraceFile::Format::ChromeTrace;
  const json::Array *events = root.getArray("traceEvents");
  if (!events) {
    error = "\"traceEvents\" is not an array";
    return false;
  }
  MeasuredTrace &t = out.trace;
  // What the trace says about itself.
  const json::Object *other = root.getObject("otherData");
  std::vector<std::string> unitNames;
  std::set<std::string> epilogueNames; // units of "kind": "epilogue"
  std::map<int64_t, std::string> roleOfWarpGroup; // warp group id -> role
  bool listsUnits = false;
  if (other) {
    std::optional<llvm::StringRef> kind = other->getString("kind");
    if (kind && *kind == "predicted") {
      error = "it is a predicted timeline (stagecraft-compile --timeline), not a measured one "
              "(stagecraft-run --trace)";
      return false;
    }
    if (kind && *kind != "measured") {
      error = "otherData.kind is \"" + kind->str() + "\", not \"measured\"";
      return false;
    }
    if (!kind)
      out.notes.push_back("it does not say it is a measured timeline (no otherData.kind)");
    out.kernel = other->getString("kernel").value_or("").str();
    out.device = other->getString("device").value_or("").str();
    t.overhead = other->getNumber("overhead").value_or(0);
    t.plainMedianUs = other->getNumber("plain_median_us").value_or(0);
    t.instrumentedMedianUs = other->getNumber("instrumented_median_us").value_or(0);
    t.idleMedianUs = other->getNumber("idle_median_us").value_or(0);
    // "warning 1", "warning 2", ...: in their order.
    for (int i = 1;; ++i) {
      std::optional<llvm::StringRef> w = other->getString("warning " + std::to_string(i));
      if (!w)
        break;
      t.warnings.push_back(w->str());
    }
    if (const json::Array *units = other->getArray("units")) {
      listsUnits = true;
      for (size_t i = 0; i < units->size(); ++i) {
        const json::Object *u = (*units)[i].getAsObject();
        std::optional<llvm::StringRef> name = u ? u->getString("name") : std::nullopt;
        if (!name) {
          error = "otherData.units[" + std::to_string(i) + "] has no name";
          return false;
        }
        unitNames.push_back(name->str());
        t.unitGroups.push_back(u->getInteger("group").value_or(-1));
        if (u->getString("kind").value_or("") == "epilogue")
          epilogueNames.insert(name->str());
      }
      if (std::find(t.unitGroups.begin(), t.unitGroups.end(), -1) != t.unitGroups.end())
        t.unitGroups.clear();
    }
    if (const json::Array *wgs = other->getArray("warp_groups"))
      for (const json::Value &w : *wgs)
        if (const json::Object *o = w.getAsObject())
          if (auto id = o->getInteger("id"))
            roleOfWarpGroup[*id] = o->getString("role").value_or("").str();
    if (const json::Object *sched = other->getObject("schedule")) {
      llvm::raw_string_ostream os(t.scheduleJson);
      os << json::Value(json::Object(*sched));
    }
  } else {
    out.notes.push_back("it has no otherData (kernel, device, units)");
  }
  if (out.kernel.empty())
    out.notes.push_back("it does not name its kernel");
  if (!listsUnits)
    out.notes.push_back("it does not list its units' schedule groups or its schedule (written "
                        "before stagecraft-run recorded them)");
  else if (t.scheduleJson.empty())
    out.notes.push_back("it does not carry the schedule it was measured with (its bundle had "
                        "no schedule.json)");

  // Processes (sampled CTAs), threads (warp groups) and complete events.
  std::map<int64_t, std::string> processName;
  std::map<int64_t, int64_t> processSort;
  std::map<std::pair<int64_t, int64_t>, std::string> threadName;
  std::map<std::pair<int64_t, int64_t>, int64_t> threadSort;
  std::vector<RawEvent> raw;
  for (size_t i = 0; i < events->size(); ++i) {
    const json::Object *e = (*events)[i].getAsObject();
    if (!e) {
      error = at(i) + " is not an object";
      return false;
    }
    std::optional<llvm::StringRef> ph = e->getString("ph");
    std::optional<llvm::StringRef> name = e->getString("name");
    std::optional<int64_t> pid = e->getInteger("pid"), tid = e->getInteger("tid");
    if (ph && *ph == "M") {
      const json::Object *args = e->getObject("args");
      if (!name || !pid || !args)
        continue; // metadata the app does not use
      if (*name == "process_name")
        processName[*pid] = args->getString("name").value_or("").str();
      else if (*name == "process_sort_index")
        processSort[*pid] = args->getInteger("sort_index").value_or(0);
      else if (*name == "thread_name" && tid)
        threadName[{*pid, *tid}] = args->getString("name").value_or("").str();
      else if (*name == "thread_sort_index" && tid)
        threadSort[{*pid, *tid}] = args->getInteger("sort_index").value_or(0);
      continue;
    }
    if (!ph || *ph != "X")
      continue; // instants, counters, ...: not what the runner writes; skipped
    if (!name || !pid || !tid) {
      error = at(i) + " (a complete event) has no " +
              std::string(!name ? "name" : !pid ? "integer pid" : "integer tid");
      return false;
    }
    std::optional<double> ts = e->getNumber("ts"), dur = e->getNumber("dur");
    const json::Object *args = e->getObject("args");
    std::optional<int64_t> iteration = args ? args->getInteger("iteration") : std::nullopt;
    if (!ts || !dur || !iteration) {
      error = at(i) + " (" + name->str() + ") has no " +
              std::string(!ts ? "ts" : !dur ? "dur" : "args.iteration") +
              ": the app reads the events stagecraft-run --trace writes";
      return false;
    }
    if (*iteration < 0 || *iteration > INT32_MAX) {
      error = at(i) + " (" + name->str() + ") has iteration " + std::to_string(*iteration) +
              ", outside 0 to 2^31-1";
      return false;
    }
    RawEvent r;
    r.pid = *pid;
    r.tid = *tid;
    r.iteration = static_cast<int32_t>(*iteration);
    // The exact nanoseconds when the runner wrote them, else the microseconds.
    r.startNs = args->getNumber("start_ns").value_or(*ts * 1000.0);
    r.durNs = args->getNumber("duration_ns").value_or(*dur * 1000.0);
    if (!(r.durNs >= 0) || !(r.startNs >= 0)) {
      error = at(i) + " (" + name->str() + ") starts before 0 or has a negative duration";
      return false;
    }
    // A kernel's timeline spans microseconds to seconds: an hour is no kernel's.
    constexpr double kHourNs = 3600e9;
    if (!(r.startNs + r.durNs <= kHourNs)) {
      error = at(i) + " (" + name->str() + ") ends more than an hour after the trace's start: "
              "not a kernel's timeline";
      return false;
    }
    auto u = std::find(unitNames.begin(), unitNames.end(), name->str());
    if (u == unitNames.end()) {
      if (listsUnits) {
        error = at(i) + " names the unit \"" + name->str() + "\", which otherData.units does "
                "not list";
        return false;
      }
      unitNames.push_back(name->str());
      u = unitNames.end() - 1;
    }
    r.unit = static_cast<size_t>(u - unitNames.begin());
    raw.push_back(r);
  }
  if (raw.empty()) {
    error = "it has no complete events (\"ph\": \"X\"): nothing was measured";
    return false;
  }
  if (unitNames.size() > kMaxIndex) {
    error = "it names more than " + std::to_string(kMaxIndex) + " units";
    return false;
  }

  // One MeasuredCta per process, in the file's order (sort index, then pid).
  std::map<int64_t, std::vector<int64_t>> tidsOf; // pid -> its threads
  for (const auto &[pt, name] : threadName)
    tidsOf[pt.first].push_back(pt.second);
  for (const RawEvent &r : raw)
    tidsOf[r.pid].push_back(r.tid);
  std::vector<int64_t> pids;
  for (const RawEvent &r : raw)
    if (std::find(pids.begin(), pids.end(), r.pid) == pids.end())
      pids.push_back(r.pid);
  std::stable_sort(pids.begin(), pids.end(), [&](int64_t a, int64_t b) {
    return std::make_pair(processSort.count(a) ? processSort[a] : a, a) <
           std::make_pair(processSort.count(b) ? processSort[b] : b, b);
  });
  Timeline shape;
  // The app colours units by its loop's units; the epilogue is no unit of
  // the loop.
  for (const std::string &n : unitNames)
    shape.units.push_back({n, epilogueNames.count(n) ? ZoneKind::Epilogue : ZoneKind::Other});
  for (int64_t pid : pids) {
    std::vector<int64_t> &tids = tidsOf[pid];
    std::sort(tids.begin(), tids.end());
    tids.erase(std::unique(tids.begin(), tids.end()), tids.end());
    std::stable_sort(tids.begin(), tids.end(), [&](int64_t a, int64_t b) {
      auto ka = threadSort.find({pid, a}), kb = threadSort.find({pid, b});
      return (ka == threadSort.end() ? a : ka->second) < (kb == threadSort.end() ? b : kb->second);
    });
    if (tids.size() > kMaxIndex) {
      error = "a process of the trace has more than " + std::to_string(kMaxIndex) + " threads";
      return false;
    }
    MeasuredCta m;
    m.cta = pid - 1; // the runner's pids are slot + 1; the name says the CTA
    auto pn = processName.find(pid);
    m.timeline.title = pn != processName.end() && !pn->second.empty()
                           ? pn->second
                           : "process " + std::to_string(pid);
    if (pn != processName.end())
      parseProcessName(pn->second, m.cta, m.sm);
    m.timeline.units = shape.units;
    for (int64_t tid : tids) {
      TimelineRow row;
      auto tn = threadName.find({pid, tid});
      row.name = tn != threadName.end() && !tn->second.empty() ? tn->second
                                                              : "thread " + std::to_string(tid);
      row.warpGroup = tid - 1; // the runner's tids are warp group id + 1
      auto role = roleOfWarpGroup.find(tid - 1);
      bool producer = role != roleOfWarpGroup.end() ? role->second == "producer"
                                                    : row.name == "producer";
      row.kind = producer ? RowKind::Producer : RowKind::Consumer;
      row.kindKnown = role != roleOfWarpGroup.end() || tn != threadName.end();
      m.timeline.rows.push_back(row);
    }
    double origin = -1;
    for (const RawEvent &r : raw) {
      if (r.pid != pid)
        continue;
      Zone z;
      z.row = static_cast<uint16_t>(std::find(tids.begin(), tids.end(), r.tid) - tids.begin());
      z.unit = static_cast<uint16_t>(r.unit);
      z.iteration = r.iteration;
      z.start = r.startNs;
      z.end = r.startNs + r.durNs;
      m.timeline.zones.push_back(z);
      origin = origin < 0 ? z.start : std::min(origin, z.start);
    }
    // Aligned at the CTA's first event, as a run's trace (RunnerProtocol).
    for (Zone &z : m.timeline.zones) {
      z.start -= origin;
      z.end -= origin;
    }
    m.timeline.sortZones();
    t.ctas.push_back(std::move(m));
  }
  return true;
}

/// The runner's result (stagecraft-run BUNDLE > result.json), whose "trace"
/// object holds the events (RunnerProtocol reads it as it reads a run's).
bool parseRunnerResult(llvm::StringRef text, MeasuredTraceFile &out, std::string &error) {
  out.format = MeasuredTraceFile::Format::RunnerResult;
  RunnerReply reply;
  std::string why;
  if (!parseRunnerReply(text.str(), reply, why)) {
    error = "a runner result that cannot be read: " + why;
    return false;
  }
  if (!reply.trace) {
    error = reply.traceError.empty()
                ? "the runner result has no measured timeline (run with --trace, or a bundle "
                  "built with --with-timeline)" +
                      (reply.error.empty() ? std::string() : ": the run failed: " + reply.error)
                : "the runner result has no measured timeline: " + reply.traceError;
    return false;
  }
  out.trace = std::move(*reply.trace);
  out.kernel = reply.kernel;
  out.device = reply.deviceName;
  if (out.trace.ctas.empty() || out.eventCount() == 0) {
    error = "its trace has no events: nothing was measured";
    return false;
  }
  if (out.kernel.empty())
    out.notes.push_back("it does not name its kernel");
  if (out.trace.unitGroups.empty())
    out.notes.push_back("it does not list its units' schedule groups");
  if (out.trace.scheduleJson.empty())
    out.notes.push_back("it does not carry the schedule it was measured with (written before "
                        "stagecraft-run recorded it, or its bundle had no schedule.json)");
  return true;
}

} // namespace

bool stagecraft::app::parseMeasuredTraceFile(llvm::StringRef text, MeasuredTraceFile &out,
                                             std::string &error) {
  out = MeasuredTraceFile();
  llvm::Expected<json::Value> v = stagecraft::parseJson(text);
  if (!v) {
    error = "not JSON: " + llvm::toString(v.takeError());
    return false;
  }
  if (v->getAsArray()) {
    error = "a JSON array of events: the app reads the object form that stagecraft-run --trace "
            "writes ({\"traceEvents\": [...], \"otherData\": {...}})";
    return false;
  }
  const json::Object *root = v->getAsObject();
  if (!root) {
    error = "not a JSON object";
    return false;
  }
  // The sizes it ran at: every integer of the runner's problem object (its
  // "kind" is not a size), in name order.
  auto readSizes = [&](const json::Object *problem) {
    if (!problem)
      return;
    for (const auto &kv : *problem)
      if (std::optional<int64_t> n = kv.second.getAsInteger())
        out.sizes.emplace_back(kv.first.str(), *n);
    llvm::sort(out.sizes);
  };
  if (root->get("traceEvents")) {
    if (!parseChromeTrace(*root, out, error))
      return false;
    if (const json::Object *other = root->getObject("otherData"))
      readSizes(other->getObject("problem"));
    return true;
  }
  if (root->get("status")) {
    if (!parseRunnerResult(text, out, error))
      return false;
    readSizes(root->getObject("problem"));
    return true;
  }
  error = "neither a trace (no \"traceEvents\": stagecraft-run --trace FILE) nor a runner result "
          "(no \"status\")";
  return false;
}

bool stagecraft::app::readMeasuredTraceFile(const std::string &path, MeasuredTraceFile &out,
                                            std::string &error) {
  // A device or a pipe has no size to check and never ends (--trace /dev/zero
  // grew the app to 24 GB: the ninth sweep's B3).
  if (std::string why = checkUserFile(path, ~uint64_t(0)); !why.empty()) {
    error = llvm::StringRef(why).starts_with(path + ": ") ? why.substr(path.size() + 2) : why;
    return false;
  }
  uint64_t size = 0;
  if (std::error_code ec = llvm::sys::fs::file_size(path, size)) {
    error = "cannot read it: " + ec.message();
    return false;
  }
  if (size > kMaxTraceFileBytes) {
    error = "it is " + std::to_string(size >> 20) + " MiB, more than the " +
            std::to_string(kMaxTraceFileBytes >> 20) + " MiB the app reads";
    return false;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read it: " + buffer.getError().message();
    return false;
  }
  return parseMeasuredTraceFile((*buffer)->getBuffer(), out, error);
}
