//===- Lesson.cpp - teaching pipelining: lessons, goals, what changed -----===//
#include "app/Lesson.h"
#include "core/Support/InputCheck.h"
#include "core/Support/Json.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::app;
namespace json = llvm::json;
namespace fs = std::filesystem;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::string> readText(const std::string &path) {
  // Checked before reading: a lesson file that is a device (/dev/zero) was
  // read whole, then found too large (the ninth sweep's B3).
  if (std::string why = checkUserFile(path, 1u << 20); !why.empty())
    return fail(why);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return fail(path + ": cannot read: " + buffer.getError().message());
  if ((*buffer)->getBufferSize() > (1u << 20))
    return fail(path + ": larger than 1 MiB");
  return (*buffer)->getBuffer().str();
}

std::string kib(int64_t bytes) {
  double k = bytes / 1024.0;
  return k == static_cast<int64_t>(k) ? llvm::formatv("{0} KiB", static_cast<int64_t>(k)).str()
                                      : llvm::formatv("{0:F1} KiB", k).str();
}

std::string plural(int64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "2", "1.25".
std::string num(double v) {
  return v == static_cast<int64_t>(v) ? std::to_string(static_cast<int64_t>(v))
                                      : llvm::formatv("{0:F2}", v).str();
}

/// "at least 2", "at most 3", "2 to 3", "exactly 1".
std::string bounds(const Criterion &c, const std::string &unitWord = "") {
  std::string w = unitWord.empty() ? "" : " " + unitWord;
  if (c.min && c.max)
    return *c.min == *c.max ? "exactly " + num(*c.min) + w
                            : num(*c.min) + " to " + num(*c.max) + w;
  if (c.min)
    return "at least " + num(*c.min) + w;
  if (c.max)
    return "at most " + num(*c.max) + w;
  return "any";
}

bool within(const Criterion &c, double v) {
  return (!c.min || v >= *c.min - 1e-9) && (!c.max || v <= *c.max + 1e-9);
}

const std::map<std::string, Criterion::Kind> &kinds() {
  static const std::map<std::string, Criterion::Kind> k = {
      {"legal", Criterion::Kind::Legal},
      {"stages", Criterion::Kind::Stages},
      {"ahead", Criterion::Kind::Ahead},
      {"copies", Criterion::Kind::Copies},
      {"shared_memory", Criterion::Kind::SharedMemory},
      {"registers", Criterion::Kind::Registers},
      {"warp_specialized", Criterion::Kind::WarpSpecialized},
      {"separate_group", Criterion::Kind::SeparateGroup},
      {"same_group", Criterion::Kind::SameGroup},
      {"wait", Criterion::Kind::Wait},
      {"steady_state", Criterion::Kind::SteadyState},
      {"measured_speedup", Criterion::Kind::MeasuredSpeedup},
      {"predicted_speedup", Criterion::Kind::PredictedSpeedup},
      {"consumers", Criterion::Kind::Consumers}};
  return k;
}

/// The fields each kind takes (besides kind, optional, says).
std::vector<std::string> fieldsOf(Criterion::Kind k) {
  using K = Criterion::Kind;
  switch (k) {
  case K::Legal: return {};
  case K::Stages: return {"min", "max"};
  case K::Ahead: return {"unit", "of", "min", "max"};
  case K::Copies: return {"unit", "min", "max"};
  case K::SharedMemory: return {"min_bytes", "max_bytes"};
  case K::Registers: return {"group", "max"};
  case K::WarpSpecialized: return {"value"};
  case K::SeparateGroup: return {"unit", "from"};
  case K::SameGroup: return {"unit", "with"};
  case K::Wait: return {"unit", "min", "max"};
  case K::SteadyState: return {"equals", "one_of"};
  case K::MeasuredSpeedup: return {"min"};
  case K::PredictedSpeedup: return {"min"};
  case K::Consumers: return {"is"};
  }
  return {};
}

llvm::Expected<Criterion> parseCriterion(const json::Value &v, const std::string &where) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return fail(where + ": expected an object");
  auto kindName = o->getString("kind");
  if (!kindName)
    return fail(where + ".kind: missing");
  auto k = kinds().find(kindName->str());
  if (k == kinds().end()) {
    std::string known;
    for (const auto &e : kinds())
      known += (known.empty() ? "" : ", ") + e.first;
    return fail(where + ".kind: unknown \"" + *kindName + "\" (known: " + known + ")");
  }
  Criterion c;
  c.kind = k->second;
  std::vector<std::string> allowed = fieldsOf(c.kind);
  for (const auto &member : *o) {
    std::string key = member.first.str();
    if (key == "kind")
      continue;
    if (key == "optional") {
      auto b = member.second.getAsBoolean();
      if (!b)
        return fail(where + ".optional: expected true or false");
      c.optional = *b;
      continue;
    }
    if (key == "says") {
      auto s = member.second.getAsString();
      if (!s)
        return fail(where + ".says: expected a string");
      c.says = s->str();
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      return fail(where + "." + key + ": not a field of a \"" + *kindName + "\" criterion");
    const json::Value &f = member.second;
    if (key == "unit" || key == "of" || key == "from" || key == "with" || key == "equals") {
      auto s = f.getAsString();
      if (!s || s->empty())
        return fail(where + "." + key + ": expected a name");
      if (key == "unit")
        c.unit = s->str();
      else if (key == "equals")
        c.steadyStates.push_back(s->str());
      else
        c.other = s->str();
    } else if (key == "one_of") {
      const json::Array *a = f.getAsArray();
      if (!a || a->empty())
        return fail(where + ".one_of: expected a list of steady states");
      for (const json::Value &s : *a) {
        auto str = s.getAsString();
        if (!str)
          return fail(where + ".one_of: expected strings");
        c.steadyStates.push_back(str->str());
      }
    } else if (key == "is") {
      auto s = f.getAsString();
      std::optional<Consumers> arrangement = s ? parseConsumers(*s) : std::nullopt;
      if (!arrangement)
        return fail(where + ".is: expected \"cooperative\", \"pingpong\" or \"staggered\"");
      c.consumers = arrangement;
    } else if (key == "value") {
      auto b = f.getAsBoolean();
      if (!b)
        return fail(where + ".value: expected true or false");
      c.value = *b;
    } else if (key == "group") {
      auto i = f.getAsInteger();
      if (!i || *i < 0)
        return fail(where + ".group: expected a warp group number");
      c.group = *i;
    } else {
      auto d = f.getAsNumber();
      if (!d)
        return fail(where + "." + key + ": expected a number");
      if (key == "min" || key == "min_bytes")
        c.min = *d;
      else
        c.max = *d;
    }
  }
  if (c.min && c.max && *c.min > *c.max)
    return fail(where + ": min " + num(*c.min) + " is above max " +
                num(*c.max) + ": no schedule meets it");
  using K = Criterion::Kind;
  bool needsUnit = c.kind == K::Ahead || c.kind == K::Copies || c.kind == K::SeparateGroup ||
                   c.kind == K::SameGroup || c.kind == K::Wait;
  if (needsUnit && c.unit.empty())
    return fail(where + ".unit: missing");
  if ((c.kind == K::Ahead || c.kind == K::SeparateGroup || c.kind == K::SameGroup) &&
      c.other.empty())
    return fail(where + ": needs the other op (\"" +
                (c.kind == K::Ahead ? "of" : c.kind == K::SeparateGroup ? "from" : "with") +
                "\")");
  if (c.kind == K::Registers && (!c.group || !c.max))
    return fail(where + ": a registers criterion needs \"group\" and \"max\"");
  if (c.kind == K::WarpSpecialized && !c.value)
    return fail(where + ".value: missing");
  if (c.kind == K::Consumers && !c.consumers)
    return fail(where + ".is: missing");
  if (c.kind == K::SteadyState && c.steadyStates.empty())
    return fail(where + ": needs \"equals\" or \"one_of\"");
  if ((c.kind == K::MeasuredSpeedup || c.kind == K::PredictedSpeedup) && !c.min)
    return fail(where + ".min: missing");
  if ((c.kind == K::Stages || c.kind == K::Ahead || c.kind == K::Copies || c.kind == K::Wait) &&
      !c.min && !c.max)
    return fail(where + ": needs \"min\" or \"max\"");
  return c;
}

/// Stage distances of the loop's data edges: (def, use) -> s(use) - s(def).
std::map<std::pair<unsigned, unsigned>, int64_t> distances(const LoopGraph &graph,
                                                           const Schedule &s) {
  std::map<std::pair<unsigned, unsigned>, int64_t> d;
  for (const Edge &e : graph.edges) {
    if (e.loopCarried || e.def == e.use)
      continue;
    d[{e.def, e.use}] = effectiveSchedule(graph, s, e.use).stage -
                        effectiveSchedule(graph, s, e.def).stage;
  }
  return d;
}

std::string iterationsAhead(int64_t n) {
  if (n < 0) // a load after its reader: "runs -1 iterations ahead" read oddly
    return plural(-n, "iteration", "iterations") + " behind";
  return n == 0 ? "in the same iteration as" : plural(n, "iteration", "iterations") + " ahead of";
}

} // namespace

