//===- AppState.cpp - the session and its commands, without drawing -------===//
#include "app/AppState.h"
#include "app/SessionLoader.h"
#include "app/TraceMatch.h"

#include "passes/Driver/Export.h"
#include "passes/TileOrderText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <ctime>
#include <unistd.h>

using namespace stagecraft;
using namespace stagecraft::app;
using Clock = std::chrono::steady_clock;

std::string stagecraft::app::formatBytes(int64_t bytes) {
  char buf[64];
  if (bytes < 1024)
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  else if (bytes < 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / (1024.0 * 1024.0));
  std::string s = buf;
  // "160.0 KiB" reads worse than "160 KiB".
  size_t dot = s.find(".0 ");
  if (dot != std::string::npos)
    s.erase(dot, 2);
  return s;
}

std::string CompileView::firstError() const {
  const CompileResult *r = result();
  if (!r)
    return "";
  for (const std::string &d : r->diagnostics)
    if (d.find("error:") != std::string::npos)
      return d;
  if (r->status == CompileResult::Status::Error)
    return r->diagnostics.empty() ? "the compile failed without a diagnostic"
                                  : r->diagnostics.front();
  return "";
}

std::string AppState::compileErrorOf(const std::string &unit) const {
  const CompileResult *r = compile_.result();
  if (!r || r->ok() || !hasIr_)
    return "";
  const LoopGraph &g = editor_.graph();
  int u = g.findUnit(unit);
  if (u < 0)
    return "";
  for (const std::string &d : r->diagnostics) {
    size_t at = d.find(": error: ");
    if (at == std::string::npos)
      continue;
    std::string loc = d.substr(0, at);
    for (unsigned op : g.units[u].ops)
      if (!g.ops[op].location.empty() && g.ops[op].location == loc)
        return d.substr(at + 9);
    if (llvm::is_contained(g.units[u].followerLocations, loc))
      return d.substr(at + 9);
  }
  return "";
}

/// The one spelling of a file's path (autosave matches files by it).
static std::string absolutePath(const std::string &path) {
  if (path.empty())
    return path;
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
  return ec ? path : p.string();
}

AppState::AppState(AppConfig config)
    : config_(std::move(config)),
      jobs_(config_.backend.compile ? config_.backend
                                    : CompileBackend::driver()),
      runner_([&] {
        RunnerOptions o = config_.runnerOptions;
        o.command = config_.runnerCommand;
        return o;
      }()) {
  // Bundles of this session go in their own directory, so two app
  // instances never overwrite each other's.
  std::string root =
      config_.bundleRoot.empty() ? cacheDirectory() + "/bundles" : config_.bundleRoot;
  char stamp[64];
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  sessionDir_ = root + "/session-" + stamp + "-" + std::to_string(getpid());
  // The runner's probe goes beside the bundles: a runner that cannot read it
  // gets them inside its requests (RunnerClient, UploadMode::Auto).
  runner_.setProbeDir(sessionDir_);
  // Without a command this only records why runs are not possible.
  if (config_.startRunner || config_.runnerCommand.empty())
    runner_.start();
  lastAutosave_ = Clock::now();
  setStatus(StatusLevel::Info, "ready");
}

AppState::~AppState() {
  if (dirty_)
    autosaveNow();
}

void AppState::setStatus(StatusLevel level, std::string text) {
  status_.level = level;
  status_.text = std::move(text);
  status_.at = Clock::now();
}

void AppState::addRecent(const std::string &path) {
  if (path.empty())
    return;
  recent_.erase(std::remove(recent_.begin(), recent_.end(), path),
                recent_.end());
  recent_.insert(recent_.begin(), path);
  if (recent_.size() > 10)
    recent_.resize(10);
}

// --- Files -----------------------------------------------------------------

bool AppState::openFile(const std::string &path) {
  std::string text, error;
  std::string abs = absolutePath(path);
  if (!readFile(abs, text, error)) {
    setStatus(StatusLevel::Error, error);
    return false;
  }
  return openText(text, abs);
}

bool AppState::openText(const std::string &text, const std::string &path,
                        const Schedule *schedule) {
  std::string name = path.empty() ? "<untitled>" : path;
  LoadedIr loaded = loadLoopIr(text, name);
  loadDiagnostics_ = loaded.diagnostics;
  rejectedText_ = loaded.ok ? "" : text;
  if (!loaded.ok) {
    setStatus(StatusLevel::Error,
              "cannot open " + name + ": " +
                  (loaded.diagnostics.empty() ? "" : loaded.diagnostics.front()));
    return false;
  }
  Schedule initial = loaded.graph.initialSchedule;
  initial.kernel = loaded.kernel;
  std::string scheduleProblem;
  if (schedule) {
    for (const ScheduleEntry &e : schedule->entries())
      if (loaded.graph.findUnit(e.name) < 0)
        scheduleProblem = "the saved schedule names \"" + e.name +
                          "\", which this loop does not have; using the IR's";
    if (scheduleProblem.empty())
      for (const ScheduleEntry &e : schedule->entries())
        initial.set(e.name, e.sched);
  }
  editor_ = ScheduleEditor(std::move(loaded.graph), initial);
  if (lessonActive_ && path != lesson_.irPath)
    closeLesson(); // another file: the lesson is over
  costs_ = std::move(loaded.costs);
  hasCosts_ = loaded.hasCosts;
  tileLoop_ = std::move(loaded.tileLoop);
  tileOrderRefusals_ = std::move(loaded.tileOrderRefusals);
  irRevisions_ = {text};
  shownRevision_ = 0;
  hasIr_ = true;
  irPath_ = path;
  irText_ = text;
  kernel_ = loaded.kernel;
  loaded_.reset(); // a trace belongs to the kernel it was loaded for
  selected_.clear();
  selectedRun_ = 0;
  compile_ = CompileView();
  addRecent(path);
  if (!scheduleProblem.empty())
    setStatus(StatusLevel::Warning, scheduleProblem);
  else if (!loaded.otherKernels.empty())
    setStatus(StatusLevel::Warning,
              "opened " + name + ": kernel " + kernel_ + ", the first of " +
                  std::to_string(1 + loaded.otherKernels.size()) + " (not shown: " +
                  llvm::join(loaded.otherKernels, ", ") +
                  "; the app shows one kernel a file: move the others to files of their own)");
  else
    setStatus(StatusLevel::Ok, "opened " + name + " (kernel " + kernel_ + ", " +
                                   std::to_string(editor_.graph().units.size()) +
                                   " ops in the loop)");
  dirty_ = true;
  recompile();
  return true;
}

