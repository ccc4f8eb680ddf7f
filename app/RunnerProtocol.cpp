//===- RunnerProtocol.cpp - the app's side of the runner protocol ---------===//
#include "app/RunnerProtocol.h"
#include "core/Support/Json.h"

#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace stagecraft::app;
namespace json = llvm::json;

std::string stagecraft::app::runRequestLine(uint64_t id, const std::string &bundleDir,
                                            bool trace) {
  json::Object o{{"id", static_cast<int64_t>(id)}, {"bundle", bundleDir}};
  if (trace)
    o["trace"] = true;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << json::Value(std::move(o));
  return os.str();
}

bool stagecraft::app::uploadRunRequestLine(uint64_t id, const std::string &bundleDir,
                                           std::string &line, std::string &error, bool trace) {
  // What stagecraft-run reads, and its limits (profiler/upload.h).
  struct FileLimit {
    const char *name;
    uint64_t maxBytes;
    bool required;
  };
  const FileLimit files[] = {{"manifest.json", 16ull << 20, true},
                             {"kernel.cubin", 64ull << 20, false},
                             {"kernel.ptx", 64ull << 20, false},
                             {"reference.ptx", 64ull << 20, false},
                             {"timeline.cubin", 64ull << 20, false},
                             {"timeline.ptx", 64ull << 20, false}};
  json::Object upload;
  uint64_t total = 0;
  bool module = false;
  for (const FileLimit &f : files) {
    std::string path = bundleDir + "/" + f.name;
    if (!llvm::sys::fs::exists(path)) {
      if (f.required) {
        error = "cannot upload " + bundleDir + ": it has no " + f.name;
        return false;
      }
      continue;
    }
    uint64_t size = 0;
    if (std::error_code ec = llvm::sys::fs::file_size(path, size)) {
      error = "cannot upload " + path + ": " + ec.message();
      return false;
    }
    if (size > f.maxBytes || (total += size) > (96ull << 20)) {
      error = "cannot upload " + bundleDir + ": " + f.name + " makes it larger than the runner "
              "accepts (64 MiB a module, 96 MiB in all)";
      return false;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      error = "cannot upload " + path + ": " + buffer.getError().message();
      return false;
    }
    upload[f.name] = llvm::encodeBase64((*buffer)->getBuffer());
    module |= llvm::StringRef(f.name).starts_with("kernel.") && size > 0;
  }
  if (!module) {
    error = "cannot upload " + bundleDir + ": it has neither kernel.cubin nor kernel.ptx";
    return false;
  }
  json::Object o{{"id", static_cast<int64_t>(id)}, {"upload", std::move(upload)}};
  if (trace)
    o["trace"] = true;
  line.clear();
  llvm::raw_string_ostream os(line);
  os << json::Value(std::move(o));
  return true;
}