llvm::Expected<Lesson> stagecraft::app::loadLesson(const std::string &dirIn) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(dirIn), ec);
  if (ec || !fs::is_directory(dir, ec))
    return fail("lesson \"" + dirIn + "\" is not a directory");
  Lesson l;
  l.dir = dir.string();
  l.id = dir.filename().string();
  l.irPath = (dir / "kernel.mlir").string();
  if (!fs::is_regular_file(l.irPath, ec))
    return fail(l.irPath + ": missing (a lesson's loop)");
  auto text = readText((dir / "lesson.md").string());
  if (!text)
    return text.takeError();
  llvm::StringRef rest(*text);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    if (line.trim().empty()) {
      rest = tail;
      continue;
    }
    if (line.starts_with("# ")) {
      l.title = line.drop_front(2).trim().str();
      rest = tail;
    }
    break;
  }
  if (l.title.empty())
    return fail((dir / "lesson.md").string() + ":1: the first line must be the title (\"# ...\")");
  l.text = rest.ltrim('\n').str();

  std::string goalPath = (dir / "goal.json").string();
  auto goalText = readText(goalPath);
  if (!goalText)
    return goalText.takeError();
  llvm::Expected<json::Value> goal = stagecraft::parseJson(*goalText);
  if (!goal)
    return fail(goalPath + ": " + llvm::toString(goal.takeError()));
  const json::Object *o = goal->getAsObject();
  if (!o || o->getString("format") != llvm::StringRef("stagecraft-lesson-goal"))
    return fail(goalPath + ": expected {\"format\": \"stagecraft-lesson-goal\", ...}");
  if (o->getInteger("version") != 1)
    return fail(goalPath + ": version: expected 1");
  if (auto s = o->getString("summary"))
    l.summary = s->str();
  const json::Array *criteria = o->getArray("criteria");
  if (!criteria || criteria->empty())
    return fail(goalPath + ": criteria: expected a non-empty list");
  for (size_t i = 0; i < criteria->size(); ++i) {
    auto c = parseCriterion((*criteria)[i], goalPath + ": criteria[" + std::to_string(i) + "]");
    if (!c)
      return c.takeError();
    l.criteria.push_back(std::move(*c));
  }
  bool required = false;
  for (const Criterion &c : l.criteria)
    required |= !c.optional;
  if (!required)
    return fail(goalPath + ": criteria: every criterion is optional; a goal needs one that "
                           "is not");
  return l;
}