bool AppState::restoreSession(const SessionFile &s) {
  recent_ = s.recentFiles;
  runs_ = s.runs;
  nextVariant_ = s.nextVariant;
  autoRun_ = s.autoRun;
  target_ = s.target;
  if (!s.runnerCommand.empty() && config_.runnerCommand.empty())
    setRunnerCommand(s.runnerCommand);
  if (s.irText.empty() && s.irPath.empty())
    return false;
  // Prefer the file on disk when it still has the autosaved text; otherwise
  // the autosaved text (the file was moved or changed since).
  std::string onDisk, error;
  bool same = !s.irPath.empty() && readFile(s.irPath, onDisk, error) &&
              onDisk == s.irText;
  llvm::Expected<Schedule> schedule =
      Schedule::fromJson(s.scheduleJson, "autosave schedule");
  const Schedule *sched = nullptr;
  Schedule parsed;
  if (schedule) {
    parsed = std::move(*schedule);
    sched = &parsed;
  } else {
    llvm::consumeError(schedule.takeError());
  }
  std::vector<std::string> keepRecent = recent_;
  bool ok = openText(same || s.irText.empty() ? onDisk : s.irText, s.irPath,
                     sched);
  recent_ = keepRecent;
  addRecent(s.irPath);
  if (ok)
    setStatus(StatusLevel::Ok,
              std::string("restored the last session") +
                  (same ? "" : " (from the autosaved copy of the IR: the file "
                               "on disk is missing or changed)"));
  // The lesson the student was in, at the schedule they had reached (a
  // restart lost the lesson panel; --lesson started it over and the next
  // autosave forgot their variant: the fourteenth sweep's B4).
  if (ok && !s.lessonDir.empty()) {
    std::string said = status_.text;
    bool fromCopy = !same;
    if (!resumeLesson(s.lessonDir, s.lessonStartJson))
      setStatus(StatusLevel::Warning, said + "; the lesson in progress (" + s.lessonDir +
                                          ") could not be resumed: it is missing or no longer "
                                          "this kernel's (Help > Lessons opens it anew)");
    else if (fromCopy) // the lessons changed on disk since: say so, not just "resumed"
      setStatus(StatusLevel::Warning,
                status_.text + " (from the autosaved copy of its kernel: the lesson's file is "
                               "missing or changed since; reopen it from Help > Lessons for "
                               "the new one)");
  }
  return ok;
}

bool AppState::resumeLesson(const std::string &dir, const std::string &startJson) {
  llvm::Expected<Lesson> lesson = loadLesson(dir);
  if (!lesson) {
    llvm::consumeError(lesson.takeError());
    return false;
  }
  if (absolutePath(lesson->irPath) != irPath_ ||
      !checkLessonAgainst(*lesson, editor_.graph()).empty())
    return false;
  lesson_ = std::move(*lesson);
  lessonActive_ = true;
  lessonStartJson_ = startJson.empty() ? editor_.schedule().toJson() : startJson;
  lessonPrevSchedule_ = editor_.schedule();
  lessonPrevReport_ = editor_.report();
  lessonLog_.clear();
  setStatus(StatusLevel::Ok, "resumed the lesson: " + lesson_.title);
  return true;
}

bool AppState::restoreAutosave() {
  if (config_.autosavePath.empty())
    return false;
  SessionFile s;
  if (!readAutosave(config_.autosavePath, s, autosaveProblem_)) {
    if (!autosaveProblem_.empty())
      setStatus(StatusLevel::Warning, autosaveProblem_);
    return false;
  }
  return restoreSession(s);
}

bool AppState::saveIr(const std::string &path) {
  if (!hasIr_)
    return false;
  std::string out, error;
  if (!scheduledIrText(irText_, irPath_.empty() ? "<untitled>" : irPath_,
                       editor_.schedule(), out, error)) {
    setStatus(StatusLevel::Error, "cannot save the IR: " + error);
    return false;
  }
  std::string abs = absolutePath(path);
  std::string werr = writeFileAtomically(abs, out);
  if (!werr.empty()) {
    setStatus(StatusLevel::Error, werr);
    return false;
  }
  // The saved file is now the session's IR: its schedule is the board's.
  irText_ = out;
  irRevisions_[shownRevision_] = out;
  irPath_ = abs;
  addRecent(abs);
  dirty_ = true;
  setStatus(StatusLevel::Ok, "saved the IR with this schedule to " + abs);
  return true;
}

