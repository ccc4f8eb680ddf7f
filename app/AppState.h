//===- AppState.h - the session and its commands, without drawing -*- C++ -*-===//
//
// Everything the app does that is not drawing: the open IR and its loop
// graph, the schedule with undo/redo (ScheduleEditor), background compiles
// (CompileJobs), the runner (RunnerClient), the list of variants (runs), the
// status line, and autosave. Panels read it and call its commands; tests
// drive it without a window. No ImGui here.
//
// Threading: every method is for the UI thread. Work happens on the compile
// worker and the runner's reader thread; poll() (once a frame) takes their
// results.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_APPSTATE_H
#define STAGECRAFT_APP_APPSTATE_H

#include "app/Autosave.h"
#include "app/CompileJobs.h"
#include "app/Lesson.h"
#include "app/MeasuredTraceFile.h"
#include "app/RunRecord.h"
#include "app/RunnerClient.h"
#include "app/ScheduleEditor.h"

#include "core/Schedule/TileLoop.h"

#include "core/Timeline/Simulator.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::app {

struct AppConfig {
  /// The runner command ("" = none: runs are not possible, all else works).
  std::string runnerCommand;
  bool startRunner = true;
  RunnerOptions runnerOptions;
  /// The autosave file ("" = no autosave, e.g. for --screenshot and tests).
  std::string autosavePath;
  /// Where bundles go (a per-session directory is made inside).
  std::string bundleRoot;
  /// The compile back end (the real driver unless a test replaces it).
  CompileBackend backend;
  /// Run the full compile after the schedule-only one.
  bool fullCompile = true;
};

/// A measured timeline opened from a file (File > Open measured trace...,
/// --trace): a run on a GPU elsewhere, by `stagecraft-run --trace`.
struct LoadedTrace {
  std::string path; // absolute
  MeasuredTraceFile file;
  /// What it was checked against: it is shown while these are current.
  std::string irPath, scheduleJson, tileOrder;
  uint64_t arrival = 0; // among every trace of the session (TraceView::key)
  /// Measured at sizes other than the IR's defaults: the prediction of the
  /// schedule at the trace's sizes, which the timeline panel sets beside it,
  /// and which sizes ("M=1536 N=1536 K=384"); absent when they are the same.
  std::optional<timeline::Prediction> prediction;
  std::string sizes, defaultSizes;
};

/// The measured timeline the panel shows, and where it came from.
struct TraceView {
  const MeasuredTrace *trace = nullptr; // null: none
  const RunRecord *run = nullptr;       // the run it came from; null for a file
  const LoadedTrace *file = nullptr;    // the file it came from; null for a run
  std::string source; // "variant #3" or the file's name
  std::string device; // the GPU, when known
  uint64_t key = 0;   // differs for every trace that arrived (0: none)
};

enum class StatusLevel { Info, Ok, Warning, Error };

struct StatusMessage {
  StatusLevel level = StatusLevel::Info;
  std::string text;
  std::chrono::steady_clock::time_point at;
};

/// What the compile panel and the status line show: the newest job. Its
/// phases arrive in order: the schedule checked, the PTX, the whole result.
struct CompileView {
  enum class State { Idle, Compiling, Ok, Error };
  State state = State::Idle;
  uint64_t job = 0;
  std::chrono::steady_clock::time_point started;
  bool hasChecked = false, hasPtx = false, hasFull = false;
  /// withPtx: the kernel's PTX and manifest, no reference, cubin or lowered
  /// IR text yet.
  CompileResult checked, withPtx, full;
  /// Each from the job's start.
  double checkedSeconds = 0, ptxSeconds = 0, fullSeconds = 0;
  std::string bundleDir, bundleError;
  /// The most complete result: the full one when there is one.
  const CompileResult *result() const {
    return hasFull ? &full : hasPtx ? &withPtx : hasChecked ? &checked : nullptr;
  }
  /// Seconds of the job so far (its last phase).
  double seconds() const {
    return hasFull ? fullSeconds : hasPtx ? ptxSeconds : checkedSeconds;
  }
  /// The first error diagnostic of the newest result, or "".
  std::string firstError() const;
};

