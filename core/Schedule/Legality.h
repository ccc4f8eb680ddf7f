//===- Legality.h - is a schedule legal, and what does it imply ---*- C++ -*-===//
//
// The rules (docs/legality.md), for a body op x with stage s(x), order o(x)
// and warp group g(x); in steady state kernel iteration k runs x on source
// iteration k - s(x):
//  - same-iteration edge d -> u: s(u) >= s(d), and if equal o(u) > o(d);
//  - loop-carried edge (d's yield feeds u next iteration):
//    s(u) <= s(d) <= s(u) + 1, and if s(d) = s(u) + 1 then o(d) < o(u);
//  - a value crossing warp groups must be a TMA-loaded tile (shared memory);
//  - shared memory of all buffers within the block limit; registers per
//    thread of each warp group within its budget.
// Every violation explains itself in words a student understands.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SCHEDULE_LEGALITY_H
#define STAGECRAFT_CORE_SCHEDULE_LEGALITY_H

#include "core/Schedule/LoopGraph.h"

namespace stagecraft {

enum class Rule {
  UnknownUnit,
  OutOfRange,
  SameIterationStage,
  SameIterationOrder,
  LoopCarriedDistance,
  LoopCarriedOrder,
  LoopCarriedLate,
  CrossGroupRegister,
  WaitOnNonDot,
  SharedMemory,
  Registers,
  PingPong,
  Cluster,
  Groups,
};
const char *ruleName(Rule rule);

struct Violation {
  Rule rule;
  std::string def, use; // unit names involved (use may be empty)
  std::string location; // "file:line:col" of the op at fault, or empty
  std::string message;
  /// The schedule groups a `registers` violation is about (the board marks
  /// their rows); empty for the other rules.
  std::vector<int64_t> groups = {};
};

struct LoadBuffers {
  std::string name;
  int64_t copies = 1;
  int64_t bytesPerCopy = 0;
  /// Of the copies, those a reading dot's wait keeps (one per wgmma group
  /// in flight), and that dot.
  int64_t waitCopies = 0;
  std::string waitDot;
};

struct GroupRegisters {
  int64_t group = 0;
  int64_t threads = 128;
  int64_t regsPerThread = 0;
  int64_t budget = 255;
  bool producer = false; // only loads: gets a lowered setmaxnreg budget
  /// The budget is the schedule's choice (`registers`), not the default.
  bool chosen = false;
  std::string peakAt;    // unit at which register pressure peaks
  /// After the loop: the loop's results the code there reads, the values it
  /// makes whole, a chunk of a loaded tile its element-local math reads (32
  /// a thread), with the overhead (LoopGraph::resultsReadAfterLoop); 0 for
  /// groups holding none.
  /// Not checked against the budget (what is over it spills after the loop;
  /// the compiler notes ptxas's spills): the timeline's occupancy takes it.
  int64_t epilogueRegsPerThread = 0;
};

struct TargetLimits {
  int64_t smemPerBlock = 227 * 1024; // Hopper, per block, opt-in
  int64_t regsPerSM = 65536;
  int64_t maxRegsPerThread = 255;
  int64_t producerRegs = 24;        // setmaxnreg.dec for a load-only group
  /// setmaxnreg's counts (PTX): multiples of 8 from 24 to 256.
  int64_t minSetMaxNReg = 24, maxSetMaxNReg = 256, regGranularity = 8;
  int64_t regOverhead = 32;         // addresses, indices, loop state
  int64_t barrierAreaBytes = 1024; // every ring's full and empty mbarriers
  /// ptxas compiles a wgmma within the registers a thread launches with
  /// (65536 / block threads; a setmaxnreg.inc later does not count): its f32
  /// accumulators plus about this many for its operands, descriptors and
  /// predicate. Measured: a 64x256 accumulator (128 registers) in a block of
  /// 512 threads (128 at launch) fails with C7602 "Insufficient registers
  /// (128) ... register target of 154". 0: not checked (sm_100a's MMAs
  /// accumulate in tensor memory).
  int64_t wgmmaOperandRegs = 26;
  /// The GPU the limits are of, as messages name it.
  const char *gpu = "Hopper";
  /// tile.dot_scaled runs as one block-scaled MMA (sm_100a's tcgen05): no
  /// upcast B in shared memory (Unit::scaledDotSmemBytes).
  bool blockScaledMma = false;
  /// sm_100a's (compile-only, docs/compiler.md): the same shared memory a
  /// block may have (227 KiB), block-scaled dots as they run there.
  static TargetLimits sm100a() {
    TargetLimits l;
    l.gpu = "sm_100a";
    l.blockScaledMma = true;
    l.wgmmaOperandRegs = 0;
    return l;
  }
};

struct ScheduleReport {
  std::vector<Violation> violations;
  bool legal() const { return violations.empty(); }