bool AppState::saveSchedule(const std::string &path) {
  if (!hasIr_)
    return false;
  std::string err = writeFileAtomically(absolutePath(path),
                                        editor_.schedule().toJson());
  if (!err.empty()) {
    setStatus(StatusLevel::Error, err);
    return false;
  }
  setStatus(StatusLevel::Ok, "saved the schedule to " + path);
  return true;
}

bool AppState::loadSchedule(const std::string &path) {
  if (!hasIr_)
    return false;
  std::string text, error;
  if (!readFile(path, text, error)) {
    setStatus(StatusLevel::Error, error);
    return false;
  }
  llvm::Expected<Schedule> s = Schedule::fromJson(text, path);
  if (!s) {
    setStatus(StatusLevel::Error, llvm::toString(s.takeError()));
    return false;
  }
  if (!s->kernel.empty() && s->kernel != kernel_) {
    setStatus(StatusLevel::Error, path + " is a schedule for kernel " +
                                      s->kernel + ", not " + kernel_);
    return false;
  }
  std::string problem = editor_.replace(*s);
  if (!problem.empty()) {
    setStatus(StatusLevel::Error, path + ": " + problem);
    return false;
  }
  afterScheduleChange("loaded the schedule " + path);
  if (!editor_.report().legal())
    setStatus(StatusLevel::Warning,
              "loaded " + path + ": this schedule is illegal: " +
                  editor_.report().violations.front().message);
  return true;
}

bool AppState::exportKernel(const std::string &dir) {
  if (!hasIr_)
    return false;
  std::string json = editor_.schedule().toJson();
  const RunRecord *variant = nullptr;
  for (const RunRecord &r : runs_)
    if (isCurrent(r, json) && !r.bundleDir.empty() && r.state != RunState::CompileFailed)
      variant = &r;
  if (!variant) {
    setStatus(StatusLevel::Error,
              compile_.state == CompileView::State::Compiling
                  ? "export: this schedule is still compiling; export it when it has compiled"
                  : "export: this schedule has no compiled variant (see the compile output)");
    return false;
  }
  ExportOptions options;
  options.bundleDir = variant->bundleDir;
  options.outDir = absolutePath(dir);
  if (variant->state == RunState::Done && variant->status == "ok") {
    ExportMeasurement m;
    m.device = variant->device;
    m.verified = variant->verified;
    m.tflops = variant->tflops;
    m.medianUs = variant->medianUs;
    m.referenceTflops = variant->referenceTflops;
    options.measured = m;
  }
  if (llvm::Error e = exportPackage(options)) {
    setStatus(StatusLevel::Error, "export: " + llvm::toString(std::move(e)));
    return false;
  }
  setStatus(StatusLevel::Ok, "exported variant #" + std::to_string(variant->id) + " to " +
                                 options.outDir + " (its README.md says how to call it)");
  return true;
}

// --- Edits -----------------------------------------------------------------

void AppState::afterScheduleChange(const std::string &what) {
  dirty_ = true;
  setStatus(StatusLevel::Ok, what);
  if (lessonActive_) {
    bool wasComplete =
        evaluateGoal(lesson_, editor_.graph(), lessonPrevSchedule_, lessonPrevReport_).complete();
    LessonEvent e;
    e.what = what;
    e.lines = explainChange(editor_.graph(), lessonPrevSchedule_, lessonPrevReport_,
                            editor_.schedule(), editor_.report());
    e.reachedGoal = !wasComplete && lessonStatus().complete();
    lessonLog_.push_back(std::move(e));
    lessonPrevSchedule_ = editor_.schedule();
    lessonPrevReport_ = editor_.report();
    if (lessonLog_.back().reachedGoal)
      setStatus(StatusLevel::Ok, what + ": goal reached, lesson \"" + lesson_.title + "\" done");
  }
  recompile();
}

// --- Lessons ---------------------------------------------------------------

bool AppState::openLesson(const std::string &dir) {
  llvm::Expected<Lesson> lesson = loadLesson(dir);
  if (!lesson) {
    setStatus(StatusLevel::Error, "cannot open the lesson: " + llvm::toString(lesson.takeError()));
    return false;
  }
  closeLesson();
  if (!openFile(lesson->irPath))
    return false;
  std::string problem = checkLessonAgainst(*lesson, editor_.graph());
  if (!problem.empty()) {
    setStatus(StatusLevel::Error, "cannot open the lesson: " + problem);
    return false;
  }
  lesson_ = std::move(*lesson);
  lessonActive_ = true;
  lessonStartJson_ = editor_.schedule().toJson();
  lessonPrevSchedule_ = editor_.schedule();
  lessonPrevReport_ = editor_.report();
  lessonLog_.clear();
  setStatus(StatusLevel::Ok, "lesson: " + lesson_.title);
  return true;
}

void AppState::closeLesson() {
  lessonActive_ = false;
  lessonLog_.clear();
}

GoalStatus AppState::lessonStatus() const {
  if (!lessonActive_)
    return {};
  Measurements m;
  std::string now = editor_.schedule().toJson();
  for (const RunRecord &r : runs_) {
    if (r.irPath != irPath_ || !r.verified || !r.tflops)
      continue;
    if (r.scheduleJson == lessonStartJson_)
      m.startTflops = r.tflops;
    if (r.scheduleJson == now)
      m.currentTflops = r.tflops;
  }
  return evaluateGoal(lesson_, editor_.graph(), editor_.schedule(), editor_.report(), m);
}

