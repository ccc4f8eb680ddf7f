//===- TimelineProbes.h - the measured-timeline instrumentation -*- C++ -*-===//
//
// tile-lower-to-nvvm{timeline=true} emits the kernel's instrumented variant
// (docs/bundle-format.md, "The instrumented kernel"): the same code plus one
// trailing `.u64` parameter, the event buffer, and a %globaltimer stamp at
// the start of every unit a warp group runs, taken by one thread per warp
// group (thread 0 of the producer warp group, thread 0 of each consumer warp
// group) of a few sampled CTAs. Each record is {stamp, unit, source
// iteration}, one 16-byte store made before the unit's code: a unit lasts
// until the thread's next record, the next unit's start or an end marker
// (after the producer's tile loop, before a staggered consumer's wait for
// its turn). A consumer records its tile's
// epilogue as a unit too: the code after the loop, from the loop's end to
// an end marker after the stores (the id after the loop's units, "kind":
// "epilogue" in the manifest; the predicted timeline has it too). The thread
// counts its records in a local counter (a register once LLVM promotes it),
// drops those past the capacity but counts them, and writes its region's
// header {count, %smid} when its role's code ends.
//
// Why one record at the start and nothing after the unit: work after a
// unit's wgmma issue that uses values from before it (an end stamp, the
// unit's tag) slowed a recording attention CTA by 9-15% on the H100, whether
// its stores went to global or shared memory or were never performed; the
// start record alone costs nothing measurable in d64 and about 5% in d128
// (bench/results/probe-store-kinds-h100-2026-11-26).
//
// Sampled CTAs: S' = min(ctas, CTAs of the launch) of them, stride
// = CTAs / S', CTA s * stride in slot s (linear ids x + gx * (y + gy * z));
// none when the buffer is null (the runner's launch that records nothing).
// The driver writes the same list into the manifest (TimelineBuild.cpp).
//
// What is timed: a consumer unit from before its wgmma wait and ring waits
// to the next unit's start (a dot's wgmma is asynchronous: its interval is
// the issue, its completion shows in the wait of the unit reading the
// result); a load unit from before its wait for a free slot to the next
// unit's start. Units predicated off (source iteration outside the trip
// count) record nothing: their (predicated) code counts to the unit before.
// A persistent kernel's iteration is the running source iteration over the
// block's tiles (the tile's ring base + i), as the rings count.
//
// The lowering describes what it instrumented in the function's
// `stagecraft.timeline` attribute (warp groups, units, ctas, capacity); the
// driver turns it into the manifest's `timeline` object.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_TIMELINEPROBES_H
#define STAGECRAFT_PASSES_LOWERING_TIMELINEPROBES_H

#include "passes/Lowering/HopperOps.h"
#include "passes/Lowering/Placement.h"

namespace stagecraft::lowering {

/// The event buffer: per (sampled CTA, warp group) a region of a header
/// {count, %smid} and `capacity` records {stamp, unit, iteration} (unit
/// kTimelineEndUnit: the unit before ends here). The runner refuses a buffer
/// over 1 GiB (profiler/timeline_spec.h).
inline constexpr int64_t kTimelineHeaderBytes = 16, kTimelineRecordBytes = 16;
inline constexpr uint32_t kTimelineEndUnit = 0xFFFFFFFFu;
inline constexpr int64_t kTimelineBufferLimitBytes = int64_t(1) << 30;

class WarpGroupFrame;

class TimelineProbes {
public:
  TimelineProbes(const KernelPlan &plan, int64_t ctas, int64_t capacity, int64_t tiles)
      : plan(plan), ctas(ctas), capacity(capacity), tiles(tiles) {}

  /// Adds the event-buffer parameter to the frame's function, the record
  /// counter and this CTA's slot (at the start of the entry block, where
  /// the builder of `e` must be), and the `stagecraft.timeline` attribute.
  void install(hopper::Emitter &e, WarpGroupFrame &frame);

  /// The code of one warp group starts: `consumer` -1 for the producer,
  /// else the consumer warp group's index (i32); `thread` the thread's index
  /// in its role (the consumer-relative one for consumers).
  void enter(hopper::Emitter &e, mlir::Value consumer, mlir::Value thread);
  /// A unit starts: appends {now, unit, iteration} when this thread records
  /// and `when` (i1) holds, in one asm with no branch (a branch between a
  /// wgmma and the wait that retires it made ptxas inject a warpgroup.wait,
  /// C7517, into the probed copy).
  void mark(hopper::Emitter &e, unsigned unit, mlir::Value iteration, mlir::Value when);
  /// The warp group's current unit ends here and no other starts.
  void end(hopper::Emitter &e);
  /// The warp group's current unit ends and the tile's epilogue (the code
  /// after its loop, to the next end marker) starts, at `iteration` (the
  /// tile's first source iteration past its loop: ring base + trip count).
  void epilogue(hopper::Emitter &e, mlir::Value iteration);
  /// The header {count, %smid}, at the end of the warp group's code (its
  /// last unit ended at an end marker already).
  void finish(hopper::Emitter &e);

  /// Whether this CTA records (i1, uniform over the CTA).
  mlir::Value isSampled() const { return sampled; }
  /// In a persistent kernel, the tiles a sampled CTA records (its first
  /// ones); it runs the others as the plain kernel.
  int64_t recordedTiles() const { return tiles; }

  /// Timeline ids of the warp groups.
  int64_t warpGroups() const;
  bool hasProducer() const { return plan.producerGroup >= 0; }

private:
  const KernelPlan &plan;
  int64_t ctas, capacity, tiles;
  unsigned epilogueUnit = 0;        // the id after the loop's units
  mlir::Value counter;              // i32 alloca
  mlir::Value buffer;               // !llvm.ptr<1>
  mlir::Value sampled, slot;        // i1, i32
  mlir::Value recording, region;    // the current role's (enter)
};

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_TIMELINEPROBES_H
