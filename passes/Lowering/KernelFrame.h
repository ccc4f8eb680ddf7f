//===- KernelFrame.h - what every lowered tile kernel shares ----*- C++ -*-===//
//
// The llvm.func of a lowered kernel: tensor descriptors as by-value
// grid-constant tensor maps (`byval [128 x i8]`, align 64), sizes as i32, the
// dynamic shared-memory symbol, launch bounds; and the kernel's index math
// (program ids, sizes, the loop's induction value) rebuilt on i32.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_KERNELFRAME_H
#define STAGECRAFT_PASSES_LOWERING_KERNELFRAME_H

#include "passes/Lowering/HopperOps.h"

#include "core/Schedule/Legality.h"
#include "core/Schedule/LoopGraph.h"

#include "core/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

namespace stagecraft {

class KernelFrame {
public:
  /// Creates the llvm.func next to `kernel` and leaves the builder at the
  /// start of its entry block.
  KernelFrame(mlir::OpBuilder &b, mlir::func::FuncOp kernel, int64_t threads,
              int64_t smemBytes);

  mlir::LLVM::LLVMFuncOp fn;
  /// Kernel arguments (and, as they are lowered, pre-loop scalars).
  mlir::IRMapping base;

  /// The lowered argument for a kernel block argument.
  mlir::Value arg(mlir::Value kernelArg) { return base.lookup(kernelArg); }
  /// Index-typed scalar `v` rebuilt on i32 (constants, program ids, sizes
  /// and arith on them), memoized in `map`.
  mlir::Value lowerIndex(hopper::Emitter &e, mlir::Value v, mlir::IRMapping &map);

  /// The pipelined loop's bounds on i32: lower bound, step and trip count
  /// (0 for an empty range). Call at the entry block's top level.
  struct TripCount {
    mlir::Value lb, step, count;
  };
  TripCount tripCount(hopper::Emitter &e, mlir::scf::ForOp loop);

  /// The producer side of a ring of `copies` buffers for the TMA load
  /// `load` (in `loop`): for source iteration `src`, wait until its slot is
  /// free (from the second round on), expect the tile's bytes on the slot's
  /// full barrier and issue the load, in 128-byte-wide panels.
  struct RingPlace {
    int64_t copies, offset, stride, fullBar, emptyBar;
  };
  void produce(hopper::Emitter &e, mlir::scf::ForOp loop, const TripCount &trip,
               tile::LoadOp load, const RingPlace &ring, mlir::Value src);
};

/// The kernel's pipelined loop, its graph and the legality report of its
/// schedule. Ops without a tile.sched attribute follow the defaults: the
/// effective schedule is written into the IR, so every op carries one.
/// Fails with the legality explanation for an illegal schedule, and for a
/// loop nested in another (persistent kernels are not lowered yet).
struct ScheduledLoop {
  mlir::scf::ForOp loop;
  LoopGraph graph;
  ScheduleReport report;
};
mlir::FailureOr<ScheduledLoop> prepareScheduledLoop(mlir::func::FuncOp kernel);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_LOWERING_KERNELFRAME_H
