//===- ScheduleIR.h - schedules in the IR -------------------------*- C++ -*-===//
//
// Finds a kernel's pipelined loop, extracts its LoopGraph (units, edges,
// sizes, the schedule written in `tile.sched` attributes plus defaults), and
// writes a schedule back into the attributes.
//
// Defaults for ops without `tile.sched`: a name from the op (`load_0`,
// `dot_0`, `mulf_1`, ...), stage 0 for loads and the last stage for the rest
// (stage 1 when the loop has no schedule at all: a two-stage pipeline),
// order in program order after the scheduled ops, warp group 0.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SCHEDULE_SCHEDULEIR_H
#define STAGECRAFT_CORE_SCHEDULE_SCHEDULEIR_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Schedule/LoopGraph.h"

namespace stagecraft {

/// "file:line:col" of a location, or "" when it has none.
std::string formatLocation(mlir::Location loc);

/// "file:line:col: severity: message", the one-line form every front end
/// shows diagnostics in.
std::string formatDiagnostic(mlir::Diagnostic &diag);

/// The kernel's pipelined loop: the scf.for whose body directly holds TMA
/// loads or scheduled ops. Emits an error and fails when there is none or
/// more than one.
mlir::FailureOr<mlir::scf::ForOp> findPipelinedLoop(mlir::func::FuncOp kernel);
/// findPipelinedLoop for a caller that only asks (a peer match, a trip count
/// for the manifest): no diagnostic. Asked with the error's wording, a kernel
/// whose loop canonicalization had removed (it stored nothing) was told it had
/// no loop, before the lowering could say that it stores nothing.
mlir::FailureOr<mlir::scf::ForOp> findPipelinedLoopQuietly(mlir::func::FuncOp kernel);

/// True for ops of a loop body that a schedule places (tensor ops); scalar
/// index arithmetic and constants are not scheduled: they follow their users.
bool isScheduledOp(mlir::Operation *op);

/// The ops of each unit of the loop body, units in order of first op.
struct LoopUnits {
  std::vector<std::string> names;
  std::vector<std::vector<mlir::Operation *>> ops;
  int find(llvm::StringRef name) const;
};
mlir::FailureOr<LoopUnits> collectUnits(mlir::scf::ForOp loop);

/// Whether `v`, a tile.upcast result, is read only as dots' B operand: it
/// then lives in shared memory, where wgmma reads B.
bool upcastFeedsDotB(mlir::Value v);

/// Whether `load`, outside the pipelined `loop` but in its block, is read
/// only by the code after the loop (a residual added to the result, say),
/// and not as scalars (`tensor.extract`: index math, which may be lowered
/// anywhere). Such a tile may be loaded after the loop, into the space the
/// rings leave, rather than at the kernel's start and kept through it, where
/// it would not fit otherwise (ScheduleReport::epilogueLoadsAfterLoop); not
/// in a loop that stores (its staging lives beside the rings). In a
/// persistent kernel (the tile loop's body), the producer loads such a tile
/// after the tile's ring loads, into one buffer rather than two.
bool isEpilogueOnlyLoad(tile::LoadOp load, mlir::scf::ForOp loop);

/// Builds the graph of the kernel's pipelined loop; emits diagnostics at the
/// offending op on failure.
mlir::FailureOr<LoopGraph> buildLoopGraph(mlir::func::FuncOp kernel);

/// Writes `schedule` into the `tile.sched` attributes of the kernel's
/// pipelined loop; units the schedule does not name keep (or get) their
/// current effective schedule. Fails, with a diagnostic, when the schedule
/// names a unit the loop does not have.
mlir::LogicalResult writeSchedule(mlir::func::FuncOp kernel,
                                  const Schedule &schedule);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SCHEDULE_SCHEDULEIR_H
