//===- CompileDriver.h - the compile pipeline as a library call ---*- C++ -*-===//
//
// `compile(source, options)` runs the whole pipeline: input checks, parse,
// schedule application and legality, the lowering passes, PTX through LLVM's
// NVPTX back end, and a cubin through ptxas when it is there. The app, the
// command-line tools and the tests call exactly this function.
//
// The kernel's PTX comes first: what a user waits for after a drag. The
// rest comes after it, overlapped: the reference kernel is lowered on a
// second thread (its own MLIRContext, from the scheduled IR), ptxas runs as
// a child process, and the IR after each lowering pass, kept as a copy of
// the module, is printed only then. `onScheduleChecked` and `onPtx` hand the
// result so far to a caller that shows it at once (the app).
//
// It lives in passes/ rather than core/ because it runs the passes, and
// core/ must not depend on passes/.
//
// Thread safety: each call owns its MLIRContexts; calls may run concurrently
// on different threads. Cancellation: set `*options.cancel` from any thread;
// the driver checks it between passes (and stops ptxas) and returns
// Status::Cancelled.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_COMPILEDRIVER_H
#define STAGECRAFT_PASSES_DRIVER_COMPILEDRIVER_H

#include "core/Timeline/Simulator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft {

struct CompileResult;

struct CompileOptions {
  /// A schedule (JSON, docs/schedule-format.md) to apply over the IR's own;
  /// empty: none (a tool given an empty schedule file refuses it itself).
  std::string scheduleJson;
  std::string scheduleSource = "<schedule>";
  /// The consumer arrangement, over the IR's and the JSON's: a schedule file
  /// leaves cooperative unwritten (it means "the kernel's"), so the app,
  /// whose Consumers control can choose cooperative over a kernel's
  /// ping-pong, says it here.
  std::optional<Consumers> consumers;
  /// CTAs per cluster, overriding the schedule's and the kernel's (the
  /// app's Cluster control, `stagecraft-compile --cluster`).
  std::optional<int64_t> cluster;
  /// Problem sizes overriding the kernel's `tile.defaults`, e.g. {"M", 8000}.
  std::vector<std::pair<std::string, int64_t>> sizes;
  /// The kernel to compile; empty: the module's only kernel.
  std::string kernel;
  /// A persistent kernel's tile order, set before anything else reads the
  /// IR (tile-set-tile-order, passes/TileOrder.h): "row-major",
  /// "column-major" or "grouped:G"; empty: the IR's own.
  std::string tileOrder;
  /// Stop after the schedule checks (no codegen): for fast UI feedback.
  bool scheduleOnly = false;
  /// Assemble the PTX with ptxas into a cubin when ptxas can be found.
  bool emitCubin = true;
  /// Lower the kernel a second time, plainly, into the reference kernel the
  /// runner checks it against (reference.ptx), on a thread of its own.
  bool emitReference = true;
  /// Lower the kernel a third time, instrumented for measured timelines
  /// (timeline.ptx / timeline.cubin and the manifest's `timeline`,
  /// docs/bundle-format.md), on a thread of its own started after the
  /// kernel's PTX. Off by default: the command line asks with
  /// --with-timeline, the app (which traces every run) always. sm_90a only
  /// (sm_100a bundles are compile-only): ignored with a note there.
  bool emitTimeline = false;
  /// How many CTAs of the grid record events in the instrumented kernel
  /// (spread over the grid; at least 1).
  int64_t timelineCtas = 4;
  /// In a persistent kernel, how many tiles (its first) a recording CTA
  /// records; it runs the rest as the plain kernel (at least 1).
  int64_t timelineTiles = 2;
  /// Records kept per recording (CTA, warp group) (1 to 2^24); more are
  /// counted, not kept. The runner's buffer (24 bytes a record) must stay
  /// under its 1 GiB limit: every CTA of a large grid recording wants less.
  int64_t timelineCapacity = 8192;
  /// The GPU to compile for: "sm_90a" (Hopper, the default) or "sm_100a"
  /// (Blackwell: compile-only here, no runner; docs/compiler.md).
  std::string target = "sm_90a";
  /// True: nothing else runs until the kernel's PTX exists (what the app
  /// shows first after a drag); the reference and the IR text follow. False
  /// (the command-line tool, which waits for all): the reference starts as
  /// soon as the schedule is applied and the IR text is printed while LLVM
  /// optimizes, so the whole compile ends sooner on two cores.
  bool ptxFirst = true;
  /// Keep the IR after each pass as text (CompileResult::passes[i].ir, the
  /// bundle's ir/NN-pass.mlir). The lowered modules are copied after each
  /// pass and printed once the PTX exists. Off: the passes are listed with
  /// their times but no text (sweeps that want only the kernel).
  bool keepSnapshots = true;
  /// Keep the optimized LLVM IR as text (CompileResult::llvmIR, kernel.ll),
  /// also printed once the PTX exists.
  bool keepLlvmIR = true;
  /// ptxas to use; empty: $PATH, then /usr/local/cuda/bin/ptxas.
  std::string ptxasPath;
  /// Set to true from another thread to cancel.
  std::shared_ptr<std::atomic<bool>> cancel;
  /// Called on the compiling thread with the result so far: once the
  /// schedule passed its checks and code generation starts (not with
  /// scheduleOnly), and once the kernel's PTX and manifest exist (before the
  /// reference, the cubin and the IR text). Not called on failure.
  std::function<void(const CompileResult &)> onScheduleChecked, onPtx;
};