bool AppState::resetLesson() {
  if (!lessonActive_)
    return false;
  llvm::Expected<Schedule> start = Schedule::fromJson(lessonStartJson_, "the lesson's start");
  if (!start) {
    setStatus(StatusLevel::Error, llvm::toString(start.takeError()));
    return false;
  }
  std::string problem = editor_.replace(*start);
  if (!problem.empty()) {
    setStatus(StatusLevel::Error, problem);
    return false;
  }
  afterScheduleChange("back to the lesson's starting schedule");
  return true;
}

MoveOutcome AppState::moveUnit(const std::string &unit, const MoveTarget &to) {
  MoveOutcome out = editor_.move(unit, to);
  if (!out.applied) {
    setStatus(StatusLevel::Error, "refused: " + out.explanation);
    return out;
  }
  selected_ = unit;
  if (out.changed) {
    OpSchedule s = editor_.unitSchedule(editor_.graph().findUnit(unit));
    afterScheduleChange("moved " + unit + " to stage " +
                        std::to_string(s.stage) + ", warp group " +
                        std::to_string(s.group));
  }
  return out;
}

MoveOutcome AppState::setWait(const std::string &unit, int64_t wait) {
  MoveOutcome out = editor_.setWait(unit, wait);
  if (!out.applied)
    setStatus(StatusLevel::Error, "refused: " + out.explanation);
  else if (out.changed)
    afterScheduleChange(unit + " now leaves " + std::to_string(wait) +
                        " wgmma group(s) in flight");
  return out;
}

MoveOutcome AppState::setConsumers(Consumers consumers) {
  MoveOutcome out = editor_.setConsumers(consumers);
  if (!out.applied)
    setStatus(StatusLevel::Error, "refused: " + out.explanation);
  else if (out.changed)
    afterScheduleChange(consumers == Consumers::PingPong
                            ? "the consumer warp groups now ping-pong (each its own tile)"
                        : consumers == Consumers::Staggered
                            ? "the consumer warp groups now take turns at the dots"
                            : "the consumer warp groups now cooperate on each tile");
  return out;
}

MoveOutcome AppState::setCluster(int64_t cluster) {
  MoveOutcome out = editor_.setCluster(cluster);
  if (!out.applied) {
    setStatus(StatusLevel::Error, "refused: " + out.explanation);
  } else if (out.changed) {
    const std::vector<std::string> &shared = editor_.report().sharedLoads;
    std::string loads;
    for (const std::string &l : shared)
      loads += (loads.empty() ? "" : ", ") + l;
    afterScheduleChange(cluster == 1 ? std::string("no cluster: every CTA loads its own tiles")
                        : loads.empty()
                            ? "clusters of " + std::to_string(cluster) +
                                  " CTAs, but no load is the same in each: nothing is shared"
                            : "clusters of " + std::to_string(cluster) + " CTAs now share " +
                                  loads + " (loaded once per cluster, multicast)");
  }
  return out;
}

MoveOutcome AppState::setRegisters(int64_t group, int64_t budget) {
  MoveOutcome out = editor_.setRegisters(group, budget);
  if (!out.applied) {
    setStatus(StatusLevel::Error, "refused: " + out.explanation);
    return out;
  }
  if (!out.changed)
    return out;
  std::string what =
      budget ? "warp group " + std::to_string(group) + "'s register budget is now " +
                   std::to_string(budget) + " (setmaxnreg)"
             : "warp group " + std::to_string(group) + " takes the default register budget";
  afterScheduleChange(what);
  // Legal or not, the edit stands; say why it cannot compile.
  if (!out.explanation.empty())
    setStatus(StatusLevel::Error, what + ", which is illegal: " + out.explanation);
  return out;
}

bool AppState::undo() {
  if (!editor_.undo()) {
    setStatus(StatusLevel::Info, "nothing to undo");
    return false;
  }
  syncIrRevision();
  afterScheduleChange("undone");
  return true;
}

bool AppState::redo() {
  if (!editor_.redo()) {
    setStatus(StatusLevel::Info, "nothing to redo");
    return false;
  }
  syncIrRevision();
  afterScheduleChange("redone");
  return true;
}

bool AppState::restoreRun(uint64_t runId) {
  const RunRecord *r = findRun(runId);
  if (!r || !hasIr_)
    return false;
  selectedRun_ = runId;
  llvm::Expected<Schedule> s = Schedule::fromJson(r->scheduleJson, "run");
  if (!s) {
    setStatus(StatusLevel::Error, llvm::toString(s.takeError()));
    return false;
  }
  // Its tile order too, when the IR's is another: the variant was that IR.
  std::string order = r->tileOrder;
  if (!order.empty() && order != tileOrderSpec() && order != "custom") {
    TileOrderChoice choice;
    std::string error;
    if (!TileOrderChoice::parse(order, choice, error) || !setTileOrder(choice))
      return false;
  }
  std::string problem = editor_.replace(*s);
  if (!problem.empty()) {
    setStatus(StatusLevel::Error, problem);
    return false;
  }
  afterScheduleChange("restored the schedule of variant #" +
                      std::to_string(runId));
  return true;
}

std::string AppState::tileOrderRefusal(TileOrder order) const {
  auto it = tileOrderRefusals_.find(order);
  return it == tileOrderRefusals_.end() ? "" : it->second;
}