std::string stagecraft::app::checkLessonAgainst(const Lesson &lesson, const LoopGraph &graph) {
  std::string names;
  for (const Unit &u : graph.units)
    names += (names.empty() ? "" : ", ") + u.name;
  for (size_t i = 0; i < lesson.criteria.size(); ++i) {
    const Criterion &c = lesson.criteria[i];
    for (const std::string &n : {c.unit, c.other})
      if (!n.empty() && graph.findUnit(n) < 0)
        return lesson.dir + "/goal.json: criteria[" + std::to_string(i) + "]: \"" + n +
               "\" is not an op of the lesson's loop (its ops: " + names + ")";
  }
  return "";
}

std::vector<std::string> stagecraft::app::listLessons(const std::string &root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && fs::is_regular_file(it->path() / "goal.json", ec))
      out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool GoalStatus::complete() const { return requiredMet() == requiredCount(); }

int GoalStatus::requiredMet() const {
  int n = 0;
  for (const CriterionResult &r : results)
    n += !r.optional && r.met;
  return n;
}

int GoalStatus::requiredCount() const {
  int n = 0;
  for (const CriterionResult &r : results)
    n += !r.optional;
  return n;
}

GoalStatus stagecraft::app::evaluateGoal(const Lesson &lesson, const LoopGraph &graph,
                                         const Schedule &schedule, const ScheduleReport &report,
                                         const Measurements &measured) {
  using K = Criterion::Kind;
  GoalStatus status;
  auto sched = [&](const std::string &unit) {
    int i = graph.findUnit(unit);
    return i >= 0 ? effectiveSchedule(graph, schedule, unsigned(i)) : OpSchedule();
  };
  for (const Criterion &c : lesson.criteria) {
    CriterionResult r;
    r.optional = c.optional;
    std::string goalWords;
    switch (c.kind) {
    case K::Legal:
      r.met = report.legal();
      r.text = r.met ? "the schedule is legal"
                     : "the schedule is illegal: " + report.violations.front().message;
      break;
    case K::Stages:
      r.met = within(c, double(report.numStages));
      r.text = "the loop has " + plural(report.numStages, "stage", "stages") + " (goal: " +
               bounds(c) + ")";
      break;
    case K::Ahead: {
      int64_t d = sched(c.other).stage - sched(c.unit).stage;
      r.met = within(c, double(d));
      r.text = c.unit + " runs " + iterationsAhead(d) + " " + c.other + " (goal: " +
               bounds(c, "ahead") + ")";
      break;
    }
    case K::Copies: {
      int64_t copies = 0;
      for (const LoadBuffers &b : report.buffers)
        if (b.name == c.unit)
          copies = b.copies;
      r.met = within(c, double(copies));
      r.text = c.unit + "'s ring has " + plural(copies, "buffer", "buffers") + " (goal: " +
               bounds(c) + ")";
      break;
    }
    case K::SharedMemory: {
      r.met = within(c, double(report.smemBytes));
      r.text = "shared memory: " + kib(report.smemBytes) + " of " + kib(report.smemLimit);
      if (c.min && c.max)
        r.text += " (goal: " + kib(int64_t(*c.min)) + " to " + kib(int64_t(*c.max)) + ")";
      else if (c.min)
        r.text += " (goal: at least " + kib(int64_t(*c.min)) + ")";
      else if (c.max)
        r.text += " (goal: at most " + kib(int64_t(*c.max)) + ")";
      break;
    }
    case K::Registers: {
      const GroupRegisters *g = nullptr;
      for (const GroupRegisters &x : report.registers)
        if (x.group == *c.group)
          g = &x;
      int64_t regs = g ? g->regsPerThread : 0;
      r.met = g && within(c, double(regs));
      r.text = "warp group " + std::to_string(*c.group) + ": ~" + std::to_string(regs) +
               " registers per thread (goal: " + bounds(c) + ")";
      break;
    }
    case K::Consumers:
      r.met = report.consumers == *c.consumers;
      r.text = std::string("the consumer warp groups are ") + consumersName(report.consumers) +
               " (goal: " + consumersName(*c.consumers) + ")";
      break;
    case K::WarpSpecialized:
      r.met = report.warpSpecialized == *c.value;
      r.text = std::string("the loop is ") + (report.warpSpecialized ? "" : "not ") +
               "warp specialized (goal: " + (*c.value ? "it is" : "it is not") + ")";
      break;
    case K::SeparateGroup: {
      int64_t a = sched(c.unit).group, b = sched(c.other).group;
      r.met = a != b;
      r.text = c.unit + " is in warp group " + std::to_string(a) + ", " + c.other + " in " +
               std::to_string(b) + " (goal: different groups)";
      break;
    }
    case K::SameGroup: {
      int64_t a = sched(c.unit).group, b = sched(c.other).group;
      r.met = a == b;
      r.text = c.unit + " is in warp group " + std::to_string(a) + ", " + c.other + " in " +
               std::to_string(b) + " (goal: the same group)";
      break;
    }
    case K::Wait: {
      int64_t w = sched(c.unit).wait;
      r.met = within(c, double(w));
      r.text = c.unit + " leaves " + plural(w, "wgmma group", "wgmma groups") +
               " in flight (goal: " + bounds(c) + ")";
      break;
    }
    case K::SteadyState: {
      // The same steady state per warp group: where the loads sit among the
      // consumers' ops changes nothing when another warp group issues them
      // (Triton's schedule B written loads first compiled to the same PTX
      // and was refused: the fourteenth sweep's B1).
      auto perGroup = [&](const std::string &steady) {
        std::map<int64_t, std::vector<std::string>> groups;
        for (llvm::StringRef token : llvm::split(llvm::StringRef(steady), ' ')) {
          if (token.empty())
            continue;
          std::string unit = token.split('(').first.str();
          int64_t group = graph.findUnit(unit) >= 0 ? sched(unit).group : -1;
          groups[group].push_back(token.str());
        }
        return groups;
      };
      auto now = perGroup(report.steadyState);
      r.met = llvm::any_of(c.steadyStates,
                           [&](const std::string &goal) { return perGroup(goal) == now; });
      r.text = "steady state " + report.steadyState +
               (c.steadyStates.size() == 1 ? " (goal: " + c.steadyStates[0] + ")"
                                           : " (goal: one of " +
                                                 llvm::join(c.steadyStates, " | ") + ")");
      break;
    }
    case K::MeasuredSpeedup: {
      if (measured.startTflops && measured.currentTflops && *measured.startTflops > 0) {
        double s = *measured.currentTflops / *measured.startTflops;
        r.met = within(c, s);
        r.text = llvm::formatv("measured speed-up {0:F2}x ({1:F1} vs {2:F1} TFLOP/s at the "
                               "start) (goal: {3})",
                               s, *measured.currentTflops, *measured.startTflops,
                               bounds(c, "x"))
                     .str();
      } else {
        r.judged = false;
        r.text = "measured speed-up: needs a GPU runner to measure " +
                 std::string(!measured.startTflops ? "the starting schedule" : "this schedule") +
                 " (goal: " + bounds(c, "x") + ")";
      }
      break;
    }
    case K::PredictedSpeedup:
      r.judged = false;
      r.text = "predicted speed-up: this build has no timeline model to predict it (goal: " +
               bounds(c, "x") + ")";
      break;
    }
    if (!c.says.empty())
      r.text = c.says + ": " + r.text;
    status.results.push_back(std::move(r));
  }
  return status;
}