struct PassSnapshot {
  std::string name; // e.g. "tile-apply-schedule"
  std::string ir;   // the module after the pass
  double millis = 0;
};

struct PtxasReport {
  bool ran = false;
  int registers = -1;
  int sharedBytes = -1;    // static shared memory
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
  int stackBytes = 0;
  /// ptxas's C7520: it serialized the kernel's wgmma (each waits for the
  /// last), the reason after "due to" ("" when it did not).
  std::string wgmmaSerialized;
  std::string text;        // ptxas -v output, verbatim
};

struct CompileResult {
  enum class Status { Ok, Error, Cancelled };
  Status status = Status::Error;
  bool ok() const { return status == Status::Ok; }

  /// "file:line:col: error: message" lines, in order.
  std::vector<std::string> diagnostics;
  /// The IR after each pass, in order (the first is the parsed input). The
  /// lowered ones' text is empty in the result onPtx sees.
  std::vector<PassSnapshot> passes;
  std::string kernel;
  /// The effective schedule (canonical JSON) and its summary.
  std::string scheduleJson;
  std::string scheduleSummary;
  std::string steadyState;
  /// The predicted timeline of the effective schedule (docs/timeline.md): from
  /// the schedule alone, refined with ptxas's registers and the kernel's shared
  /// memory when there is a cubin. ok = false (with the reason) if none.
  timeline::Prediction prediction;

  std::string llvmIR;
  std::string ptx;
  std::string cubin; // binary
  PtxasReport ptxas;
  /// manifest.json of the bundle (docs/bundle-format.md); it names the
  /// reference once there is one.
  std::string manifestJson;
  /// The reference kernel (tile-lower-reference) as PTX, and its launch.
  std::string referencePtx;
  std::string referenceKernel;
  int64_t referenceBlocks = 0, referenceScratchPerBlock = 0;
  /// The instrumented kernel (CompileOptions::emitTimeline): its PTX, its
  /// cubin when cubins are made, ptxas's report on it. The manifest's
  /// `timeline` object describes it.
  std::string timelinePtx, timelineCubin;
  PtxasReport timelinePtxas;
  /// signature.json: the kernel's interface at any sizes, for export
  /// (Signature.h); empty when the kernel has none.
  std::string signatureJson;

  /// Where the time went (milliseconds). ptxMillis = LLVM translation +
  /// optimization + NVPTX code generation. ptxReadyMillis: from the call to
  /// the PTX (what onPtx sees). The reference and ptxas overlap the
  /// snapshot printing; their times are their own, from their start.
  double parseMillis = 0, checkMillis = 0, passesMillis = 0, ptxMillis = 0,
         llvmTranslateMillis = 0, llvmOptimizeMillis = 0, nvptxMillis = 0,
         ptxReadyMillis = 0, snapshotMillis = 0, ptxasMillis = 0,
         referenceMillis = 0, timelineMillis = 0, totalMillis = 0;
};

CompileResult compile(llvm::StringRef source, llvm::StringRef sourceName,
                      const CompileOptions &options);

/// Writes the bundle directory: manifest.json, kernel.ptx, kernel.cubin (when
/// there is one), reference.ptx, schedule.json, ptxas.txt, ir/NN-pass.mlir,
/// and with an instrumented kernel timeline.ptx, timeline.cubin and
/// timeline-ptxas.txt. Writes into a
/// temporary directory beside `dir` and renames it into place, so a failure
/// never leaves a half-written bundle.
llvm::Error writeBundle(const CompileResult &result, llvm::StringRef dir);

/// Whether a bundle may be written at `dir`: a new path, an empty directory
/// or an earlier bundle (which writeBundle replaces). Anything else (a file,
/// a directory of the user's) is refused, so that -o never deletes work.
llvm::Error checkBundleDestination(llvm::StringRef dir);
/// Whether a file can be written at `path` (the --timeline JSON): not a
/// directory, in an existing, writable directory. Checked before compiling.
llvm::Error checkOutputFile(llvm::StringRef path);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_COMPILEDRIVER_H
