//===- Schedule.h - the schedule of a pipelined loop --------------*- C++ -*-===//
//
// A schedule maps each unit of a loop body (ops sharing a name: a card on the
// board) to a stage, an order (its position in the steady-state body,
// loop-wide) and a warp group. It lives in the IR as `tile.sched` attributes
// and apart from it as JSON keyed by unit name (docs/schedule-format.md).
// This header knows nothing of MLIR: the app edits schedules without IR.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SCHEDULE_SCHEDULE_H
#define STAGECRAFT_CORE_SCHEDULE_SCHEDULE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft {

struct OpSchedule {
  int64_t stage = 0;
  int64_t order = 0;
  int64_t group = 0;
  /// Dots only: wgmma groups allowed in flight after this dot (MMA pipelining).
  int64_t wait = 0;

  bool operator==(const OpSchedule &o) const {
    return stage == o.stage && order == o.order && group == o.group &&
           wait == o.wait;
  }
  bool operator!=(const OpSchedule &o) const { return !(*this == o); }
};

/// The range of each field, as the JSON form and `#tile.sched` enforce them.
/// Legality reports a schedule with a field outside (rule out-of-range)
/// before any rule that computes with the values.
inline constexpr int64_t kMaxStage = 64;
inline constexpr int64_t kMaxOrder = 1 << 20;
inline constexpr int64_t kMaxGroup = 7;
inline constexpr int64_t kMaxWait = 7;
/// A register budget (`registers`, `tile.registers`) as the JSON form and
/// the IR hold it: 0 (the default share) up to setmaxnreg's largest count.
/// Legality checks the rest of setmaxnreg's rules (24.., a multiple of 8).
inline constexpr int64_t kMaxRegisterBudget = 256;

/// "" when every field of `s` is in range, else which is not, e.g.
/// "stage 70, outside 0..64".
std::string describeOutOfRange(const OpSchedule &s);

struct ScheduleEntry {
  std::string name;
  OpSchedule sched;
  bool operator==(const ScheduleEntry &o) const {
    return name == o.name && sched == o.sched;
  }
};

/// How the consumer warp groups share the work (issue: persistent and
/// ping-pong kernels). Cooperative: they split every tile by rows. PingPong:
/// each owns every other tile of a persistent kernel's tile loop, and they
/// take turns at the tensor cores (named barriers), so one group's epilogue
/// overlaps the other's main loop (CUTLASS's ping-pong kernels). Staggered:
/// they split every tile as cooperative ones do, and take turns issuing the
/// loop's dots every iteration, so one group's softmax overlaps the other's
/// tensor-core work (FlashAttention-3's inter-warpgroup ping-pong).
enum class Consumers { Cooperative, PingPong, Staggered };
const char *consumersName(Consumers c);
std::optional<Consumers> parseConsumers(llvm::StringRef name);

class Schedule {
public:
  /// The kernel this schedule belongs to (informational; checked on import).
  std::string kernel;
  /// The consumer arrangement (a kernel-wide choice, not a unit's). Unset:
  /// applying the schedule leaves the kernel's (its `tile.consumers`, by
  /// default cooperative), as units it does not name keep theirs.
  std::optional<Consumers> consumers;
  /// Registers per thread chosen for each schedule group (setmaxnreg), by
  /// group: registers[g] for group g, 0 = the default share; groups past the
  /// end take the default too. Unset: applying the schedule leaves the
  /// kernel's (`tile.registers`); set and all 0 (or empty): the defaults.
  std::optional<std::vector<int64_t>> registers;
  /// CTAs per thread-block cluster (`tile.cluster`: 1, 2 or 4): the loads
  /// whose box is the same in every CTA of a cluster are loaded once for it
  /// and multicast (legality: cluster). Unset: the kernel's.
  std::optional<int64_t> cluster;

  /// The budget chosen for `group`, 0 when it takes the default share.
  int64_t registerBudget(int64_t group) const;

  const std::vector<ScheduleEntry> &entries() const { return entries_; }
  const OpSchedule *find(llvm::StringRef name) const;
  OpSchedule *find(llvm::StringRef name);
  /// Sets (or adds) the schedule of `name`.
  void set(llvm::StringRef name, const OpSchedule &sched);
  /// `given` applied over this schedule, as applying it to the IR does: its
  /// entries, and each kernel-wide choice it makes (consumers, registers,
  /// cluster); what it leaves unset stays.
  void overlay(const Schedule &given);
  size_t size() const { return entries_.size(); }

  /// Equal when both map the same names to the same schedules (entry order
  /// is not part of a schedule's meaning).
  bool operator==(const Schedule &o) const;
  bool operator!=(const Schedule &o) const { return !(*this == o); }

  /// Canonical JSON: entries sorted by (order, name), one per line, so that
  /// export(import(export(s))) == export(s) byte for byte. `registers` is
  /// written when set, without trailing 0s.
  std::string toJson() const;
  /// Parses JSON; errors name `sourceName`, the entry and the field.
  static llvm::Expected<Schedule> fromJson(llvm::StringRef text,
                                           llvm::StringRef sourceName);

private:
  std::vector<ScheduleEntry> entries_;
};

/// `budgets` without trailing 0s (defaults), the canonical form of a
/// `registers` list.
std::vector<int64_t> trimRegisterBudgets(std::vector<int64_t> budgets);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SCHEDULE_SCHEDULE_H
