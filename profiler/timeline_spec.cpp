#include "timeline_spec.h"

#include "manifest.h"

#include <set>

namespace stagecraft::profiler {

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &why) {
  throw ManifestError("manifest.json: " + path + ": " + why);
}

const json::Value &field(const json::Value &o, const std::string &path, const std::string &key) {
  const json::Value *f = o.find(key);
  if (!f) fail(path + "." + key, "missing (required)");
  return *f;
}

std::string text(const json::Value &v, const std::string &path) {
  if (!v.isString()) fail(path, std::string("expected a string, got ") + json::typeName(v.type()));
  return v.asString();
}

int64_t integer(const json::Value &v, const std::string &path, int64_t lo, int64_t hi) {
  if (!v.isInteger()) fail(path, std::string("expected an integer, got ") + json::typeName(v.type()));
  int64_t i = v.asInt();
  if (i < lo || i > hi)
    fail(path, std::to_string(i) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return i;
}

const json::Value &array(const json::Value &v, const std::string &path) {
  if (!v.isArray()) fail(path, std::string("expected an array, got ") + json::typeName(v.type()));
  return v;
}

// Unknown fields are warnings, as everywhere in the manifest: a newer compiler may add some.
void noteOtherFields(const json::Value &o, const std::string &path, std::set<std::string> known,
                     std::vector<std::string> &warnings) {
  for (const auto &m : o.members())
    if (!known.count(m.first)) warnings.push_back(path + "." + m.first + ": unknown field, ignored");
}

}  // namespace

std::string TimelineSpec::unitName(int64_t id) const {
  for (const TimelineUnit &u : units)
    if (u.id == id) return u.name;
  return "unit " + std::to_string(id);
}

TimelineSpec parseTimelineSpec(const json::Value &v, const std::array<int64_t, 3> &grid,
                               std::vector<std::string> &warnings) {
  const std::string path = "timeline";
  if (!v.isObject()) fail(path, std::string("expected an object, got ") + json::typeName(v.type()));
  noteOtherFields(v, path, {"module", "kernel", "clock", "sampled_ctas", "warp_groups", "units", "capacity", "recorded_tiles", "record", "runs_without_buffer"}, warnings);
  TimelineSpec s;
  if (const json::Value *m = v.find("module")) s.module = text(*m, path + ".module");
  if (s.module != "timeline")
    fail(path + ".module", "unknown module \"" + s.module + "\" (expected \"timeline\": timeline.cubin or .ptx)");
  s.kernel = text(field(v, path, "kernel"), path + ".kernel");
  if (s.kernel.empty()) fail(path + ".kernel", "must not be empty");
  if (const json::Value *c = v.find("clock")) s.clock = text(*c, path + ".clock");
  if (s.clock != "globaltimer")
    fail(path + ".clock", "unknown clock \"" + s.clock + "\" (expected \"globaltimer\")");

  const int64_t ctas = grid[0] * grid[1] * grid[2];
  const json::Value &sampled = array(field(v, path, "sampled_ctas"), path + ".sampled_ctas");
  if (sampled.items().empty()) fail(path + ".sampled_ctas", "must list at least one CTA");
  std::set<int64_t> seen;
  for (size_t i = 0; i < sampled.items().size(); ++i) {
    std::string p = path + ".sampled_ctas[" + std::to_string(i) + "]";
    int64_t c = integer(sampled.items()[i], p, 0, ctas - 1);
    if (!seen.insert(c).second) fail(p, "CTA " + std::to_string(c) + " is listed twice");
    s.sampledCtas.push_back(c);
  }

  const json::Value &wgs = array(field(v, path, "warp_groups"), path + ".warp_groups");
  if (wgs.items().empty()) fail(path + ".warp_groups", "must list at least one warp group");
  for (size_t i = 0; i < wgs.items().size(); ++i) {
    std::string p = path + ".warp_groups[" + std::to_string(i) + "]";
    const json::Value &w = wgs.items()[i];
    if (!w.isObject()) fail(p, std::string("expected an object, got ") + json::typeName(w.type()));
    noteOtherFields(w, p, {"id", "role", "name"}, warnings);
    TimelineWarpGroup g;
    g.id = integer(field(w, p, "id"), p + ".id", 0, 1023);
    if (g.id != int64_t(i)) fail(p + ".id", "warp groups must be listed in order, ids 0, 1, ... (got " +
                                               std::to_string(g.id) + " at position " + std::to_string(i) + ")");
    g.role = text(field(w, p, "role"), p + ".role");
    if (g.role != "producer" && g.role != "consumer")
      fail(p + ".role", "unknown role \"" + g.role + "\" (expected \"producer\" or \"consumer\")");
    g.name = text(field(w, p, "name"), p + ".name");
    s.warpGroups.push_back(g);
  }

  const json::Value &units = array(field(v, path, "units"), path + ".units");
  if (units.items().empty()) fail(path + ".units", "must list at least one unit");
  std::set<int64_t> ids;
  for (size_t i = 0; i < units.items().size(); ++i) {
    std::string p = path + ".units[" + std::to_string(i) + "]";
    const json::Value &u = units.items()[i];
    if (!u.isObject()) fail(p, std::string("expected an object, got ") + json::typeName(u.type()));
    noteOtherFields(u, p, {"id", "name", "group", "kind"}, warnings);
    TimelineUnit t;
    t.id = integer(field(u, p, "id"), p + ".id", 0, 65535);
    if (!ids.insert(t.id).second) fail(p + ".id", "unit id " + std::to_string(t.id) + " is listed twice");
    t.name = text(field(u, p, "name"), p + ".name");
    if (t.name.empty()) fail(p + ".name", "must not be empty");
    t.group = integer(field(u, p, "group"), p + ".group", 0, 1023);
    if (const json::Value *k = u.find("kind")) {
      t.kind = text(*k, p + ".kind");
      if (t.kind != "epilogue") fail(p + ".kind", "unknown kind \"" + t.kind + "\" (expected \"epilogue\")");
    }
    s.units.push_back(t);
  }

  if (const json::Value *r = v.find("record")) {
    std::string kind = text(*r, path + ".record");
    if (kind == "unit_start") s.record = TimelineSpec::Record::UnitStart;
    else if (kind != "interval")
      fail(path + ".record", "unknown record layout \"" + kind + "\" (expected \"unit_start\" or \"interval\")");
  }
  s.capacity = integer(field(v, path, "capacity"), path + ".capacity", 1, int64_t(1) << 24);
  if (s.bufferBytes() > kMaxTimelineBufferBytes)
    fail(path + ".capacity", "the event buffer would take " + std::to_string(s.bufferBytes()) +
                                 " bytes, more than the runner's limit of " +
                                 std::to_string(kMaxTimelineBufferBytes));
  if (const json::Value *t = v.find("recorded_tiles"))
    s.recordedTiles = integer(*t, path + ".recorded_tiles", 1, int64_t(1) << 30);
  if (const json::Value *b = v.find("runs_without_buffer")) {
    if (!b->isBool()) fail(path + ".runs_without_buffer", "expected true or false");
    s.runsWithoutBuffer = b->asBool();
  }
  return s;
}

}  // namespace stagecraft::profiler
