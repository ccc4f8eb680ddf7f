//===- ScheduleEditor.cpp - schedule edits with legality and undo ---------===//
#include "app/ScheduleEditor.h"

#include <algorithm>
#include <tuple>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

/// Units in body order: by order, then program order (as Legality does).
std::vector<unsigned> bodyOrder(const LoopGraph &g, const Schedule &s) {
  std::vector<unsigned> units(g.units.size());
  for (unsigned i = 0; i < units.size(); ++i)
    units[i] = i;
  std::stable_sort(units.begin(), units.end(), [&](unsigned a, unsigned b) {
    return effectiveSchedule(g, s, a).order < effectiveSchedule(g, s, b).order;
  });
  return units;
}

/// What makes a violation the same one after an edit: its rule, the units
/// and (a register budget's) the groups it names, not its numbers.
using ViolationKey = std::tuple<Rule, std::string, std::string, std::vector<int64_t>>;
ViolationKey keyOf(const Violation &v) { return {v.rule, v.def, v.use, v.groups}; }
std::vector<ViolationKey> keys(const ScheduleReport &r) {
  std::vector<ViolationKey> out;
  for (const Violation &v : r.violations)
    out.push_back(keyOf(v));
  std::sort(out.begin(), out.end());
  return out;
}

/// A move expressed so that explainMove can judge it: `base` is the current
/// schedule with the orders of the body after the move (0..n-1, the moved
/// unit already at its new position) and, for a drop before stage 0, every
/// stage one later; `to` is the moved unit's new stage and group. Neither
/// renumbering nor a uniform shift alters legality, and the orders in
/// explanations ("order 4 vs 5") are then those the board shows.
struct Placement {
  Schedule base;
  OpSchedule to;
};

Placement place(const LoopGraph &g, const Schedule &current, unsigned moved,
                const MoveTarget &target) {
  std::vector<unsigned> order = bodyOrder(g, current);
  size_t originalPos =
      std::find(order.begin(), order.end(), moved) - order.begin();
  std::vector<unsigned> others;
  for (unsigned u : order)
    if (u != moved)
      others.push_back(u);

  int64_t shift = target.stage < 0 ? 1 : 0;
  int64_t toStage = target.stage < 0 ? 0 : target.stage;

  // Where the moved unit lands among the others.
  size_t insertPos = originalPos;
  int before = target.beforeUnit.empty() ? -1 : g.findUnit(target.beforeUnit);
  if (before >= 0 && static_cast<unsigned>(before) != moved) {
    insertPos = std::find(others.begin(), others.end(),
                          static_cast<unsigned>(before)) -
                others.begin();
  } else {
    // The end of the cell: just after its last unit; in an empty cell the
    // unit keeps its place in the body.
    for (size_t i = 0; i < others.size(); ++i) {
      OpSchedule s = effectiveSchedule(g, current, others[i]);
      if (s.stage + shift == toStage && s.group == target.group)
        insertPos = i + 1;
    }
  }
  std::vector<unsigned> after = others;
  after.insert(after.begin() + insertPos, moved);

  Placement p;
  p.base.kernel = current.kernel;
  p.base.consumers = current.consumers;
  p.base.registers = current.registers;
  p.base.cluster = current.cluster;
  for (size_t i = 0; i < after.size(); ++i) {
    OpSchedule s = effectiveSchedule(g, current, after[i]);
    s.stage += shift;
    s.order = static_cast<int64_t>(i);
    p.base.set(g.units[after[i]].name, s);
  }
  p.to = *p.base.find(g.units[moved].name);
  p.to.stage = toStage;
  p.to.group = target.group;
  return p;
}

} // namespace

Schedule stagecraft::app::normalizeSchedule(const LoopGraph &g,
                                            const Schedule &s) {
  Schedule out;
  out.kernel = s.kernel;
  // The kernel-wide choices stay as they are (unset: the IR's).
  out.consumers = s.consumers;
  out.registers = s.registers;
  out.cluster = s.cluster;
  if (g.units.empty())
    return out;
  std::vector<unsigned> order = bodyOrder(g, s);
  int64_t minStage = effectiveSchedule(g, s, 0).stage;
  for (unsigned u = 0; u < g.units.size(); ++u)
    minStage = std::min(minStage, effectiveSchedule(g, s, u).stage);
  for (size_t i = 0; i < order.size(); ++i) {
    OpSchedule e = effectiveSchedule(g, s, order[i]);
    e.stage -= minStage;
    e.order = static_cast<int64_t>(i);
    out.set(g.units[order[i]].name, e);
  }
  return out;
}

ScheduleEditor::ScheduleEditor(LoopGraph graph, Schedule schedule)
    : graph_(std::move(graph)) {
  schedule_ = normalizeSchedule(graph_, schedule);
  recheck();
}

void ScheduleEditor::recheck() { report_ = checkSchedule(graph_, schedule_); }