bool AppState::setTileOrder(const TileOrderChoice &choice) {
  if (!hasIr_)
    return false;
  if (!tileLoop_.persistent) {
    setStatus(StatusLevel::Error, "refused: " + kernel_ +
                                      " is not a persistent kernel: it has no tile loop whose "
                                      "order could be set");
    return false;
  }
  if (choice.spec() == tileOrderSpec())
    return true; // already so
  std::string name = irPath_.empty() ? "<untitled>" : irPath_;
  TileOrderTextResult r = setTileOrderInText(irText_, name, choice, kernel_);
  if (!r.ok) {
    setStatus(StatusLevel::Error,
              "refused: the tile order cannot be set to " + choice.spec() + ": " +
                  (r.diagnostics.empty() ? std::string("the rewrite failed") : r.diagnostics[0]));
    return false;
  }
  uint64_t rev = irRevisions_.size();
  irRevisions_.push_back(r.text);
  if (!showIr(r.text, rev)) {
    irRevisions_.pop_back();
    return false;
  }
  editor_.commitIrRevision(rev);
  std::string what = "tile order " + tileLoop_.orderName() + ": the tile loop's index "
                     "arithmetic in the IR is rewritten";
  if (r.reprinted)
    what += " (the IR was printed anew: its comments and layout are gone)";
  afterScheduleChange(what);
  return true;
}

bool AppState::showIr(const std::string &text, uint64_t rev) {
  std::string name = irPath_.empty() ? "<untitled>" : irPath_;
  LoadedIr loaded = loadLoopIr(text, name);
  if (!loaded.ok || !editor_.setGraph(std::move(loaded.graph))) {
    setStatus(StatusLevel::Error,
              "the rewritten IR does not load: " +
                  (loaded.diagnostics.empty() ? std::string("its loop's units changed")
                                              : loaded.diagnostics.front()));
    return false;
  }
  irText_ = text;
  costs_ = std::move(loaded.costs);
  hasCosts_ = loaded.hasCosts;
  tileLoop_ = std::move(loaded.tileLoop);
  tileOrderRefusals_ = std::move(loaded.tileOrderRefusals);
  shownRevision_ = rev;
  return true;
}

bool AppState::syncIrRevision() {
  uint64_t rev = editor_.irRevision();
  if (rev == shownRevision_ || rev >= irRevisions_.size())
    return true;
  return showIr(irRevisions_[rev], rev);
}

bool AppState::isCurrent(const RunRecord &r, const std::string &scheduleJson) const {
  return r.irPath == irPath_ && r.scheduleJson == scheduleJson && r.tileOrder == tileOrderSpec();
}

// --- Compiles --------------------------------------------------------------

std::string AppState::bundleDirFor(uint64_t variant) const {
  return sessionDir_ + "/variant-" + std::to_string(variant);
}

void AppState::updatePrediction() {
  ++predictionVersion_;
  if (!hasCosts_) {
    prediction_ = timeline::Prediction();
    prediction_.error = "the unit costs of this kernel could not be read (see the load diagnostics)";
    return;
  }
  if (!editor_.report().legal()) {
    prediction_ = timeline::Prediction();
    prediction_.error = "the schedule is illegal";
    return;
  }
  prediction_ = timeline::predict(editor_.graph(), editor_.schedule(), editor_.report(), costs_,
                                  model_);
}

const timeline::Prediction &AppState::prediction() const {
  // The full compile of this schedule refines it with ptxas's registers.
  if (compile_.hasFull && compile_.full.ok() && compile_.full.prediction.ok)
    return compile_.full.prediction;
  return prediction_;
}

void AppState::predictAtTraceSizes(LoadedTrace &trace) const {
  // Measured at other sizes than the IR's defaults (stagecraft-compile
  // --size): the schedule predicted at the trace's sizes, for the panel, so
  // that its two lanes are of one problem.
  const std::vector<std::pair<std::string, int64_t>> &given = trace.file.sizes;
  if (!hasCosts_ || given.empty())
    return;
  std::vector<std::pair<std::string, int64_t>> known; // in the IR's order
  bool differ = false;
  for (const auto &[name, value] : costs_.sizes) {
    auto t = std::find_if(given.begin(), given.end(), [&](const auto &x) { return x.first == name; });
    if (t == given.end())
      continue;
    known.emplace_back(name, t->second);
    differ |= t->second != value;
  }
  std::string unknown;
  for (const auto &[name, value] : given)
    if (std::none_of(known.begin(), known.end(), [&](const auto &x) { return x.first == name; }))
      unknown += (unknown.empty() ? "" : ", ") + name;
  if (!unknown.empty())
    trace.file.notes.push_back("its sizes " + unknown + " are none of this kernel's");
  if (!differ)
    return;
  auto text = [](const std::vector<std::pair<std::string, int64_t>> &v) {
    std::string t;
    for (const auto &[name, value] : v)
      t += (t.empty() ? "" : " ") + name + "=" + std::to_string(value);
    return t;
  };
  timeline::KernelCosts costs;
  std::string why;
  if (!kernelCostsAt(irText_, irPath_.empty() ? "<untitled>" : irPath_, editor_.graph(), known, costs,
                     why)) {
    trace.file.notes.push_back("it was measured at " + text(known) +
                               ", where the schedule cannot be predicted (" + why +
                               "): the predicted timeline is at the IR's default sizes");
    return;
  }
  trace.prediction =
      timeline::predict(editor_.graph(), editor_.schedule(), editor_.report(), costs, model_);
  trace.sizes = text(known);
  trace.defaultSizes = text(costs_.sizes);
}