std::vector<std::string> stagecraft::app::explainChange(const LoopGraph &graph,
                                                        const Schedule &before,
                                                        const ScheduleReport &rb,
                                                        const Schedule &after,
                                                        const ScheduleReport &ra) {
  std::vector<std::string> lines;
  // The ops that moved.
  for (unsigned u = 0; u < graph.units.size(); ++u) {
    OpSchedule a = effectiveSchedule(graph, before, u), b = effectiveSchedule(graph, after, u);
    std::vector<std::string> parts;
    if (a.stage != b.stage)
      parts.push_back(llvm::formatv("stage {0} -> {1}", a.stage, b.stage).str());
    if (a.group != b.group)
      parts.push_back(llvm::formatv("warp group {0} -> {1}", a.group, b.group).str());
    if (a.wait != b.wait)
      parts.push_back(llvm::formatv("wgmma wait {0} -> {1}", a.wait, b.wait).str());
    if (!parts.empty())
      lines.push_back(graph.units[u].name + ": " + llvm::join(parts, ", ") + ".");
  }
  // The kernel-wide choices (lesson 6 is about them: a switch to ping-pong
  // logged only its shared memory, a cluster "the schedule is the same").
  if (rb.consumers != ra.consumers)
    lines.push_back(std::string("Consumers: ") + consumersName(rb.consumers) + " -> " +
                    consumersName(ra.consumers) +
                    (ra.consumers == Consumers::PingPong
                         ? ": each consumer warp group takes a tile of its own, one's epilogue "
                           "under the other's MMAs (its stores stage in slots of its own)."
                         : ra.consumers == Consumers::Staggered
                               ? ": the two consumer warp groups take turns at the tensor cores."
                               : ": the consumer warp groups split every tile."));
  if (rb.cluster != ra.cluster)
    lines.push_back(llvm::formatv("Cluster: {0} -> {1} CTAs: the loads whose box is the same in "
                                  "every CTA of a cluster are loaded once and multicast.",
                                  rb.cluster, ra.cluster)
                        .str());
  if (rb.numStages != ra.numStages)
    lines.push_back(llvm::formatv("The loop now has {0} (was {1}).",
                                  plural(ra.numStages, "stage", "stages"), rb.numStages)
                        .str());
  // How far ahead each producer of a value runs of its consumers.
  auto db = distances(graph, before), da = distances(graph, after);
  for (const auto &[edge, d] : da) {
    auto it = db.find(edge);
    if (it == db.end() || it->second == d)
      continue;
    const std::string &def = graph.units[edge.first].name, &use = graph.units[edge.second].name;
    std::string why;
    if (graph.units[edge.first].kind == UnitKind::Load && d > it->second)
      why = d == 1 ? ": the tile for the next iteration is on its way while " + use +
                         " works on this one"
                   : ": its tiles arrive " + std::to_string(d) + " iterations early, which "
                     "hides a longer memory latency and costs a buffer each";
    else if (graph.units[edge.first].kind == UnitKind::Load && d == 0)
      why = ": " + use + " waits for the load in every iteration again";
    else if (d > it->second)
      why = ": " + use + " works on an older iteration while " + def + " moves on";
    lines.push_back(def + " now runs " + iterationsAhead(d) + " " + use + " (was " +
                    std::to_string(it->second) + ")" + why + ".");
  }
  // Ring buffers.
  std::map<std::string, const LoadBuffers *> bb;
  for (const LoadBuffers &b : rb.buffers)
    bb[b.name] = &b;
  for (const LoadBuffers &b : ra.buffers) {
    auto it = bb.find(b.name);
    int64_t was = it == bb.end() ? 0 : it->second->copies;
    if (was == b.copies)
      continue;
    int64_t delta = (b.copies - was) * b.bytesPerCopy;
    lines.push_back(llvm::formatv("{0}'s ring: {1} -> {2} ({3}{4} of shared memory): a buffer "
                                  "for every iteration in flight between the load and its "
                                  "last reader.",
                                  b.name, plural(was, "buffer", "buffers"),
                                  plural(b.copies, "buffer", "buffers"), delta > 0 ? "+" : "-",
                                  kib(delta > 0 ? delta : -delta))
                        .str());
  }
  if (rb.smemBytes != ra.smemBytes)
    lines.push_back("Shared memory: " + kib(rb.smemBytes) + " -> " + kib(ra.smemBytes) +
                    " of " + kib(ra.smemLimit) + ".");
  // Warp groups and registers.
  if (rb.warpSpecialized != ra.warpSpecialized) {
    // Which loads the producer took (moving one of two is warp specialized
    // too: "the loads run in a producer" was said of both).
    std::set<int64_t> producers;
    for (const GroupRegisters &g : ra.registers)
      if (g.producer)
        producers.insert(g.group);
    std::vector<std::string> produced, stayed;
    for (unsigned u = 0; u < graph.units.size(); ++u)
      if (graph.units[u].kind == UnitKind::Load)
        (producers.count(effectiveSchedule(graph, after, u).group) ? produced : stayed)
            .push_back(graph.units[u].name);
    lines.push_back(ra.warpSpecialized
                        ? "The loop is now warp specialized: " + llvm::join(produced, ", ") +
                              (produced.size() == 1 ? " runs" : " run") +
                              " in a producer warp group of its own, which gives registers back "
                              "(setmaxnreg) to the consumers" +
                              (stayed.empty() ? std::string(".")
                                              : "; " + llvm::join(stayed, ", ") +
                                                    " still with the consumers.")
                        : "The loop is no longer warp specialized: one thread of the consumers "
                          "issues the loads between its own work.");
  }
  std::map<int64_t, const GroupRegisters *> gb;
  for (const GroupRegisters &g : rb.registers)
    gb[g.group] = &g;
  for (const GroupRegisters &g : ra.registers) {
    auto it = gb.find(g.group);
    if (it == gb.end()) {
      lines.push_back(llvm::formatv("Warp group {0} ({1} threads) now has work: ~{2} registers "
                                    "per thread, budget {3}{4}.",
                                    g.group, g.threads, g.regsPerThread, g.budget,
                                    g.producer ? " (a producer)" : "")
                          .str());
      continue;
    }
    const GroupRegisters &o = *it->second;
    if (o.regsPerThread != g.regsPerThread || o.budget != g.budget || o.producer != g.producer)
      lines.push_back(llvm::formatv("Warp group {0}: ~{1} -> ~{2} registers per thread, {3}{4}.",
                                    g.group, o.regsPerThread, g.regsPerThread,
                                    o.budget == g.budget
                                        ? "budget " + std::to_string(g.budget)
                                        : llvm::formatv("budget {0} -> {1}", o.budget, g.budget)
                                              .str(),
                                    g.producer && !o.producer ? " (now a producer)" : "")
                          .str());
  }
  for (const GroupRegisters &o : rb.registers) {
    bool still = false;
    for (const GroupRegisters &g : ra.registers)
      still |= g.group == o.group;
    if (!still)
      lines.push_back("Warp group " + std::to_string(o.group) + " has no work any more.");
  }
  if (rb.steadyState != ra.steadyState)
    lines.push_back("Steady state: " + rb.steadyState + "  ->  " + ra.steadyState);
  if (rb.legal() && !ra.legal())
    lines.push_back("Now illegal: " + ra.violations.front().message);
  else if (!rb.legal() && ra.legal())
    lines.push_back("The schedule is legal again.");
  return lines;
}