OpSchedule ScheduleEditor::unitSchedule(unsigned unit) const {
  return effectiveSchedule(graph_, schedule_, unit);
}

Schedule ScheduleEditor::scheduleAfterMove(const std::string &unit,
                                           const MoveTarget &to) const {
  int u = graph_.findUnit(unit);
  if (u < 0)
    return schedule_;
  Placement p = place(graph_, schedule_, u, to);
  p.base.set(unit, p.to);
  return normalizeSchedule(graph_, p.base);
}

std::string ScheduleEditor::explain(const std::string &unit,
                                    const MoveTarget &to) const {
  int u = graph_.findUnit(unit);
  if (u < 0)
    return "there is no op named \"" + unit + "\" in this loop";
  if (to.group < 0)
    return unit + " cannot move to warp group " + std::to_string(to.group) +
           ": warp groups are numbered from 0";
  Placement p = place(graph_, schedule_, u, to);
  Schedule next = p.base;
  next.set(unit, p.to);
  ScheduleReport after = checkSchedule(graph_, next);
  if (after.legal())
    return "";
  if (!report_.legal()) {
    // Repairing an illegal schedule: allowed unless the move adds a problem.
    std::vector<ViolationKey> was = keys(report_), now = keys(after);
    if (std::includes(was.begin(), was.end(), now.begin(), now.end()))
      return "";
  }
  std::string why = explainMove(graph_, p.base, unit, p.to);
  if (why.empty()) // cannot happen (after is illegal), but never say nothing
    why = unit + " cannot move there: " + after.violations.front().message;
  return why;
}

void ScheduleEditor::commit(Schedule next) {
  undo_.push_back({schedule_, irRevision_});
  redo_.clear();
  schedule_ = std::move(next);
  recheck();
}

void ScheduleEditor::commitIrRevision(uint64_t rev) {
  undo_.push_back({schedule_, irRevision_});
  redo_.clear();
  irRevision_ = rev;
}

bool ScheduleEditor::setGraph(LoopGraph graph) {
  if (graph.units.size() != graph_.units.size())
    return false;
  for (size_t u = 0; u < graph.units.size(); ++u)
    if (graph.units[u].name != graph_.units[u].name)
      return false;
  graph_ = std::move(graph);
  recheck();
  return true;
}

MoveOutcome ScheduleEditor::move(const std::string &unit,
                                 const MoveTarget &to) {
  MoveOutcome out;
  out.explanation = explain(unit, to);
  if (!out.explanation.empty())
    return out;
  Schedule next = scheduleAfterMove(unit, to);
  out.applied = true;
  out.changed = next != schedule_;
  if (out.changed)
    commit(std::move(next));
  return out;
}

MoveOutcome ScheduleEditor::setWait(const std::string &unit, int64_t wait) {
  MoveOutcome out;
  int u = graph_.findUnit(unit);
  if (u < 0) {
    out.explanation = "there is no op named \"" + unit + "\" in this loop";
    return out;
  }
  if (graph_.units[u].kind != UnitKind::Dot) {
    out.explanation = unit + " is not a dot: only MMAs have a wait depth";
    return out;
  }
  if (wait < 0) {
    out.explanation = "a wait depth is 0 or more";
    return out;
  }
  Schedule next = schedule_;
  OpSchedule s = unitSchedule(u);
  s.wait = wait;
  next.set(unit, s);
  out.applied = true;
  out.changed = next != schedule_;
  if (out.changed)
    commit(std::move(next));
  return out;
}

std::string ScheduleEditor::explainConsumers(Consumers consumers) const {
  Schedule next = schedule_;
  next.consumers = consumers;
  return newViolations(next);
}

std::string ScheduleEditor::newViolations(const Schedule &next) const {
  ScheduleReport after = checkSchedule(graph_, next);
  std::string why; // every violation it would add, first to last
  for (const Violation &v : after.violations) {
    bool isNew = std::none_of(report_.violations.begin(), report_.violations.end(),
                              [&](const Violation &b) {
                                return b.rule == v.rule && b.def == v.def && b.use == v.use;
                              });
    if (isNew)
      why += (why.empty() ? "" : " Also: ") + v.message;
  }
  return why;
}

std::string ScheduleEditor::explainCluster(int64_t cluster) const {
  Schedule next = schedule_;
  next.cluster = cluster;
  return newViolations(next);
}

MoveOutcome ScheduleEditor::setKernelWide(const Schedule &next, bool changes) {
  MoveOutcome out;
  out.explanation = newViolations(next);
  if (!out.explanation.empty())
    return out;
  out.applied = true;
  out.changed = changes;
  if (out.changed)
    commit(next);
  return out;
}

MoveOutcome ScheduleEditor::setCluster(int64_t cluster) {
  Schedule next = schedule_;
  next.cluster = cluster;
  return setKernelWide(next, cluster != report_.cluster);
}

