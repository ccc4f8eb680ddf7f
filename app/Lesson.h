//===- Lesson.h - teaching pipelining: lessons, goals, what changed -*- C++ -*-===//
//
// A lesson is a directory of plain files (docs/lessons.md):
//
//   assets/lessons/01-why-pipeline/
//     lesson.md    the text (its first "# " line is the title)
//     kernel.mlir  the loop the student schedules
//     goal.json    what the schedule must achieve
//
// The goal is a list of criteria checked against the legality report of the
// student's schedule (core/Schedule/Legality.h): legality, stages, how far
// one op runs ahead of another, ring copies, shared memory, register
// estimates, warp groups, wgmma wait depths, the steady-state body, and a
// measured speed-up when a runner measured both the starting schedule and
// this one. None needs a GPU except the measured speed-up, which a lesson
// marks optional. ("predicted_speedup" is reserved for a timeline model;
// until one exists it reports that it cannot be judged.)
//
// explainChange() says in words what a move did: stages, how far ahead
// each op now runs of the ops it feeds, ring copies, shared memory,
// registers and budgets, warp specialization, the steady state before and
// after.
//
// Plain data and LLVM Support only: no ImGui, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_LESSON_H
#define STAGECRAFT_APP_LESSON_H

#include "core/Schedule/Legality.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace stagecraft::app {

struct Criterion {
  enum class Kind {
    Legal,
    Stages,
    Ahead,
    Copies,
    SharedMemory,
    Registers,
    WarpSpecialized,
    SeparateGroup,
    SameGroup,
    Wait,
    SteadyState,
    MeasuredSpeedup,
    PredictedSpeedup,
    Consumers,
  };
  Kind kind = Kind::Legal;
  bool optional = false;
  std::string unit, other;             // Ahead (unit, of), Copies, Wait, *Group (unit, from/with)
  std::optional<double> min, max;      // numeric bounds (inclusive)
  std::optional<int64_t> group;        // Registers
  std::optional<bool> value;           // WarpSpecialized
  std::optional<Consumers> consumers;  // Consumers: the arrangement asked for
  std::vector<std::string> steadyStates; // SteadyState: equals one of these
  std::string says;                    // optional: the goal's own words
};

struct Lesson {
  std::string dir;      // absolute
  std::string id;       // the directory's name, e.g. "01-why-pipeline"
  std::string title;    // from lesson.md's first heading
  std::string text;     // lesson.md, without the title line
  std::string irPath;   // dir/kernel.mlir
  std::string summary;  // goal.json's "summary": the goal in one sentence
  std::vector<Criterion> criteria;
};

/// Reads a lesson directory. Errors name the file and the field.
llvm::Expected<Lesson> loadLesson(const std::string &dir);
/// Checks that every unit a criterion names is in the graph; "" or why not.
std::string checkLessonAgainst(const Lesson &lesson, const LoopGraph &graph);
/// The lesson directories under `root`, sorted by name.
std::vector<std::string> listLessons(const std::string &root);

/// Measured TFLOP/s of the lesson's starting schedule and of the current
/// one, when a runner measured (and verified) them.
struct Measurements {
  std::optional<double> startTflops, currentTflops;
};

struct CriterionResult {
  bool met = false;
  bool optional = false;
  bool judged = true; // false: cannot be judged here (no measurement, no model)
  std::string text;   // "loadA runs 1 iteration ahead of MMA (goal: at least 1)"
};

struct GoalStatus {
  std::vector<CriterionResult> results;
  /// Every required criterion met.
  bool complete() const;
  int requiredMet() const;
  int requiredCount() const;
};

GoalStatus evaluateGoal(const Lesson &lesson, const LoopGraph &graph, const Schedule &schedule,
                        const ScheduleReport &report, const Measurements &measured = {});

/// What changed from (before, beforeReport) to (after, afterReport), one
/// sentence a line; empty when nothing did.
std::vector<std::string> explainChange(const LoopGraph &graph, const Schedule &before,
                                       const ScheduleReport &beforeReport,
                                       const Schedule &after,
                                       const ScheduleReport &afterReport);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_LESSON_H
