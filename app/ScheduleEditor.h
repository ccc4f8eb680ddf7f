//===- ScheduleEditor.h - schedule edits with legality and undo ---*- C++ -*-===//
//
// The board's model: a loop graph (fixed while a file is open), the current
// schedule, and undo/redo stacks of whole schedules (they are a few dozen
// entries; snapshots are simpler and safer than inverse operations).
//
// An undo step may also change the IR itself (the tile order): the history
// records, with each schedule, the revision of the IR it belongs to (a
// number the app maps to its text), so one undo stack covers both.
//
// A move names a board cell and a position in it, the way a user drops a
// card: "put loadK in stage 2, warp group 0, just before loadV". Orders are
// loop-wide (the steady-state body), so a move renumbers every unit's order
// 0..n-1 keeping the relative order of the others; stages are shifted so the
// earliest is 0 (a uniform shift means nothing in steady state), which is how
// "one stage before stage 0" works.
//
// Plain data only: no MLIR, no ImGui. Tests drive it directly.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_SCHEDULEEDITOR_H
#define STAGECRAFT_APP_SCHEDULEEDITOR_H

#include "core/Schedule/Legality.h"

#include <string>
#include <vector>

namespace stagecraft::app {

/// Where a dropped card goes. `stage` may be -1: a new stage before stage 0
/// (every other unit shifts one stage later). `beforeUnit` empty: the end of
/// the cell.
struct MoveTarget {
  int64_t stage = 0;
  int64_t group = 0;
  std::string beforeUnit;
};

struct MoveOutcome {
  bool applied = false;
  bool changed = false;     // false for a drop where the card already was
  std::string explanation;  // why it was refused (explainMove's words)
};

class ScheduleEditor {
public:
  ScheduleEditor() = default;
  ScheduleEditor(LoopGraph graph, Schedule schedule);

  const LoopGraph &graph() const { return graph_; }
  const Schedule &schedule() const { return schedule_; }
  /// The check of the current schedule (recomputed on every change).
  const ScheduleReport &report() const { return report_; }
  /// Effective schedule of a unit by index.
  OpSchedule unitSchedule(unsigned unit) const;

  /// The schedule a move would produce (legal or not), or the current one
  /// when the unit is unknown.
  Schedule scheduleAfterMove(const std::string &unit, const MoveTarget &to) const;
  /// "" when the move is allowed, else why not. A move from an illegal
  /// schedule is allowed when it adds no violation of its own, so a user can
  /// repair a schedule one card at a time.
  std::string explain(const std::string &unit, const MoveTarget &to) const;
  /// Applies the move when allowed (an undo step), refuses it otherwise.
  MoveOutcome move(const std::string &unit, const MoveTarget &to);
  /// Sets the MMA wait depth of a dot unit (an undo step when it changes).
  MoveOutcome setWait(const std::string &unit, int64_t wait);
  /// The consumer arrangement (cooperative or ping-pong): an undo step when
  /// it changes; refused, with the reason, when it adds a violation.
  MoveOutcome setConsumers(Consumers consumers);
  /// "" when setConsumers(consumers) would be allowed, else why not: every
  /// violation it would add (the ping-pong rule, shared memory, a register
  /// budget), in the check's order.
  std::string explainConsumers(Consumers consumers) const;
  Consumers consumers() const { return report_.consumers; }
  /// CTAs per thread-block cluster (1, 2 or 4): an undo step when it
  /// changes; refused, with the reason, when it adds a violation (rule
  /// cluster). report().sharedLoads: the loads the cluster then shares.
  MoveOutcome setCluster(int64_t cluster);
  /// "" when setCluster(cluster) would be allowed, else why not.
  std::string explainCluster(int64_t cluster) const;
  int64_t cluster() const { return report_.cluster; }

  /// The register budget chosen for schedule group `group` (setmaxnreg), 0
  /// when it takes the default share; report().registers has the budgets in
  /// effect.
  int64_t registerBudget(int64_t group) const;
  /// Chooses the budget of `group` (0: back to the default share): an undo
  /// step when it changes. Applied even when it makes the schedule illegal
  /// (the violations then name the group, as the board shows), with the
  /// violations it adds in `explanation`; refused only outside 0..256.
  MoveOutcome setRegisters(int64_t group, int64_t budget);
  /// "" when the schedule with that budget has no violation about `group`
  /// and no new one, else those violations (the setmaxnreg rules, the
  /// block's registers, the group's register pressure), in the check's
  /// order.
  std::string explainRegisters(int64_t group, int64_t budget) const;

  /// Replaces the whole schedule (load from file, restore a run): an undo
  /// step. Units the graph lacks are an error, returned in words.
  std::string replace(const Schedule &schedule);

  /// The revision of the IR the current state belongs to (0 at the start).
  uint64_t irRevision() const { return irRevision_; }
  /// A change of the IR to revision `rev`, the schedule kept: an undo step.
  void commitIrRevision(uint64_t rev);
  /// The loop graph of the IR at the current revision (its units are the
  /// same as before, their locations may differ). The schedule and the
  /// history stay. Returns false, changing nothing, when the units differ.
  bool setGraph(LoopGraph graph);

  bool canUndo() const { return !undo_.empty(); }
  bool canRedo() const { return !redo_.empty(); }
  bool undo();
  bool redo();
  size_t undoDepth() const { return undo_.size(); }

  /// Cells of the board: units of (stage, group) in body order.
  std::vector<unsigned> cell(int64_t stage, int64_t group) const;
  int64_t numStages() const;  // max stage + 1
  int64_t numGroups() const;  // max group + 1, and at least the IR's groups

private:
  /// Every violation `next` has that the current schedule does not, in the
  /// check's order ("" when none).
  std::string newViolations(const Schedule &next) const;
  /// `next` (the schedule with one kernel-wide choice changed) as an undo
  /// step when `changes`; refused with newViolations(next) when it has any.
  MoveOutcome setKernelWide(const Schedule &next, bool changes);
  struct State {
    Schedule schedule;
    uint64_t irRevision = 0;
  };
  void commit(Schedule next);
  Schedule scheduleWithBudget(int64_t group, int64_t budget) const;
  void recheck();

  LoopGraph graph_;
  Schedule schedule_;
  uint64_t irRevision_ = 0;
  ScheduleReport report_;
  std::vector<State> undo_, redo_;
};

/// `schedule` with every unit of `graph` present (effective schedules),
/// orders renumbered 0..n-1 by body order and stages shifted to start at 0.
Schedule normalizeSchedule(const LoopGraph &graph, const Schedule &schedule);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_SCHEDULEEDITOR_H
