//===- WarpGroupFrame.h - the kernel around the loop ---------------*- C++ -*-===//
//
// What every lowered tile kernel has around its pipelined loop: the llvm.func
// (tensor descriptors as by-value grid-constant tensor maps, `byval [128 x
// i8]` align 64; sizes as i32; launch bounds for setmaxnreg), the shared
// memory map (barriers, resident tiles, rings, staging tiles), barrier
// initialisation and the resident loads, the roles of the warp groups (a TMA
// producer with a lowered register budget, consumers with a raised one), the
// producer's loop, and the ring protocol both sides follow: full and empty
// mbarriers with phase parity.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_WARPGROUPFRAME_H
#define STAGECRAFT_PASSES_LOWERING_WARPGROUPFRAME_H

#include "passes/Lowering/HopperOps.h"
#include "passes/Lowering/Placement.h"
#include "passes/Lowering/ScalarLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

namespace stagecraft::lowering {

class TimelineProbes;

/// Lays out shared memory: barriers in the first 1 KiB, resident tiles,
/// rings (1 KiB aligned for the 128-byte swizzle), and the stores' staging
/// tiles, which reuse everything the epilogue no longer reads.
mlir::LogicalResult layoutSharedMemory(KernelPlan &plan);

class WarpGroupFrame {
public:
  /// Creates the llvm.func next to the kernel and leaves the builder at the
  /// start of its entry block.
  WarpGroupFrame(mlir::OpBuilder &b, const KernelPlan &plan);

  const KernelPlan &plan;
  mlir::LLVM::LLVMFuncOp fn;
  /// Kernel arguments and the scalars lowered at the top level.
  mlir::IRMapping base;
  ScalarSources sources;

  mlir::Value arg(unsigned i) { return fn.getArgument(i); }
  /// A scalar of the kernel (index math, f32 scalars) lowered here, with
  /// the loop's induction value at source iteration `src` when given.
  mlir::Value scalar(hopper::Emitter &e, mlir::Value v, mlir::Value src = {});

  /// The pipelined loop's bounds on i32 (trip count 0 for an empty range),
  /// for the tile being emitted.
  struct TripCount {
    mlir::Value lb, step, count;
  };
  TripCount trip;
  /// Computes `trip` where the builder is (in the scope of the current tile).
  void computeTrip(hopper::Emitter &e);

  /// A persistent kernel's tile loop, lowered where the builder is: runs
  /// `body` once per tile with the tile's induction value mapped, a running
  /// count of the pipelined loop's iterations of earlier tiles (`base`: ring
  /// slots and phases continue from tile to tile) and the tile count. A
  /// kernel without a tile loop runs `body` once with both 0.
  /// With `team` (a consumer's, ping-pong: KernelPlan::teams > 1), `body`
  /// runs for that team's tiles only.
  void forEachTile(hopper::Emitter &e,
                   const std::function<void(mlir::Value base, mlir::Value tile)> &body,
                   mlir::Value team = {});
  /// In forEachTile's body: whether another tile follows this one in the
  /// block's tile loop (i1).
  mlir::Value nextTileExists;

  /// Barrier initialisation, the trip count, and the resident tiles' loads.
  void emitSetup(hopper::Emitter &e);
  /// Splits the warp groups into producer and consumers (setmaxnreg) and
  /// runs `consumer` with the consumer-relative thread index.
  void emitRoles(hopper::Emitter &e,
                 const std::function<void(hopper::Emitter &, mlir::Value)> &consumer);

  // The ring protocol. `g` is the ring's running index: the source
  // iteration plus `base` (or the tile count for a tile ring): it picks
  // the slot (g mod copies) and the phase (g / copies).
  /// Producer: wait for a free slot (from the second round on), expect the
  /// tile's bytes, issue the load in panels at source iteration `src`
  /// (null: a tile ring's load, outside the pipelined loop).
  void produce(hopper::Emitter &e, const Ring &ring, mlir::Value g, mlir::Value src);
  /// Consumer: wait until the slot holds the tile.
  void waitFull(hopper::Emitter &e, const Ring &ring, mlir::Value g);
  /// Consumer: the slot is free again (one arrival per consumer warp),
  /// when `valid`.
  void release(hopper::Emitter &e, const Ring &ring, mlir::Value g, mlir::Value valid,
               mlir::Value ctid);
  /// Shared-memory byte offset (i32) of the slot of `g`.
  mlir::Value slotOffset(hopper::Emitter &e, const Ring &ring, mlir::Value g);
  /// Consumers wait for the resident tiles.
  void waitResidents(hopper::Emitter &e);
  /// The consumers after the loop: `consumersDone` (their barrier), then
  /// thread `ctid` 0 loads the residents only the epilogue reads into the
  /// rings' space and every consumer waits for them. Nothing without such
  /// residents.
  void loadResidentsAfterLoop(hopper::Emitter &e, mlir::Value ctid,
                              const std::function<void()> &consumersDone);
  /// At the kernel's end, every thread: with shared rings, a cluster
  /// barrier (the cluster's CTAs arrive on each other's barriers).
  void emitTeardown(hopper::Emitter &e);
  /// This CTA's rank in its cluster (i32).
  mlir::Value clusterRank(hopper::Emitter &e);
  /// Whether a ring is shared by the CTAs of a cluster (multicast).
  bool sharesRings() const;

  /// Lowering state of the tile being emitted: the kernel's arguments and
  /// the tile loop's induction value (the producer and the consumers each
  /// have theirs).
  mlir::IRMapping scope;

  /// The measured-timeline probes (TimelineProbes.h) of the instrumented
  /// variant; null for the kernel itself.
  TimelineProbes *probes = nullptr;
  /// Emits `body` once where the builder is, or, with probes, twice: with
  /// them in the sampled CTAs and without them (`probes` null while it
  /// runs) in the others, so that only the few recording CTAs pay for the
  /// stamps (their volatile asm keeps ptxas from interleaving across units).
  /// In a persistent kernel, once: forEachTile runs a sampled CTA's first
  /// TimelineProbes::recordedTiles() tiles with the probes, in a tile loop
  /// of their own, and the rest in the plain one.
  void emitInstrumentedOrPlain(hopper::Emitter &e, const std::function<void()> &body);

private:
  void emitProducerLoop(hopper::Emitter &e);
  /// One thread: the residents loaded at the start (the first round, or the
  /// `second`, whose coordinates read the first's tiles), or those loaded
  /// after the loop, by TMA onto their barrier.
  void loadResidents(hopper::Emitter &e, bool afterLoop, bool second);
  /// 2 when some resident loaded at the start reads another's tile for its
  /// coordinates, else 1.
  int residentRounds() const;
  /// Lowers into `scope`, where the builder is, the parts of the ring loads'
  /// coordinates that the pipelined loop does not change (a persistent
  /// kernel's tile decode), so that every iteration's load finds them.
  void lowerLoopInvariantCoords(hopper::Emitter &e);
  /// One scf.for over tiles lb, lb + step, ... < ub, carrying {ring base,
  /// tile count} from `start`; returns them after the loop.
  mlir::ValueRange emitTileLoop(hopper::Emitter &e, mlir::Value lb, mlir::Value ub,
                                mlir::Value step, mlir::ValueRange start,
                                const std::function<void(mlir::Value, mlir::Value)> &body,
                                mlir::Value team);
};

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_WARPGROUPFRAME_H