MoveOutcome ScheduleEditor::setConsumers(Consumers consumers) {
  Schedule next = schedule_;
  next.consumers = consumers;
  // Back to a kernel's own (unset) cooperative: unset again, so the
  // schedule's JSON is the one it had (runs and lessons are matched by it;
  // a chosen "cooperative" is written since it must round-trip over a
  // kernel's ping-pong).
  if (consumers == Consumers::Cooperative && !graph_.initialSchedule.consumers)
    next.consumers.reset();
  return setKernelWide(next, consumers != report_.consumers);
}

int64_t ScheduleEditor::registerBudget(int64_t group) const {
  std::vector<int64_t> budgets = effectiveRegisters(graph_, schedule_);
  return group >= 0 && group < static_cast<int64_t>(budgets.size()) ? budgets[group] : 0;
}

Schedule ScheduleEditor::scheduleWithBudget(int64_t group, int64_t budget) const {
  Schedule next = schedule_;
  std::vector<int64_t> budgets = effectiveRegisters(graph_, schedule_);
  if (static_cast<int64_t>(budgets.size()) <= group)
    budgets.resize(group + 1, 0);
  budgets[group] = budget;
  budgets = trimRegisterBudgets(std::move(budgets));
  // Back to the IR's own budgets: unset, so the schedule's JSON is the one
  // the file had (runs are matched by it).
  std::vector<int64_t> own =
      trimRegisterBudgets(graph_.initialSchedule.registers.value_or(std::vector<int64_t>{}));
  if (budgets == own && !graph_.initialSchedule.registers)
    next.registers.reset();
  else
    next.registers = std::move(budgets);
  return next;
}

std::string ScheduleEditor::explainRegisters(int64_t group, int64_t budget) const {
  ScheduleReport after = checkSchedule(graph_, scheduleWithBudget(group, budget));
  std::vector<ViolationKey> was = keys(report_);
  std::string why; // first to last
  for (const Violation &v : after.violations) {
    bool aboutIt = std::find(v.groups.begin(), v.groups.end(), group) != v.groups.end();
    if (aboutIt || !std::binary_search(was.begin(), was.end(), keyOf(v)))
      why += (why.empty() ? "" : " Also: ") + v.message;
  }
  return why;
}

MoveOutcome ScheduleEditor::setRegisters(int64_t group, int64_t budget) {
  MoveOutcome out;
  if (group < 0 || group > kMaxGroup) {
    out.explanation = "warp groups are numbered 0 to " + std::to_string(kMaxGroup);
    return out;
  }
  if (budget < 0 || budget > kMaxRegisterBudget) {
    out.explanation = "a register budget is 0 (the default share) to " +
                      std::to_string(kMaxRegisterBudget);
    return out;
  }
  Schedule next = scheduleWithBudget(group, budget);
  out.applied = true;
  out.changed = effectiveRegisters(graph_, next) != effectiveRegisters(graph_, schedule_);
  // Applied even when illegal (the board shows why, on the group's row):
  // a budget is tuned by trying numbers, and any number here is one a
  // schedule file can hold.
  out.explanation = explainRegisters(group, budget);
  if (out.changed)
    commit(std::move(next));
  return out;
}

std::string ScheduleEditor::replace(const Schedule &schedule) {
  for (const ScheduleEntry &e : schedule.entries())
    if (graph_.findUnit(e.name) < 0)
      return "the schedule names \"" + e.name +
             "\", which this loop does not have";
  Schedule next = normalizeSchedule(graph_, schedule);
  next.kernel = schedule_.kernel;
  if (next != schedule_)
    commit(std::move(next));
  return "";
}

bool ScheduleEditor::undo() {
  if (undo_.empty())
    return false;
  redo_.push_back({std::move(schedule_), irRevision_});
  schedule_ = std::move(undo_.back().schedule);
  irRevision_ = undo_.back().irRevision;
  undo_.pop_back();
  recheck();
  return true;
}

bool ScheduleEditor::redo() {
  if (redo_.empty())
    return false;
  undo_.push_back({std::move(schedule_), irRevision_});
  schedule_ = std::move(redo_.back().schedule);
  irRevision_ = redo_.back().irRevision;
  redo_.pop_back();
  recheck();
  return true;
}

std::vector<unsigned> ScheduleEditor::cell(int64_t stage, int64_t group) const {
  std::vector<unsigned> out;
  for (unsigned u : bodyOrder(graph_, schedule_)) {
    OpSchedule s = unitSchedule(u);
    if (s.stage == stage && s.group == group)
      out.push_back(u);
  }
  return out;
}

int64_t ScheduleEditor::numStages() const {
  int64_t n = 1;
  for (unsigned u = 0; u < graph_.units.size(); ++u)
    n = std::max(n, unitSchedule(u).stage + 1);
  return n;
}

int64_t ScheduleEditor::numGroups() const {
  int64_t n = std::max<int64_t>(1, graph_.warpGroups.size());
  for (unsigned u = 0; u < graph_.units.size(); ++u)
    n = std::max(n, unitSchedule(u).group + 1);
  return n;
}