const timeline::Prediction &AppState::timelinePrediction() const {
  TraceView shown = shownTrace();
  if (shown.file && shown.file->prediction)
    return *shown.file->prediction;
  return prediction();
}

const MeasuredTrace *AppState::measuredTrace(uint64_t runId) const {
  auto it = traces_.find(runId);
  return it == traces_.end() ? nullptr : &it->second;
}

std::string AppState::traceNote(uint64_t runId) const {
  auto it = traceNotes_.find(runId);
  return it == traceNotes_.end() ? "" : it->second;
}

const RunRecord *AppState::tracedRun() const {
  if (const RunRecord *r = findRun(selectedRun_); r && traces_.count(r->id))
    return r;
  const RunRecord *best = nullptr;
  std::string json = hasIr_ ? editor_.schedule().toJson() : "";
  for (const RunRecord &r : runs_)
    if (isCurrent(r, json) && traces_.count(r.id))
      best = &r;
  return best;
}

void AppState::colourByLoop(MeasuredTrace &trace) const {
  for (MeasuredCta &c : trace.ctas)
    for (timeline::TimelineUnit &u : c.timeline.units) {
      int g = editor_.graph().findUnit(u.name);
      if (g >= 0)
        u.kind = editor_.graph().units[g].kind == UnitKind::Load  ? timeline::ZoneKind::Load
                 : editor_.graph().units[g].kind == UnitKind::Dot ? timeline::ZoneKind::Dot
                                                                  : timeline::ZoneKind::Compute;
    }
}

bool AppState::openMeasuredTrace(const std::string &path) {
  std::string abs = absolutePath(path);
  if (!hasIr_) {
    setStatus(StatusLevel::Error, "cannot show the measured timeline " + abs +
                                      ": open the IR of its kernel first");
    return false;
  }
  MeasuredTraceFile file;
  std::string error;
  if (!readMeasuredTraceFile(abs, file, error)) {
    setStatus(StatusLevel::Error, "cannot read the measured timeline " + abs + ": " + error);
    return false;
  }
  std::string mismatch = checkTraceMatches(file, kernel_, editor_.graph(), editor_.schedule());
  if (!mismatch.empty()) {
    setStatus(StatusLevel::Error,
              "the measured timeline " + abs + " is not of this kernel and schedule: " + mismatch);
    return false;
  }
  colourByLoop(file.trace);
  std::string what = "showing the measured timeline " + abs + " (" +
                     std::to_string(file.trace.ctas.size()) + " sampled CTAs, " +
                     std::to_string(file.eventCount()) + " zones" +
                     (file.device.empty() ? "" : ", " + file.device);
  LoadedTrace loaded{abs, std::move(file), irPath_, editor_.schedule().toJson(), tileOrderSpec(),
                     ++traceArrivals_};
  predictAtTraceSizes(loaded);
  if (!loaded.sizes.empty())
    what += ", measured and predicted at " + loaded.sizes;
  what += ")";
  std::string notes;
  for (const std::string &n : loaded.file.notes)
    notes += "; " + n;
  loaded_ = std::move(loaded);
  // A selected run's trace would hide it.
  selectedRun_ = 0;
  if (notes.empty())
    setStatus(StatusLevel::Ok, what);
  else
    setStatus(StatusLevel::Warning, what + ", checked only as far as the file says" + notes);
  return true;
}

TraceView AppState::shownTrace() const {
  TraceView v;
  const RunRecord *run = tracedRun();
  bool selected = run && run->id == selectedRun_;
  bool fileCurrent = loaded_ && hasIr_ && loaded_->irPath == irPath_ &&
                     loaded_->scheduleJson == editor_.schedule().toJson() &&
                     loaded_->tileOrder == tileOrderSpec();
  auto arrival = [&](uint64_t id) {
    auto it = traceArrival_.find(id);
    return it == traceArrival_.end() ? 0 : it->second;
  };
  if (run && (selected || !fileCurrent || arrival(run->id) > loaded_->arrival)) {
    v.trace = measuredTrace(run->id);
    v.run = run;
    v.source = "variant #" + std::to_string(run->id);
    v.device = run->device;
    v.key = arrival(run->id);
  } else if (fileCurrent) {
    v.trace = &loaded_->file.trace;
    v.file = &*loaded_;
    v.source = llvm::sys::path::filename(loaded_->path).str();
    v.device = loaded_->file.device;
    v.key = loaded_->arrival;
  }
  return v;
}

void AppState::recompile() {
  if (!hasIr_)
    return;
  updatePrediction();
  CompileRequest req;
  req.source = irText_;
  req.sourceName = irPath_.empty() ? "<untitled>" : irPath_;
  req.options.scheduleJson = editor_.schedule().toJson();
  req.options.scheduleSource = "the board's schedule";
  req.options.consumers = editor_.consumers();
  req.options.cluster = editor_.cluster();
  req.options.kernel = kernel_;
  req.options.target = target_;
  // The instrumented kernel for the Timeline panel's measured lanes, when a
  // runner that traces can run the bundle (built after the PTX: the drag's
  // feedback does not wait for it).
  req.options.emitTimeline = target_ == "sm_90a" && !config_.runnerCommand.empty() &&
                             config_.runnerOptions.trace;
  req.scheduleOnly = !config_.fullCompile;
  compileScheduleJson_ = req.options.scheduleJson;
  compileTileOrder_ = tileOrderSpec();
  // The bundle directory is claimed by the variant only if it compiles;
  // name it by job so superseded jobs never clash with a variant's.
  req.bundleDir = sessionDir_ + "/job-" + std::to_string(jobs_.newest() + 1);
  uint64_t id = jobs_.submit(std::move(req));
  compile_ = CompileView();
  compile_.state = CompileView::State::Compiling;
  compile_.job = id;
  compile_.started = Clock::now();
}

