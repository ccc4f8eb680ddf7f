//===- Placement.h - where every value of a tile kernel lives -------*- C++ -*-===//
//
// The first step of the lowering (Placement.cpp), then Expansion.cpp fills
// in the schedule's consequences and WarpGroupFrame.cpp the shared memory:
//  - TMA loads in the pipelined loop get shared-memory rings; loads outside
//    it are resident tiles, loaded once at the start (after the loop, where
//    the rings were, when only the epilogue reads them);
//  - the units of the loop split into the consumer warp group(s), which run
//    every op but loads, and an optional producer group of loads;
//  - every tensor computed in registers gets a register layout
//    (RegisterLayout.h) from its op's pattern; 1-d vectors run along the
//    rows or the columns as their producers and users say;
//  - stores after the loop get staging tiles.
// What cannot be lowered is refused with the op and one sentence.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_PLACEMENT_H
#define STAGECRAFT_PASSES_LOWERING_PLACEMENT_H

#include "passes/Lowering/RegisterLayout.h"
#include "passes/Lowering/Tcgen05Plan.h"
#include "passes/Target.h"

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/LoopGraph.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <vector>

namespace stagecraft::lowering {

/// A tile as TMA writes it to shared memory: `panels` column panels of
/// `rows` rows and `panelCols` columns each, one after the other, swizzled
/// by `swizzle` bytes (0: none).
struct SmemTile {
  int64_t rows = 1, cols = 0, panels = 1, panelCols = 0, panelBytes = 0, bytes = 0;
  int64_t elemBytes = 2, swizzle = 0;
  mlir::Type elemType;
  static SmemTile of(tile::DescType desc);
};

/// A TMA load of the pipelined loop and its ring of buffers.
struct Ring {
  unsigned unit = 0;
  mutable tile::LoadOp load;
  unsigned descArg = 0;
  SmemTile tile;
  int64_t copies = 1, offset = 0, stride = 0, fullBar = 0, emptyBar = 0;
  /// Every copy of the ring is released by the consumer this many kernel
  /// iterations after the source iteration's stage (Expansion).
  int64_t releaseDelta = 0;
  /// Arrivals that free a buffer: 0 for one per consumer warp; 1 where a
  /// tcgen05.commit frees it (sm_100a, Tcgen05.h).
  int64_t emptyArrivals = 0;
  /// CTAs that share the ring (tile::ClusterMulticast): each loads 1/multicast
  /// of the rows into every CTA's slot, and a slot is free once the consumers
  /// of all of them released it. 1: the CTA's own.
  int64_t multicast = 1;
  /// A persistent kernel's tile load only the epilogue reads
  /// (isEpilogueOnlyLoad): one buffer, loaded by the producer after the
  /// tile's ring loads (by then the previous tile's epilogue has freed it),
  /// waited for by the consumers after their loop.
  bool afterLoop = false;
};

/// A tile loaded once (loads outside the loop): before the consumers start,
/// or, when only the code after the loop reads it (isEpilogueOnlyLoad), by
/// the consumers after the loop into the space the rings leave.
struct Resident {
  mutable tile::LoadOp load;
  unsigned descArg = 0;
  SmemTile tile;
  int64_t offset = 0;
  bool afterLoop = false;
};

/// A tile the consumer warp groups write to shared memory for a dot to read
/// (the bf16 B a tile.upcast makes from FP8: wgmma reads B from shared
/// memory), in a ring of its own (Upcast.cpp, UpcastLowering.cpp).
struct LocalRing {
  mutable tile::UpcastOp op;
  int writer = -1, reader = -1; // body units: the upcast's, the dot's
  SmemTile tile;                // K-major, 128-byte swizzled panels of 64 columns
  int64_t copies = 2, offset = 0, stride = 0;
};

/// The release of a ring's buffers at a point of the kernel iteration: the
/// source iteration `kit - delta` is done with them.
struct Release {
  unsigned ring = 0;
  int64_t delta = 0;
};

/// One unit of the consumer warp group.
struct BodyUnit {
  unsigned unit = 0;
  int64_t off = 0;      // stage - the consumer group's first stage
  bool isLoad = false;  // a load the consumers issue themselves
  int dotPos = -1;      // position among the dot units of the body
  mutable tile::DotOp dot;
  llvm::SmallVector<mlir::Operation *> ops;
  // wgmma.wait_group before the unit (-1: none), the dot results it reads
  // that the wait ties, and the releases that wait allows.
  int wait = -1;
  /// The wait where the unit may be predicated off (the prologue and
  /// epilogue kernel iterations, Expansion.cpp): 0 for a unit that writes a
  /// dot's accumulator input, else `wait`. Never weaker than `wait`, at the
  /// same units, so the releases planned from `wait` hold under it too.
  int predicatedWait = -1;
  llvm::SmallVector<mlir::Value> tied;
  llvm::SmallVector<Release> releases;
  /// Releases after the unit (its register reads of rings are done).
  llvm::SmallVector<Release> releasesAfter;
};

/// Everything the emission needs to know about a kernel.
struct KernelPlan {
  Target target;
  /// sm_100a: tensor memory and the MMA issuer's barriers (Tcgen05.cpp).
  Tcgen05Plan tcgen05;
  mutable mlir::func::FuncOp kernel;
  mutable mlir::scf::ForOp loop;
  LoopGraph graph;
  ScheduleReport report;
  TileGeometry geom;

