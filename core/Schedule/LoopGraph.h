//===- LoopGraph.h - the dependency graph of a pipelined loop -----*- C++ -*-===//
//
// Plain data, extracted once from the IR (ScheduleIR.h: buildLoopGraph): the units of a
// loop body (ops sharing a schedule name), the edges between them
// (same-iteration and loop-carried), and the sizes legality and resource
// checks need. Checking a schedule against it touches no IR, so the app can
// re-check on every drag.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SCHEDULE_LOOPGRAPH_H
#define STAGECRAFT_CORE_SCHEDULE_LOOPGRAPH_H

#include "core/Schedule/Schedule.h"

#include <string>
#include <vector>

namespace stagecraft {

enum class UnitKind { Load, Dot, Compute };
const char *unitKindName(UnitKind kind);

/// One op of the loop body, in program order.
struct LoopOp {
  unsigned unit = 0;
  std::string opName;   // e.g. "tile.dot"
  std::string location; // "file:line:col", or empty
};

/// A use of a value by a body op, in the same iteration or (through an
/// iter_arg) in the next one.
struct ValueUse {
  unsigned op = 0;
  bool loopCarried = false;
};

/// A tensor value defined by a body op and held in registers (load results
/// live in shared memory and are not listed).
struct LoopValue {
  unsigned defOp = 0;
  /// Registers shared out over the group's threads (a tile: each thread
  /// holds its share of the bytes).
  int64_t bytes = 0;
  /// Registers every thread holds whatever the group's size: a vector along
  /// the columns (each thread keeps 2 of every 8 columns, N / 4 values).
  int64_t threadRegs = 0;
  std::vector<ValueUse> uses;
};

/// A register-resident tensor from outside the loop read in the body.
struct InvariantValue {
  unsigned unit = 0; // the unit reading it
  int64_t bytes = 0, threadRegs = 0; // as LoopValue's
};

struct Unit {
  std::string name;
  UnitKind kind = UnitKind::Compute;
  std::vector<unsigned> ops; // indices into LoopGraph::ops, program order
  int64_t bufferBytes = 0;   // loads: bytes of one shared-memory buffer
  int64_t flops = 0;         // dots: per iteration
  /// Shared memory the unit writes for a dot to read, one copy: the bf16 B
  /// operand a tile.upcast (or a tile.dot_scaled, for itself) makes from
  /// FP8, which wgmma reads from shared memory. `localReader` is that dot's
  /// unit (this unit for a tile.dot_scaled).
  int64_t localSmemBytes = 0;
  int localReader = -1;
  std::string location;      // of its first op
  std::string summary;       // e.g. "tile.reduce, arith.maximumf, ..."
  /// Of localSmemBytes, a tile.dot_scaled's own upcast B: sm_90a's wgmma
  /// needs it, sm_100a's block-scaled tcgen05.mma reads the FP8 tiles and
  /// their scales as loaded (TargetLimits::blockScaledMma).
  int64_t scaledDotSmemBytes = 0;
  /// Registers (bytes, shared over the group's threads) the unit holds only
  /// while it runs: a tile.dot_scaled's A, upcast to bf16 in registers for
  /// sm_90a's wgmma (not a value between ops: the register estimate missed
  /// it, ~64 a thread where ptxas spilled: the eighth sweep's m8).
  int64_t transientRegBytes = 0;
  /// Loads, for clusters (legality: cluster): whether the box is the same in
  /// every CTA of a cluster (no coordinate depends on tile.cluster_rank or
  /// tile.program_id 0), its rows (the second-innermost box dimension), and
  /// where another op uses its descriptor (empty: nowhere).
  bool sameInCluster = false;
  int64_t boxRows = 0;
  std::string descriptorAlsoUsedAt;
  /// A dot whose A comes from registers (not a loaded tile): the lowering
  /// retires its wgmma groups within their kernel iteration, so its `wait`
  /// keeps no buffer longer; with `wait` >= 1 it stays in flight under the
  /// register math after it until that iteration's wait for it.
  bool registerA = false;
  /// bufferBytes as the lowering lays the buffers out, each load's on a
  /// 1024-byte boundary (128-byte swizzle atoms; WarpGroupFrame.cpp); 0 in
  /// graphs made by hand (bufferBytes is taken then).
  int64_t alignedBufferBytes = 0;
  /// Of the element reads (tensor.extract) in the body its ops use: not
  /// units, they follow their users; an error at one is this unit's.
  std::vector<std::string> followerLocations;
  /// What of the unit the lowering runs with a barrier over every consumer
  /// warp group ("stores a tile", "reduces over rows (dim = 0)", "upcasts a
  /// dot's B into shared memory"), or "": staggered consumers cannot run it
  /// inside a turn (legality: pingpong).
  std::string consumerBarrier;
};

struct Edge {
  unsigned def = 0, use = 0; // unit indices
  unsigned defOp = 0, useOp = 0;
  bool loopCarried = false;
  bool viaSharedMemory = false; // the value is a TMA-loaded tile
  std::string value;            // a human description, e.g. "its tile"
};

struct LoopGraph {
  std::string kernel;
  std::string loopLocation;
  std::vector<Unit> units;
  std::vector<LoopOp> ops;
  std::vector<LoopValue> values;
  std::vector<Edge> edges;
  /// Register-resident tensors from outside the loop read in the body.
  std::vector<InvariantValue> invariantValues;
  /// Shared memory beside the ring buffers: tiles loaded outside the loop
  /// that the loop (or the code before it) reads (live throughout).
  int64_t fixedSmemBytes = 0;
  /// The stores' staging: two slots of one stored panel (128-byte swizzled
  /// rows, as loads). They reuse the rings, free by then, except in a
  /// persistent kernel, whose producer fills the next tile's rings while the
  /// consumers store.
  int64_t epilogueSmemBytes = 0;
  /// Tiles loaded outside the loop that only the code after it reads
  /// (isEpilogueOnlyLoad): loaded at the start, beside the others, or, where
  /// that would not fit, after the loop beside the staging, where the rings
  /// were (ScheduleReport::epilogueLoadsAfterLoop).
  int64_t epilogueLoadSmemBytes = 0;
  /// Their loads' locations ("file:line:col"), for messages.
  std::vector<std::string> epilogueLoadLocations;
  /// Of fixedSmemBytes, tiles only the epilogue reads that stay through the
  /// loop because the loop stores (its staging is in use after it).
  int64_t keptByLoopStoresSmemBytes = 0;
  /// The code after the loop in registers (GroupRegisters::
  /// epilogueRegsPerThread): the loop's results it reads (the body op making
  /// each, bytes), the peak of the other values it makes a whole tile at a
  /// time (reductions and what reads them, values a 1-d store reads), and
  /// whether its element-local math, which the lowering makes a store chunk
  /// of columns at a time (ConsumerLoop.cpp, findPanelOps), reads a tile
  /// loaded from memory (a chunk of it live beside the accumulators).
  std::vector<std::pair<unsigned, int64_t>> resultsReadAfterLoop;
  int64_t epilogueWholeBytes = 0;
  bool epiloguePanelMath = false;
  /// The pipelined loop sits in a tile loop (a persistent kernel).
  bool persistent = false;
  /// The first reduction over rows (tile.reduce, dim = 0) anywhere in the
  /// kernel ("file:line:col"), empty when none: ping-pong consumers do not
  /// lower one (it ends in shared memory the two teams would share).
  std::string rowReductionLocation;
  /// Clusters: a bound of the pipelined loop or of its tile loop that
  /// differs between the CTAs of a cluster (e.g. "the tile loop's lower
  /// bound"), with its location; empty when none does.
  std::string clusterVaryingBound, clusterVaryingBoundLocation;
  /// Warp groups per schedule group (`tile.warpgroups`); missing groups have 1.
  std::vector<int64_t> warpGroups;
  /// The schedule written in the IR, with defaults for ops that had none.
  Schedule initialSchedule;

  int findUnit(llvm::StringRef name) const;
  /// The name timelines give the code after the loop (its register math and
  /// stores): "epilogue", unless a unit of the loop is named so.
  std::string epilogueUnitName() const;
  int64_t warpGroupsOf(int64_t group) const {
    return group >= 0 && group < static_cast<int64_t>(warpGroups.size())
               ? warpGroups[group]
               : 1;
  }
};

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SCHEDULE_LOOPGRAPH_H