void AppState::setTarget(const std::string &target) {
  if (target == target_)
    return;
  target_ = target;
  dirty_ = true;
  setStatus(StatusLevel::Info, compileOnly() ? "target " + target +
                                                   ": compile-only, there is no runner for it"
                                             : "target " + target);
  recompile();
}

void AppState::applyCompileOutcome(CompileOutcome o) {
  if (o.job != compile_.job)
    return; // stale (CompileJobs already drops these; belt and braces)
  if (o.phase == CompileOutcome::Phase::ScheduleChecked) {
    compile_.hasChecked = true;
    compile_.checkedSeconds = o.seconds;
    compile_.checked = std::move(o.result);
    if (compile_.checked.status == CompileResult::Status::Error) {
      compile_.state = CompileView::State::Error;
    } else if (!config_.fullCompile) {
      compile_.state = CompileView::State::Ok;
    }
    return;
  }
  if (o.phase == CompileOutcome::Phase::Ptx) {
    // Shown at once; the reference, the cubin and the bundle follow.
    compile_.hasPtx = true;
    compile_.ptxSeconds = o.seconds;
    compile_.withPtx = std::move(o.result);
    return;
  }
  compile_.hasFull = true;
  compile_.fullSeconds = o.seconds;
  compile_.full = std::move(o.result);
  compile_.withPtx = CompileResult(); // the full result has all of it
  ++predictionVersion_; // prediction() now comes from the compile
  compile_.bundleDir = o.bundleDir;
  compile_.bundleError = o.bundleError;
  if (compile_.full.status == CompileResult::Status::Cancelled)
    return; // a newer job follows
  compile_.state = compile_.full.ok() && o.bundleError.empty()
                       ? CompileView::State::Ok
                       : CompileView::State::Error;
  recordVariant(compile_);
}

void AppState::recordVariant(const CompileView &view) {
  const CompileResult &r = view.full;
  // One record per distinct schedule of this IR: recompiling a schedule
  // (undo back to it) updates its record instead of adding a twin.
  RunRecord *rec = nullptr;
  for (RunRecord &x : runs_)
    if (x.irPath == irPath_ && x.scheduleJson == compileScheduleJson_ &&
        x.tileOrder == compileTileOrder_ && x.target == target_)
      rec = &x;
  bool isNew = !rec;
  if (isNew) {
    runs_.emplace_back();
    rec = &runs_.back();
    rec->id = nextVariant_++;
    rec->irPath = irPath_;
    rec->scheduleJson = compileScheduleJson_;
    rec->tileOrder = compileTileOrder_;
    rec->target = target_;
  }
  const ScheduleReport &rep = editor_.report();
  rec->steadyState = r.steadyState.empty() ? rep.steadyState : r.steadyState;
  rec->stages = rep.numStages;
  rec->smemBytes = rep.smemBytes;
  rec->compileSeconds = view.seconds();
  selectedRun_ = rec->id;
  dirty_ = true;
  if (view.state == CompileView::State::Error) {
    if (rec->state != RunState::Done) { // keep an earlier measurement
      rec->state = RunState::CompileFailed;
      rec->error = view.bundleError.empty() ? view.firstError() : view.bundleError;
    }
    runWhenCompiled_ = false;
    return;
  }
  rec->error.clear();
  // Move the job's bundle to the variant's own directory.
  std::string dir = bundleDirFor(rec->id);
  llvm::sys::fs::remove_directories(dir);
  if (std::error_code ec = llvm::sys::fs::rename(view.bundleDir, dir))
    dir = view.bundleDir;
  rec->bundleDir = dir;
  rec->registers = r.ptxas.ran ? r.ptxas.registers : -1;
  rec->spillBytes = r.ptxas.ran ? r.ptxas.spillStoreBytes + r.ptxas.spillLoadBytes : 0;
  bool measured = rec->state == RunState::Done && rec->status == "ok";
  if (!measured)
    rec->state = RunState::Compiled;
  if (rec->target == "sm_90a" && ((autoRun_ && !measured) || runWhenCompiled_))
    runVariant(rec->id, /*automatic=*/!runWhenCompiled_);
  runWhenCompiled_ = false;
}

// --- Runs ------------------------------------------------------------------

std::vector<const RunRecord *> AppState::currentRuns() const {
  std::vector<const RunRecord *> out;
  for (const RunRecord &r : runs_)
    if (r.irPath == irPath_)
      out.push_back(&r);
  return out;
}

const RunRecord *AppState::findRun(uint64_t id) const {
  for (const RunRecord &r : runs_)
    if (r.id == id)
      return &r;
  return nullptr;
}

RunRecord *AppState::findRunMutable(uint64_t id) {
  for (RunRecord &r : runs_)
    if (r.id == id)
      return &r;
  return nullptr;
}