class AppState {
public:
  explicit AppState(AppConfig config);
  ~AppState();
  AppState(const AppState &) = delete;
  AppState &operator=(const AppState &) = delete;

  // --- Files. Each returns false and sets the status line on failure.
  bool openFile(const std::string &path);
  /// Opens IR from text; `path` names it (may be ""). `schedule`, when
  /// given, replaces the IR's own (restoring a session).
  bool openText(const std::string &text, const std::string &path,
                const Schedule *schedule = nullptr);
  /// Restores the autosaved session; false when there is none or it could
  /// not be read (then autosaveProblem() says why and where it was kept).
  bool restoreAutosave();
  const std::string &autosaveProblem() const { return autosaveProblem_; }
  void setAutosaveProblem(const std::string &p) { autosaveProblem_ = p; }
  bool restoreSession(const SessionFile &session);
  /// Reopens the lesson in `dir` over the open IR (its own kernel) at the
  /// current schedule, its goal's start `startJson`; false when it is not
  /// this IR's lesson.
  bool resumeLesson(const std::string &dir, const std::string &startJson);
  /// Writes the IR with the current schedule in its tile.sched attributes.
  bool saveIr(const std::string &path);
  bool saveSchedule(const std::string &path);
  bool loadSchedule(const std::string &path);
  /// Exports the current schedule's compiled variant as a package for a
  /// user's project (docs/export.md) into `dir`, with its measured TFLOP/s
  /// when it was run and verified.
  bool exportKernel(const std::string &dir);

  bool hasIr() const { return hasIr_; }
  const std::string &irPath() const { return irPath_; }
  /// Where this session's bundles go (a directory of its own).
  const std::string &sessionDir() const { return sessionDir_; }
  const std::string &irText() const { return irText_; }
  const std::string &kernel() const { return kernel_; }
  /// Why the last open failed (diagnostics), when it did.
  const std::vector<std::string> &loadDiagnostics() const {
    return loadDiagnostics_;
  }
  /// The text of the last open that failed (shown with its error lines
  /// while no other file is open); "" after one that succeeded.
  const std::string &rejectedText() const { return rejectedText_; }
  const std::vector<std::string> &recentFiles() const { return recent_; }
  const ScheduleEditor &editor() const { return editor_; }
  /// The open kernel's tile loop (persistent kernels), as the current IR
  /// walks the tiles.
  const TileLoop &tileLoop() const { return tileLoop_; }
  /// The tile order of the current IR as a variant records it ("grouped:8";
  /// "" when the kernel is not persistent).
  std::string tileOrderSpec() const { return tileLoop_.persistent ? tileLoop_.orderSpec() : ""; }
  /// Why the tile loop cannot take `order` ("" when it can, or when the
  /// kernel is not persistent).
  std::string tileOrderRefusal(TileOrder order) const;

  // --- Schedule edits (each recompiles and autosaves).
  MoveOutcome moveUnit(const std::string &unit, const MoveTarget &to);
  MoveOutcome setWait(const std::string &unit, int64_t wait);
  MoveOutcome setConsumers(Consumers consumers);
  /// CTAs per thread-block cluster (1, 2 or 4; ScheduleEditor::setCluster),
  /// recompiled like a move.
  MoveOutcome setCluster(int64_t cluster);
  /// The register budget of schedule group `group` (setmaxnreg; 0: the
  /// default share). Applied even when illegal: the board shows why.
  MoveOutcome setRegisters(int64_t group, int64_t budget);
  /// Rewrites the IR's tile loop to `choice` (tile-set-tile-order, keeping
  /// the file's comments): an undo step that recompiles. False, with the
  /// reason in the status line, when the kernel is not persistent or its
  /// tile loop cannot take the order.
  bool setTileOrder(const TileOrderChoice &choice);
  bool undo();
  bool redo();
  /// Makes a run's schedule the current one (an undo step).
  bool restoreRun(uint64_t runId);

  const std::string &selectedUnit() const { return selected_; }
  void select(const std::string &unit) { selected_ = unit; }
  uint64_t selectedRun() const { return selectedRun_; }