std::string stagecraft::app::pingRequestLine(uint64_t id, const std::string &probePath,
                                             const std::string &token) {
  json::Object o{{"id", static_cast<int64_t>(id)},
                 {"cmd", "ping"},
                 {"probe", json::Object{{"path", probePath}, {"token", token}}}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << json::Value(std::move(o));
  return os.str();
}

std::string stagecraft::app::pingRequestLine(uint64_t id) {
  json::Object o{{"id", static_cast<int64_t>(id)}, {"cmd", "ping"}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << json::Value(std::move(o));
  return os.str();
}

namespace {

/// The "trace" object; false with `error` when it is malformed.
bool parseTrace(const json::Object &t, MeasuredTrace &out, std::string &error) {
  using namespace stagecraft::timeline;
  out.overhead = t.getNumber("overhead").value_or(0);
  out.plainMedianUs = t.getNumber("plain_median_us").value_or(0);
  out.instrumentedMedianUs = t.getNumber("instrumented_median_us").value_or(0);
  out.idleMedianUs = t.getNumber("idle_median_us").value_or(0);
  if (const json::Array *w = t.getArray("warnings"))
    for (const json::Value &x : *w)
      if (auto s = x.getAsString())
        out.warnings.push_back(s->str());
  const json::Array *wgs = t.getArray("warp_groups");
  const json::Array *units = t.getArray("units");
  const json::Array *ctas = t.getArray("ctas");
  if (!wgs || !units || !ctas) {
    error = "the trace has no warp_groups, units or ctas";
    return false;
  }
  Timeline shape;
  for (const json::Value &w : *wgs) {
    const json::Object *o = w.getAsObject();
    if (!o) {
      error = "a warp group of the trace is not an object";
      return false;
    }
    TimelineRow row;
    row.name = o->getString("name").value_or("warp group").str();
    row.kind = o->getString("role").value_or("") == "producer" ? RowKind::Producer
                                                                 : RowKind::Consumer;
    row.warpGroup = o->getInteger("id").value_or(static_cast<int64_t>(shape.rows.size()));
    shape.rows.push_back(row);
  }
  std::vector<int64_t> unitIds;
  for (const json::Value &u : *units) {
    const json::Object *o = u.getAsObject();
    if (!o || !o->getInteger("id") || !o->getString("name")) {
      error = "a unit of the trace has no id or name";
      return false;
    }
    unitIds.push_back(*o->getInteger("id"));
    out.unitGroups.push_back(o->getInteger("group").value_or(-1));
    // The kind comes from the loop graph (the app matches names); the
    // epilogue is no unit of the loop.
    shape.units.push_back({o->getString("name")->str(),
                           o->getString("kind").value_or("") == "epilogue" ? ZoneKind::Epilogue
                                                                           : ZoneKind::Other});
  }
  if (std::find(out.unitGroups.begin(), out.unitGroups.end(), -1) != out.unitGroups.end())
    out.unitGroups.clear(); // some unit has no group: the trace does not say
  if (const json::Object *sched = t.getObject("schedule")) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << json::Value(json::Object(*sched));
    out.scheduleJson = os.str();
  }
  for (const json::Value &c : *ctas) {
    const json::Object *o = c.getAsObject();
    const json::Array *events = o ? o->getArray("events") : nullptr;
    if (!events) {
      error = "a CTA of the trace has no events";
      return false;
    }
    MeasuredCta m;
    m.cta = o->getInteger("cta").value_or(0);
    m.sm = o->getInteger("sm").value_or(-1);
    m.timeline = shape;
    m.timeline.title = "CTA " + std::to_string(m.cta) +
                       (m.sm >= 0 ? " (SM " + std::to_string(m.sm) + ")" : "");
    double origin = -1;
    for (const json::Value &e : *events) {
      const json::Array *a = e.getAsArray();
      if (!a || a->size() != 5) {
        error = "an event of the trace is not [warp group, unit, iteration, start, duration]";
        return false;
      }
      auto num = [&](size_t i) { return (*a)[i].getAsNumber().value_or(-1); };
      double wg = num(0), unit = num(1), start = num(3), dur = num(4);
      size_t u = 0;
      while (u < unitIds.size() && unitIds[u] != static_cast<int64_t>(unit))
        ++u;
      if (wg < 0 || wg >= static_cast<double>(shape.rows.size()) || u == unitIds.size() ||
          start < 0 || dur < 0) {
        error = "an event of the trace names an unknown warp group or unit";
        return false;
      }
      Zone z;
      z.row = static_cast<uint16_t>(wg);
      z.unit = static_cast<uint16_t>(u);
      z.iteration = static_cast<int32_t>(num(2));
      z.start = start;
      z.end = start + dur;
      m.timeline.zones.push_back(z);
      origin = origin < 0 ? start : std::min(origin, start);
    }
    for (Zone &z : m.timeline.zones) {
      z.start -= origin;
      z.end -= origin;
    }
    m.timeline.sortZones();
    out.ctas.push_back(std::move(m));
  }
  return true;
}

} // namespace

bool stagecraft::app::parseRunnerReply(const std::string &line,
                                       RunnerReply &reply, std::string &error) {
  reply = RunnerReply();
  reply.line = line;
  llvm::Expected<json::Value> v = stagecraft::parseJson(line);
  if (!v) {
    error = "not JSON: " + llvm::toString(v.takeError());
    return false;
  }
  const json::Object *o = v->getAsObject();
  if (!o) {
    error = "not a JSON object";
    return false;
  }
  std::optional<llvm::StringRef> status = o->getString("status");
  if (!status) {
    error = "no \"status\" field";
    return false;
  }
  reply.status = status->str();
  if (std::optional<int64_t> id = o->getInteger("id"); id && *id >= 0)
    reply.id = static_cast<uint64_t>(*id);
  if (std::optional<llvm::StringRef> e = o->getString("error"))
    reply.error = e->str();
  reply.verified = o->getBoolean("verified").value_or(false);
  reply.tflops = o->getNumber("tflops");
  reply.referenceTflops = o->getNumber("reference_tflops");
  reply.ratioToReference = o->getNumber("ratio_to_reference");
  reply.medianUs = o->getNumber("median_us");
  reply.maxRelErr = o->getNumber("max_rel_err");
  if (std::optional<int64_t> r = o->getInteger("registers_per_thread"))
    reply.registersPerThread = static_cast<int>(*r);
  if (std::optional<llvm::StringRef> n = o->getString("reference_name"))
    reply.referenceName = n->str();
  if (const json::Array *w = o->getArray("warnings"))
    for (const json::Value &x : *w)
      if (std::optional<llvm::StringRef> s = x.getAsString())
        reply.warnings.push_back(s->str());
  if (std::optional<llvm::StringRef> k = o->getString("kernel"))
    reply.kernel = k->str();
  if (std::optional<llvm::StringRef> b = o->getString("bundle"))
    reply.bundle = b->str();
  reply.probe = o->getBoolean("probe");
  if (const json::Array *received = o->getArray("received"))
    reply.receivedFiles = static_cast<int>(received->size());
  if (const json::Object *d = o->getObject("device"))
    if (std::optional<llvm::StringRef> n = d->getString("name"))
      reply.deviceName = n->str();
  if (const json::Object *t = o->getObject("trace")) {
    if (std::optional<llvm::StringRef> e = t->getString("error")) {
      reply.traceError = e->str();
    } else {
      MeasuredTrace trace;
      std::string why;
      if (parseTrace(*t, trace, why))
        reply.trace = std::move(trace);
      else
        reply.traceError = "unreadable trace: " + why;
    }
  }
  return true;
}