bool AppState::runVariant(uint64_t id, bool automatic) {
  RunRecord *r = findRunMutable(id);
  if (!r)
    return false;
  if (r->bundleDir.empty() || !llvm::sys::fs::exists(r->bundleDir + "/manifest.json")) {
    setStatus(StatusLevel::Error, "variant #" + std::to_string(id) +
                                      " has no bundle to run (it did not compile)");
    return false;
  }
  if (r->target != "sm_90a") {
    setStatus(StatusLevel::Warning, "variant #" + std::to_string(id) + " is compiled for " +
                                        r->target + ": compile-only, there is no runner for it");
    return false;
  }
  if (r->state == RunState::Queued || r->state == RunState::Running)
    return true;
  if (runner_.state() == RunnerState::Unavailable) {
    r->state = RunState::NotRun;
    r->error = runner_.stateText();
    if (!automatic)
      setStatus(StatusLevel::Warning, "variant #" + std::to_string(id) +
                                          " not run: " + runner_.stateText());
    dirty_ = true;
    return false;
  }
  r->request = runner_.submit(r->bundleDir);
  r->state = RunState::Queued;
  r->error.clear();
  requestToRun_[r->request] = id;
  setStatus(StatusLevel::Info, "variant #" + std::to_string(id) + " sent to the runner");
  return true;
}

void AppState::runCurrent() {
  if (compileOnly()) {
    setStatus(StatusLevel::Warning,
              "target " + target_ + " is compile-only: there is no runner for it");
    return;
  }
  std::string json = editor_.schedule().toJson();
  for (const RunRecord &r : runs_)
    if (isCurrent(r, json) && r.state != RunState::CompileFailed && !r.bundleDir.empty()) {
      runVariant(r.id);
      return;
    }
  // Not compiled yet (or still compiling): run it when the compile is done.
  runWhenCompiled_ = true;
  if (compile_.state != CompileView::State::Compiling)
    recompile();
  setStatus(StatusLevel::Info, "will run this schedule when it has compiled");
}

void AppState::setAutoRun(bool on) {
  autoRun_ = on;
  dirty_ = true;
}

void AppState::setRunnerCommand(const std::string &command) {
  config_.runnerCommand = command;
  runner_.setCommand(command);
  if (runner_.state() == RunnerState::Stopped ||
      runner_.state() == RunnerState::Unavailable)
    runner_.restart();
  dirty_ = true;
}

// --- Housekeeping ----------------------------------------------------------

void AppState::poll() {
  while (std::optional<CompileOutcome> o = jobs_.take())
    applyCompileOutcome(std::move(*o));

  for (RunnerEvent &e : runner_.poll()) {
    auto it = requestToRun_.find(e.request);
    if (it == requestToRun_.end())
      continue;
    RunRecord *r = findRunMutable(it->second);
    requestToRun_.erase(it);
    if (!r)
      continue;
    r->request = 0;
    dirty_ = true;
    if (e.kind == RunnerEvent::Kind::Failed) {
      r->state = RunState::NotRun;
      r->error = e.reason;
      setStatus(StatusLevel::Error,
                "variant #" + std::to_string(r->id) + ": " + e.reason);
      continue;
    }
    const RunnerReply &rep = e.reply;
    r->state = RunState::Done;
    r->status = rep.status;
    r->error = rep.error;
    r->verified = rep.verified;
    r->tflops = rep.tflops;
    r->referenceTflops = rep.referenceTflops;
    r->ratioToReference = rep.ratioToReference;
    r->medianUs = rep.medianUs;
    r->device = rep.deviceName;
    r->warnings = rep.warnings;
    if (rep.registersPerThread)
      r->registers = *rep.registersPerThread;
    if (rep.trace) {
      MeasuredTrace t = *rep.trace;
      colourByLoop(t);
      traces_[r->id] = std::move(t);
      traceArrival_[r->id] = ++traceArrivals_;
      traceNotes_.erase(r->id);
    } else if (!rep.traceError.empty()) {
      traces_.erase(r->id);
      traceNotes_[r->id] = rep.traceError;
    }
    setStatus(rep.status == "ok" ? StatusLevel::Ok : StatusLevel::Error,
              "variant #" + std::to_string(r->id) + ": " + r->resultText() +
                  (rep.error.empty() ? "" : ": " + rep.error));
  }
  // Requests in flight are shown as running.
  for (RunRecord &r : runs_)
    if (r.state == RunState::Queued && runner_.running() &&
        r.request != 0 && runner_.pending() > 0) {
      // The runner runs one request at a time, oldest first.
      uint64_t oldest = UINT64_MAX;
      for (auto &[req, run] : requestToRun_)
        oldest = std::min(oldest, req);
      if (r.request == oldest)
        r.state = RunState::Running;
    }

  if (dirty_ && !config_.autosavePath.empty() &&
      Clock::now() - lastAutosave_ > std::chrono::milliseconds(300))
    autosaveNow();
}

SessionFile AppState::sessionFile() const {
  SessionFile s;
  s.irPath = irPath_;
  s.irText = irText_;
  s.scheduleJson = hasIr_ ? editor_.schedule().toJson() : "";
  s.runs = runs_;
  s.nextVariant = nextVariant_;
  s.recentFiles = recent_;
  s.runnerCommand = config_.runnerCommand;
  s.autoRun = autoRun_;
  s.target = target_;
  if (lessonActive_) {
    s.lessonDir = lesson_.dir;
    s.lessonStartJson = lessonStartJson_;
  }
  return s;
}

std::string AppState::autosaveNow() {
  if (config_.autosavePath.empty())
    return "";
  lastAutosave_ = Clock::now();
  std::string err = saveSession(config_.autosavePath, sessionFile());
  if (err.empty())
    dirty_ = false;
  else
    setStatus(StatusLevel::Warning, "autosave failed: " + err);
  return err;
}
