//===- Passes.td - Stagecraft passes ------------------------*- tablegen -*-===//
#ifndef STAGECRAFT_PASSES
#define STAGECRAFT_PASSES

include "mlir/Pass/PassBase.td"

def TileVerifySchedule : Pass<"tile-verify-schedule", "::mlir::ModuleOp"> {
  let summary = "Check each kernel's loop schedule and report what it implies";
  let description = [{
    Checks the schedule of each kernel's pipelined loop against the legality
    rules (docs/legality.md). An illegal schedule gets one error per
    violation, at the op at fault, in words that name the ops, the edge and
    the rule; the pass then fails. A legal one gets a remark at the loop with
    the steady-state body (e.g. `MMA0(i+1) Softmax(i) MUL(i) MMA1(i)
    loadK(i+3) loadV(i+2)`), the stage count, buffers, shared memory and
    registers per warp group.
  }];
  let options = [
    Option<"summary", "summary", "bool", /*default=*/"true",
           "Emit the remark with the schedule summary for legal schedules">
  ];
}

def TileApplySchedule : Pass<"tile-apply-schedule", "::mlir::ModuleOp"> {
  let summary = "Apply a JSON schedule to the kernel's loop";
  let description = [{
    Reads a schedule (docs/schedule-format.md) and writes it into the
    `tile.sched` attributes of the kernel's pipelined loop. Units the file
    does not name keep their schedule. A schedule that names an unknown op
    or that is illegal is refused with the explanation, and the IR is left
    as it was.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"",
           "Path of the schedule JSON file">,
    Option<"kernel", "kernel", "std::string", /*default=*/"",
           "Kernel to apply it to (default: the only kernel)">,
    Option<"allowIllegal", "allow-illegal", "bool", /*default=*/"false",
           "Apply even an illegal schedule (for exploring; codegen refuses it)">
  ];
}

def TileMaterializeSchedule : Pass<"tile-materialize-schedule", "::mlir::ModuleOp"> {
  let summary = "Write the default schedule of unscheduled ops into the IR";
  let description = [{
    Gives every op of each kernel's pipelined loop an explicit `tile.sched`
    attribute: ops that had one keep it; the others get the defaults
    (docs/schedule-format.md).
  }];
}

def TileExportSchedule : Pass<"tile-export-schedule", "::mlir::ModuleOp"> {
  let summary = "Write the kernel's schedule as JSON";
  let description = [{
    Writes the effective schedule of the kernel's pipelined loop (defaults
    included) as canonical JSON to `file` (`-` for stdout). The IR is not
    changed.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"-\"",
           "Output path, or - for stdout">,
    Option<"kernel", "kernel", "std::string", /*default=*/"",
           "Kernel to export (default: the only kernel)">
  ];
}

def TileSetTileOrder : Pass<"tile-set-tile-order", "::mlir::ModuleOp"> {
  let summary = "Set the order in which a persistent kernel's tile loop walks the tiles";
  let description = [{
    Rewrites the index arithmetic that maps the tile loop's index t to tile
    coordinates (the values the tile loop's store indexes with) to the
    chosen order: row-major (the last coordinate fastest), column-major (the
    first fastest) or grouped (Triton's grouped order: down a group of
    `group` tile rows, then right; the last group may have fewer rows;
    group=1 is row-major). Tile counts are the IR's own values where one
    equals ceil(size / tile size), else new ceil-divs of the stored
    descriptor's shape; the old arithmetic is removed. A kernel without a
    tile loop, a tile loop whose coordinates cannot be identified, grouped
    over other than two tile dimensions, or a tile index that reaches
    anything but the coordinates is refused with an error at the op
    (passes/TileOrder.h, docs/compiler.md).
  }];
  let options = [
    Option<"order", "order", "std::string", /*default=*/"",
           "row-major, column-major or grouped">,
    Option<"group", "group", "int64_t", /*default=*/"0",
           "Tile rows per group (grouped; >= 1)">,
    Option<"kernel", "kernel", "std::string", /*default=*/"",
           "Kernel to rewrite (default: the only kernel)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileLowerToNVVM : Pass<"tile-lower-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower scheduled tile kernels to the LLVM and NVVM dialects for sm_90a";
  let description = [{
    Turns each `tile.kernel` into an `llvm.func` kernel for Hopper, driven by
    its schedule:
    - each TMA load gets a ring of shared-memory buffers, as many as the
      schedule keeps in flight (its stage distance to the last use, +1 when
      a dot with wait > 0 reads it), guarded by full/empty mbarriers with
      phase parity;
    - each warp group runs its ops in the schedule's body order; kernel
      iteration k runs an op of stage s on source iteration k - s, and
      predicates it off outside [0, trip count), which yields the prologue
      and epilogue of any legal schedule (also for trip counts below the
      stage count);
    - when loads sit in a warp group of their own, that group becomes a TMA
      producer (one elected thread, setmaxnreg.dec) and the others
      consumers (setmaxnreg.inc);
    - dots become wgmma.mma_async from swizzled shared memory, committed
      per iteration and waited to the schedule's depth (MMA pipelining);
      buffers are released only once the wgmma reading them retired;
    - tensor descriptors become `byval [128 x i8]` grid-constant parameters.
    A loop with two dots (attention: S = Q K^T, softmax, O += P V) keeps
    its register math on the wgmma accumulator fragments, feeds P to the
    second wgmma from registers, and waits on each wgmma group exactly
    where its result is read (docs/compiler.md).
    An illegal schedule is refused with the legality explanation.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "GPU to lower for: sm_90a (Hopper: wgmma) or sm_100a (Blackwell: "
           "tcgen05.mma, accumulators in tensor memory; compile-only here)">,
    Option<"timeline", "timeline", "bool", /*default=*/"false",
           "Emit the instrumented variant for measured timelines: an extra "
           "trailing event-buffer parameter and %globaltimer records around "
           "every unit (docs/bundle-format.md, TimelineProbes.h; sm_90a)">,
    Option<"timelineCtas", "timeline-ctas", "int64_t", /*default=*/"4",
           "CTAs that record, spread over the grid">,
    Option<"timelineCapacity", "timeline-capacity", "int64_t", /*default=*/"8192",
           "Records per (CTA, warp group) region; more are counted, not kept">,
    Option<"timelineTiles", "timeline-tiles", "int64_t", /*default=*/"2",
           "In a persistent kernel, the tiles a sampled CTA records (its "
           "first ones; it runs the rest as the plain kernel)">
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

def TileSplitDotScaled : Pass<"tile-split-dot-scaled", "::mlir::ModuleOp"> {
  let summary = "Split each tile.dot_scaled into two tile.upcast and a bf16 tile.dot";
  let description = [{
    `tile.dot_scaled %a, %sa, %b, %sb, %acc` becomes
    `tile.upcast %a, %sa` (bf16), `tile.upcast %b, %sb` (bf16) and
    `tile.dot` on them: how sm_90a runs a block-scaled dot (wgmma has no
    scales). In a scheduled loop the two upcasts form a unit of their own,
    named after the dot's (`MMA` gives `MMA.upcast`), in the dot's stage,
    group and order, just before it: write the upcasts yourself to place
    them elsewhere. tile-lower-to-nvvm does this first for sm_90a.
  }];
}

def TileFactorScaleOutOfMax : Pass<"tile-factor-scale-out-of-max", "::mlir::ModuleOp"> {
  let summary = "Rewrite tile.reduce max (x * c), c > 0, as (tile.reduce max x) * c";
  let description = [{
    Exact for a positive, finite splat constant `c` (rounding is monotonic),
    and it leaves the tile-wide product with its other readers only: in an
    online softmax, the subtraction of the row maximum, which LLVM then fuses
    with the product into one fma per element, as FlashAttention computes
    exp2(x * scale - max * scale). The new reduce and multiply take the old
    reduce's schedule; the product moves to just before its first remaining
    reader. tile-lower-to-nvvm does this first; the reference kernel is
    lowered from the IR as written.
  }];
}

def TileLowerReference : Pass<"tile-lower-reference", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels plainly, to check the pipelined kernels against";
  let description = [{
    Turns each `tile.kernel` into `<kernel>_reference`, an `llvm.func`
    kernel computing the same function from the same IR with nothing
    clever: no pipelining, no warp specialization, no shared memory, no
    tensor cores, fp32 arithmetic (16-bit values rounded where the IR
    rounds them). Each block of 256 threads runs whole programs; every
    tensor value lives in the block's scratch slot in global memory, one
    element per thread at a time; each op is a loop over its result's
    elements followed by a block barrier. Parameters: the kernel's, with
    tensor descriptors as global pointers to row-major tensors, and a
    trailing scratch pointer (`stagecraft.scratch_per_block` bytes per
    block). The runner runs it on the pipelined kernel's inputs and
    compares the outputs (docs/bundle-format.md).
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // STAGECRAFT_PASSES