  // --- Timelines.
  /// The predicted timeline of the current schedule: re-simulated on every
  /// edit from the costs read when the file was opened (no IR, no compile),
  /// then the compile's own once it finished (it knows ptxas's registers).
  /// ok = false (with the reason) when there is none.
  const timeline::Prediction &prediction() const;
  /// Increments whenever prediction() changes.
  uint64_t predictionVersion() const { return predictionVersion_; }
  /// The measured timeline of a run, when the runner returned one.
  const MeasuredTrace *measuredTrace(uint64_t runId) const;
  /// Why a run has no measured timeline ("" when it has one or did not run).
  std::string traceNote(uint64_t runId) const;
  /// The run whose measured timeline the panel shows: the selected run when
  /// it has one, else the newest run of the current schedule that has one.
  const RunRecord *tracedRun() const;
  /// Opens a measured timeline from a file for the open kernel: the Chrome
  /// trace of `stagecraft-run --trace FILE`, or a runner result carrying a
  /// trace. It must belong to this kernel and schedule as far as the file
  /// says (TraceMatch.h); else, or when it cannot be read, false with the
  /// status line saying the file and what is wrong. Replaces an earlier one.
  bool openMeasuredTrace(const std::string &path);
  /// The trace opened from a file (null when none).
  const LoadedTrace *loadedTrace() const { return loaded_ ? &*loaded_ : nullptr; }
  /// What the timeline panel shows as measured: a selected run's trace;
  /// else the newest of the current schedule's run traces and the loaded
  /// file (while the schedule it was loaded with is current).
  TraceView shownTrace() const;
  /// The prediction the timeline panel sets above the shown measured
  /// timeline: prediction(), or, for a trace file measured at other sizes
  /// than the IR's defaults, the same schedule predicted at the trace's.
  const timeline::Prediction &timelinePrediction() const;
  /// The cost model the predictions use (calibrated defaults).
  const timeline::HopperModel &model() const { return model_; }

  // --- Compiles.
  void recompile();
  /// The GPU compiles are for: "sm_90a" (Hopper, runs on the runner) or
  /// "sm_100a" (Blackwell: compile-only, no runner here). Recompiles.
  const std::string &target() const { return target_; }
  void setTarget(const std::string &target);
  bool compileOnly() const { return target_ != "sm_90a"; }
  const CompileView &compileView() const { return compile_; }
  /// The newest compile's error at an op of `unit` (the lowering refusing an
  /// op names its file:line:col), without the location; "" when none.
  std::string compileErrorOf(const std::string &unit) const;
  uint64_t compilesSuperseded() const { return jobs_.supersededCount(); }

  // --- Runs.
  const std::vector<RunRecord> &runs() const { return runs_; }
  /// The runs of the open IR, oldest first.
  std::vector<const RunRecord *> currentRuns() const;
  const RunRecord *findRun(uint64_t id) const;
  /// Sends a compiled variant to the runner. An automatic run (auto-run
  /// after a compile) that cannot start for want of a runner says so in the
  /// variant's record only, not in the status line: that line keeps what
  /// the user last did (a refused drop, say) instead of repeating the same
  /// warning after every compile.
  bool runVariant(uint64_t id, bool automatic = false);
  /// Runs the variant of the current schedule (compiling first if needed).
  void runCurrent();
  bool autoRun() const { return autoRun_; }
  void setAutoRun(bool on);
  RunnerClient &runner() { return runner_; }
  const RunnerClient &runner() const { return runner_; }
  void setRunnerCommand(const std::string &command);

  // --- Lessons (docs/lessons.md): a lesson opens its loop; every schedule
  // change is explained and checked against its goal.
  struct LessonEvent {
    std::string what;               // "moved MMA to stage 1, warp group 0"
    std::vector<std::string> lines; // explainChange()
    bool reachedGoal = false;       // this change completed the goal
  };
  bool openLesson(const std::string &dir);
  void closeLesson();
  bool hasLesson() const { return lessonActive_; }
  const Lesson &lesson() const { return lesson_; }
  /// The goal checked against the current schedule (and measurements).
  GoalStatus lessonStatus() const;
  /// Changes since the lesson opened, oldest first.
  const std::vector<LessonEvent> &lessonLog() const { return lessonLog_; }
  /// Back to the lesson's starting schedule (an undo step).
  bool resetLesson();

