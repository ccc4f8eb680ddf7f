//===- SimPlan.h - what each unit and warp group does in the model -*- C++ -*-===//
//
// The simulator's view of a schedule (internal to core/Timeline): per unit
// its stage offset within its warp group's loop, its ring, the buffers and
// dot results it waits for and its costs per warp group; per warp group its
// units in body order. Built from the graph, the schedule, its report and
// the unit costs; Simulator.cpp runs it.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_SIMPLAN_H
#define STAGECRAFT_CORE_TIMELINE_SIMPLAN_H

#include "core/Schedule/Legality.h"
#include "core/Timeline/CostModel.h"
#include "core/Timeline/KernelCosts.h"

#include <limits>

namespace stagecraft::timeline {

constexpr int64_t kNoRing = std::numeric_limits<int64_t>::max();

struct UnitPlan {
  UnitKind kind = UnitKind::Compute;
  int64_t group = 0, stage = 0;
  /// stage - the first stage of its warp group's units: in kernel iteration
  /// k the unit runs source iteration k - offset.
  int64_t offset = 0;
  int64_t wait = 0;
  // Loads.
  int64_t copies = 1;
  double bytes = 0;
  /// What its transfer costs on the SM's share of the L2 bandwidth: `bytes`
  /// less the part of the boxes the TPC's other SM loads too
  /// (LoadSharing.h: linkBytes; set once the wave is known, Simulator.cpp).
  double linkBytes = 0;
  int64_t boxes = 1;
  std::vector<unsigned> readers; // units that read its buffer
  // Dots and register math.
  std::vector<unsigned> loadInputs; // loads read in the same iteration
  struct DotDep {
    unsigned dot;
    int back; // 0: the same source iteration, 1: the previous one (carried)
  };
  std::vector<DotDep> dotDeps; // dot results it reads (not as an accumulator)
  bool writesAccumulator = false;
  std::vector<unsigned> accumulatorOf; // the dots whose accumulator it writes
  /// A dot whose result crosses the kernel loop's back edge into anything
  /// but its own accumulator: retired at the end of the iteration.
  bool carriedRetire = false;
  /// A dot reading A from registers: retired by the end of its kernel
  /// iteration (the next one redefines those registers; Expansion.cpp).
  bool registerA = false;
  /// A dot: kernel iterations its group may stay in flight before its rings
  /// need their buffers back (kNoRing: it reads none).
  int64_t ringLag = kNoRing;
  double dotCycles = 0;   // per warp group
  int64_t wgmmaInstr = 0; // per warp group
  double mathCycles = 0;  // per warp group (a dot's unit: before its wgmma)
  double storeBytes = 0;  // per warp group
};

struct WarpGroupPlan {
  int64_t group = 0;
  int indexInGroup = 0, groupSize = 1;
  bool producer = false;    // a warp group of a load-only group
  bool issuesLoads = false; // the first warp group of its group issues its loads
  bool computes = false;
  std::string name;            // "producer", "consumer 0", ...
  std::vector<unsigned> units; // body order
  int64_t span = 0;            // the largest offset of its units
  /// Register copies its loop moves each iteration for values that live
  /// longer than one kernel iteration (the lowering carries them in
  /// iter_args that rotate at the back edge), as CUDA-core time per
  /// iteration.
  double carryCycles = 0;
  /// Staggered consumers (tile.consumers = "staggered"): in every kernel
  /// iteration this warp group waits for its turn before the unit at
  /// `turnBegin` (its first dot, in body order) and hands the turn to the
  /// other warp group of its group after the unit at `turnEnd` (its last
  /// dot), as the lowering's named barriers do (passes/Lowering/
  /// ConsumerLoop.cpp). -1: no turns.
  int turnBegin = -1, turnEnd = -1;
  /// Ping-pong consumers (tile.consumers = "pingpong"): each warp group of
  /// the math group is a team of its own that computes every `teams`-th
  /// tile whole (its dots, math and stores are not split), starting with
  /// tile `indexInGroup`, and runs a tile's loop only in its turn at the
  /// tensor cores, which it hands to the other team after the loop's last
  /// wgmma has retired, before its epilogue (passes/Lowering/
  /// ConsumerLoop.cpp, emitTile). 1: no teams.
  int teams = 1;
};

struct Plan {
  std::vector<UnitPlan> units;
  std::vector<WarpGroupPlan> wgs;
  /// Ping-pong: the consumer teams (WarpGroupPlan::teams); 1 otherwise.
  int teams = 1;
  /// Whether schedule group `group`'s warp groups are ping-pong teams (each
  /// does a unit's work whole, and reads its tiles' buffers alone).
  bool teamGroup(int64_t group) const {
    for (const WarpGroupPlan &w : wgs)
      if (w.group == group && w.teams > 1)
        return true;
    return false;
  }
  int64_t threads = 0;
  double epilogueMathCycles = 0; // per consumer warp group
  /// The whole tile's epilogue math, its sharers together: converted panel
  /// by panel while the panels are staged (SmRun::storePanels).
  double epilogueTileMathCycles = 0;
  double epilogueStoreBytes = 0;
  std::vector<double> epiloguePanelBytes; // at least one panel when anything is stored
  double prologueLoadBytes = 0;
  /// Loaded after the loop, before the epilogue's math (KernelCosts).
  double epilogueLoadBytes = 0;
};

/// Fills `plan`; returns "" or why the costs do not fit the graph.
std::string buildPlan(const LoopGraph &graph, const Schedule &schedule,
                      const ScheduleReport &report, const KernelCosts &costs,
                      const HopperModel &model, Plan &plan);

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_SIMPLAN_H
