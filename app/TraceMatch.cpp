//===- TraceMatch.cpp - does a measured trace belong to this kernel? -----===//
#include "app/TraceMatch.h"

#include "core/Schedule/Legality.h"

#include <algorithm>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

const char *kLoadFirst = " (load the schedule it was measured with first: --schedule, or File > "
                         "Load schedule)";

std::string unitList(const LoopGraph &graph) {
  std::string s;
  for (const Unit &u : graph.units)
    s += (s.empty() ? "" : ", ") + u.name;
  return s;
}

/// A schedule as legality reads it: stages relative to the earliest, the
/// position in the body (order, ties by program order), group and wait.
struct Normalized {
  std::vector<int64_t> stage, position, group, wait;
};

Normalized normalize(const LoopGraph &graph, const Schedule &schedule) {
  Normalized n;
  size_t count = graph.units.size();
  std::vector<OpSchedule> s(count);
  for (unsigned u = 0; u < count; ++u)
    s[u] = effectiveSchedule(graph, schedule, u);
  int64_t minStage = INT64_MAX;
  for (const OpSchedule &o : s)
    minStage = std::min(minStage, o.stage);
  std::vector<unsigned> body(count);
  for (unsigned u = 0; u < count; ++u)
    body[u] = u;
  std::stable_sort(body.begin(), body.end(),
                   [&](unsigned a, unsigned b) { return s[a].order < s[b].order; });
  n.position.assign(count, 0);
  for (unsigned i = 0; i < count; ++i)
    n.position[body[i]] = i;
  for (const OpSchedule &o : s) {
    n.stage.push_back(o.stage - minStage);
    n.group.push_back(o.group);
    n.wait.push_back(o.wait);
  }
  return n;
}

/// The first difference between the schedule a trace was measured with and
/// the current one, in body order; "" when they are the same schedule.
std::string compareSchedules(const LoopGraph &graph, const Schedule &measured,
                             const Schedule &current) {
  for (const ScheduleEntry &e : measured.entries())
    if (graph.findUnit(e.name) < 0)
      return "its schedule names \"" + e.name + "\", which this loop does not have";
  Normalized a = normalize(graph, measured), b = normalize(graph, current);
  std::vector<unsigned> order(graph.units.size());
  for (unsigned u = 0; u < order.size(); ++u)
    order[u] = u;
  std::sort(order.begin(), order.end(),
            [&](unsigned x, unsigned y) { return b.position[x] < b.position[y]; });
  for (unsigned u : order) {
    const std::string &name = graph.units[u].name;
    auto differs = [&](const char *what, int64_t there, int64_t here) {
      return "it was measured with another schedule: " + name + " " + what + " " +
             std::to_string(there) + " there, " + std::to_string(here) + " here" + kLoadFirst;
    };
    if (a.stage[u] != b.stage[u])
      return differs("in stage", a.stage[u], b.stage[u]);
    if (a.group[u] != b.group[u])
      return differs("in group", a.group[u], b.group[u]);
    if (a.position[u] != b.position[u])
      return differs("at body position", a.position[u], b.position[u]);
    if (a.wait[u] != b.wait[u])
      return differs("with wait", a.wait[u], b.wait[u]);
  }
  Consumers ca = effectiveConsumers(graph, measured), cb = effectiveConsumers(graph, current);
  if (ca != cb)
    return std::string("it was measured with ") + consumersName(ca) + " consumers, this schedule has " +
           consumersName(cb) + kLoadFirst;
  return "";
}

/// A group that only loads is a producer (docs/schedule-format.md).
bool isProducerGroup(const LoopGraph &graph, const Schedule &schedule, int64_t group) {
  bool any = false;
  for (unsigned u = 0; u < graph.units.size(); ++u)
    if (effectiveSchedule(graph, schedule, u).group == group) {
      if (graph.units[u].kind != UnitKind::Load)
        return false;
      any = true;
    }
  return any;
}

} // namespace