  // --- Status and housekeeping.
  const StatusMessage &status() const { return status_; }
  void setStatus(StatusLevel level, std::string text);
  /// Takes finished compiles and runner results, writes the autosave when
  /// due. Call once a frame; never blocks.
  void poll();
  /// Writes the autosave now (if enabled); "" or the error.
  std::string autosaveNow();
  SessionFile sessionFile() const;

private:
  void afterScheduleChange(const std::string &what);
  /// Makes the IR text, its graph and tile loop those of the editor's IR
  /// revision (after an undo or redo across a tile-order change).
  bool syncIrRevision();
  /// The IR at `text` becomes revision `rev`'s: graph, tile loop, costs.
  bool showIr(const std::string &text, uint64_t rev);
  /// Whether a run is of the current IR (its tile order) and `scheduleJson`.
  bool isCurrent(const RunRecord &r, const std::string &scheduleJson) const;
  void updatePrediction();
  void applyCompileOutcome(CompileOutcome outcome);
  void recordVariant(const CompileView &view);
  RunRecord *findRunMutable(uint64_t id);
  /// Gives a trace's units the board's kinds (colours), by name.
  void colourByLoop(MeasuredTrace &trace) const;
  /// A trace file measured at other sizes than the IR's defaults: the
  /// schedule predicted at its sizes (LoadedTrace::prediction), and the notes
  /// on the file of sizes that could not be used.
  void predictAtTraceSizes(LoadedTrace &trace) const;
  void addRecent(const std::string &path);
  std::string bundleDirFor(uint64_t variant) const;

  AppConfig config_;
  ScheduleEditor editor_;
  bool hasIr_ = false;
  std::string autosaveProblem_; // restoreAutosave: an unreadable autosave, moved aside
  std::string irPath_, irText_, kernel_;
  std::vector<std::string> loadDiagnostics_;
  std::string rejectedText_;
  std::vector<std::string> recent_;
  std::string selected_;
  uint64_t selectedRun_ = 0;

  timeline::HopperModel model_;
  timeline::KernelCosts costs_;
  TileLoop tileLoop_;
  std::map<TileOrder, std::string> tileOrderRefusals_;
  /// The IR text of each revision (ScheduleEditor::irRevision); the shown one.
  std::vector<std::string> irRevisions_;
  uint64_t shownRevision_ = 0;
  bool hasCosts_ = false;
  timeline::Prediction prediction_;
  uint64_t predictionVersion_ = 0;
  std::map<uint64_t, MeasuredTrace> traces_;    // by run id
  std::map<uint64_t, std::string> traceNotes_;  // by run id
  std::map<uint64_t, uint64_t> traceArrival_;   // by run id: TraceView::key
  uint64_t traceArrivals_ = 0;
  std::optional<LoadedTrace> loaded_;

  CompileJobs jobs_;
  CompileView compile_;
  std::string target_ = "sm_90a";
  std::string compileScheduleJson_; // the schedule the newest job compiles
  std::string compileTileOrder_;    // and the tile order of its IR
  bool runWhenCompiled_ = false;    // Ctrl+R before the compile finished

  RunnerClient runner_;
  std::vector<RunRecord> runs_;
  uint64_t nextVariant_ = 1;
  std::map<uint64_t, uint64_t> requestToRun_;
  bool autoRun_ = true;
  std::string sessionDir_;

  Lesson lesson_;
  bool lessonActive_ = false;
  std::string lessonStartJson_;
  Schedule lessonPrevSchedule_;
  ScheduleReport lessonPrevReport_;
  std::vector<LessonEvent> lessonLog_;

  StatusMessage status_;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point lastAutosave_;
};

/// Formats bytes as "160 KiB" / "1.5 MiB".
std::string formatBytes(int64_t bytes);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_APPSTATE_H