  int64_t numStages = 1;
  std::vector<LoadBuffers> buffers;
  int64_t smemBytes = 0;
  int64_t smemLimit = 0;
  /// The tiles only the epilogue reads (LoopGraph::epilogueLoadSmemBytes)
  /// are loaded after the loop, where the rings were: only when kept
  /// through the loop they would not fit (loaded at the start they land
  /// under the loop; after it, the epilogue waits for them).
  bool epilogueLoadsAfterLoop = false;
  std::vector<GroupRegisters> registers;
  bool warpSpecialized = false;
  /// Warp-specialized loops: the registers per thread every warp starts
  /// with, before its setmaxnreg. The lowering launches the block with
  /// maxntid = its threads and minctasm = 1, which allows
  /// min(255, 65536 / threads rounded down to 8); ptxas starts every warp at
  /// the largest setmaxnreg count of the kernel when that is lower (`ptxas
  /// -v`: "Used N registers"). The block owns threads x this many registers:
  /// the pool setmaxnreg trades in. 0 when not warp-specialized.
  int64_t launchRegisters = 0;
  /// The consumer arrangement checked (the schedule's, else the kernel's).
  Consumers consumers = Consumers::Cooperative;
  /// CTAs per cluster (the schedule's, else the kernel's `tile.cluster`), and
  /// the loads the cluster's CTAs share: each loads 1/cluster of the rows
  /// and multicasts them; a buffer is free once every CTA's consumers are
  /// done with it.
  int64_t cluster = 1;
  std::vector<std::string> sharedLoads;
  /// The steady-state body in order, e.g. "MMA0(i+1) Softmax(i) MUL(i)".
  std::string steadyState;
  /// Units in body order (by order, then program order).
  std::vector<unsigned> bodyOrder;

  /// A few lines: stages, buffers, shared memory, registers, body.
  std::string summary() const;
};

/// The schedule of every unit: `schedule`'s entry where it has one, the
/// graph's initial schedule otherwise.
OpSchedule effectiveSchedule(const LoopGraph &graph, const Schedule &schedule,
                             unsigned unit);

/// The consumer arrangement in effect: `schedule`'s when it sets one, the
/// kernel's otherwise.
Consumers effectiveConsumers(const LoopGraph &graph, const Schedule &schedule);

/// CTAs per cluster in effect: `schedule`'s when it sets one, the kernel's
/// (`tile.cluster`, 1 without) otherwise.
int64_t effectiveCluster(const LoopGraph &graph, const Schedule &schedule);

/// The register budgets chosen (by schedule group, 0 = the default share,
/// trailing 0s dropped): `schedule`'s when it sets them, the kernel's
/// (`tile.registers`) otherwise.
std::vector<int64_t> effectiveRegisters(const LoopGraph &graph, const Schedule &schedule);

/// The registers per thread a block of `threads` threads may launch with:
/// min(255, 65536 / threads rounded down to a multiple of 8).
int64_t launchRegisterLimit(int64_t threads, const TargetLimits &limits = {});

ScheduleReport checkSchedule(const LoopGraph &graph, const Schedule &schedule,
                             const TargetLimits &limits = {});

/// Explains why moving `unit` to `to` is illegal ("loadK cannot move to
/// stage 3: ..."), or returns an empty string when the move is legal.
std::string explainMove(const LoopGraph &graph, const Schedule &schedule,
                        llvm::StringRef unit, const OpSchedule &to,
                        const TargetLimits &limits = {});

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SCHEDULE_LEGALITY_H