std::string stagecraft::app::checkTraceMatches(const MeasuredTraceFile &file,
                                               const std::string &kernel,
                                               const LoopGraph &graph,
                                               const Schedule &schedule) {
  if (!file.kernel.empty() && file.kernel != kernel)
    return "it was measured for kernel \"" + file.kernel + "\", and the open kernel is \"" +
           kernel + "\"";
  if (file.trace.ctas.empty())
    return "it has no sampled CTA";
  // Every CTA of a trace has the same units.
  // Its epilogue (the code after the loop) is no unit of the loop.
  const timeline::Timeline &shape = file.trace.ctas.front().timeline;
  auto epilogue = [&](const timeline::TimelineUnit &u) {
    return u.kind == timeline::ZoneKind::Epilogue;
  };
  for (const timeline::TimelineUnit &u : shape.units)
    if (!epilogue(u) && graph.findUnit(u.name) < 0)
      return "its unit \"" + u.name + "\" is not in this kernel's loop (" + unitList(graph) + ")";
  const std::vector<int64_t> &groups = file.trace.unitGroups;
  if (!groups.empty()) // the trace lists every unit of its loop
    for (const Unit &u : graph.units)
      if (shape.findUnit(u.name) < 0)
        return "it has no unit \"" + u.name + "\": its loop is not this one (its units: " + [&] {
          std::string s;
          for (const timeline::TimelineUnit &x : shape.units)
            s += (s.empty() ? "" : ", ") + x.name;
          return s;
        }() + ")";

  if (!file.trace.scheduleJson.empty()) {
    llvm::Expected<Schedule> measured = Schedule::fromJson(file.trace.scheduleJson, "its schedule");
    if (!measured)
      return llvm::toString(measured.takeError());
    return compareSchedules(graph, *measured, schedule);
  }
  if (!groups.empty()) {
    for (size_t i = 0; i < shape.units.size() && i < groups.size(); ++i) {
      if (epilogue(shape.units[i]))
        continue;
      int u = graph.findUnit(shape.units[i].name);
      int64_t here = effectiveSchedule(graph, schedule, u).group;
      if (groups[i] != here)
        return "it was measured with another schedule: " + shape.units[i].name + " in group " +
               std::to_string(groups[i]) + " there, " + std::to_string(here) + " here" + kLoadFirst;
    }
    return "";
  }
  // An older trace: only its warp groups' names say how the work was split.
  std::map<int, std::set<timeline::RowKind>> rolesOf; // unit -> the rows it was recorded on
  for (const MeasuredCta &c : file.trace.ctas)
    for (const timeline::Zone &z : c.timeline.zones)
      if (z.row < c.timeline.rows.size() && z.unit < c.timeline.units.size() &&
          !epilogue(c.timeline.units[z.unit])) {
        // A thread no metadata names: which warp group it was cannot be told
        // (it was taken for a consumer and "moved" the unit: the ninth
        // sweep's M15).
        if (!c.timeline.rows[z.row].kindKnown)
          return "its events on " + c.timeline.title + ", " + c.timeline.rows[z.row].name +
                 " have no thread_name metadata: which warp group ran " +
                 c.timeline.units[z.unit].name + " cannot be told";
        rolesOf[graph.findUnit(c.timeline.units[z.unit].name)].insert(c.timeline.rows[z.row].kind);
      }
  for (const auto &[u, roles] : rolesOf) {
    const std::string &name = graph.units[u].name;
    bool producerHere = isProducerGroup(graph, schedule, effectiveSchedule(graph, schedule, u).group);
    if (roles.count(timeline::RowKind::Producer) && !producerHere)
      return "it was measured with another schedule: " + name +
             " ran on a producer warp group there, and on a consumer here" + kLoadFirst;
    if (roles.count(timeline::RowKind::Consumer) && producerHere)
      return "it was measured with another schedule: " + name +
             " ran on a consumer warp group there, and on the producer here" + kLoadFirst;
  }
  return "";
}