  int64_t consumerGroup = 0, producerGroup = -1;
  int64_t threads = 128, consumerRegs = 0, producerRegs = 0;
  /// Consumer teams: 1 (cooperative: every consumer warp group works on
  /// each tile, `geom.wgs` of them) or 2 (ping-pong: each warp group is a
  /// team of its own, `geom.wgs` = 1, with every other tile of the tile
  /// loop; the teams take turns at the tensor cores, TeamTurns below).
  int64_t teams = 1;
  /// CTAs per cluster (`tile.cluster`), along grid dimension 0.
  int64_t cluster = 1;
  /// Staggered consumers: the two warp groups of the tile take turns issuing
  /// the loop's dots each kernel iteration (ConsumerLoop.cpp).
  bool staggered = false;
  int64_t cMin = 0, cMax = 0, pMin = 0, pMax = 0;

  std::vector<Ring> rings;
  std::vector<LocalRing> locals;
  std::vector<Resident> residents;
  /// A persistent kernel: the tile loop around the pipelined loop (its body
  /// is the scope of the per-tile ops), or null.
  mutable mlir::scf::ForOp tileLoop;
  /// Loads in the tile loop's body outside the pipelined loop: loaded for
  /// every tile into a ring of two (the next tile's while this one's is
  /// read), or of one (Ring::afterLoop), indexed by the tile count.
  std::vector<Ring> tileRings;
  std::vector<tile::StoreOp> stores;
  /// Stores in the pipelined loop (a tile each iteration, by the consumers
  /// in their unit): the staging slots then get their own place.
  std::vector<tile::StoreOp> loopStores;
  std::vector<BodyUnit> body;      // consumer units in body order
  std::vector<unsigned> loadUnits; // producer-group load units in body order
  llvm::DenseMap<mlir::Operation *, int> unitOfOp;
  llvm::DenseMap<mlir::Value, Layout> layouts;
  int numDots = 0;

  // Expansion.
  llvm::MapVector<mlir::Value, int64_t> carried; // value -> copies carried
  int endWait = -1;
  llvm::SmallVector<mlir::Value> endTied;
  llvm::SmallVector<Release> endReleases;

  // Shared memory (WarpGroupFrame).
  /// The barriers of the residents loaded at the start and of those loaded
  /// after the loop.
  int64_t smemBytes = 0, residentBar = 0, lateResidentBar = 0;
  /// Two staging slots for the stores' panels (each TMA-stored panel is
  /// written to one slot while the other's store drains), per team.
  int64_t stagingBase = 0, stagingSlotBytes = 0;
  /// Where the consumer warps exchange partial results (a reduction over
  /// rows: a row of partials per consumer warp and the final row), after
  /// everything else.
  int64_t exchangeOffset = 0, exchangeBytes = 0;

  const Ring *ringOf(mlir::Value v) const;
  const Ring *tileRingOf(mlir::Value v) const;
  /// The block holding the pipelined loop: the tile loop's body or the
  /// kernel's.
  mlir::Block &scope() const {
    return tileLoop ? *tileLoop.getBody() : kernel.getBody().front();
  }
  const Resident *residentOf(mlir::Value v) const;
  /// Whether any resident is loaded at the start / after the loop.
  bool hasResidents(bool afterLoop) const {
    return llvm::any_of(residents, [&](const Resident &r) { return r.afterLoop == afterLoop; });
  }
  const LocalRing *localOf(mlir::Value v) const;
  /// A dot unit whose A comes from registers (neither a loaded tile nor a
  /// tile the consumers write to shared memory): attention's P V.
  bool readsARegisters(const BodyUnit &u) const {
    return u.dot && !u.dot.getA().getDefiningOp<tile::LoadOp>() && !localOf(u.dot.getA());
  }
  int bodyIndexOf(mlir::Operation *op) const;
  /// The in-loop value an operand of `user` stands for and how many kernel
  /// iterations back it was made (an iter_arg resolves to its yielded
  /// value); -1 for values from outside the loop.
  std::pair<mlir::Value, int64_t> resolve(mlir::Value operand, const BodyUnit &user) const;
  /// The register layout a reader sees `v` in: a loaded tile read into
  /// registers takes its natural layout.
  Layout registerLayout(mlir::Value v) const;
};

/// Placement: units, rings, residents, stores, layouts. Emits an error at
/// the op that cannot be lowered and fails.
mlir::LogicalResult placeKernel(KernelPlan &plan);

/// Everything the lowering decides before it emits (LowerTileToNVVM.cpp):
/// the rewrites both lowerings start from and sm_90a's split of scaled
/// dots, placement, expansion, shared memory and local rings (and tensor
/// memory on sm_100a). Rewrites `kernel`; emits the first refusal at its op
/// and fails. The timeline tool runs it on a copy, to say when the compiler
/// would refuse what it predicts.
mlir::LogicalResult planKernel(mlir::func::FuncOp kernel, const Target &target, KernelPlan &plan);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_PLACEMENT_H
