//===- Schedule.cpp - schedule model and its JSON form --------------------===//
#include "core/Schedule/Schedule.h"
#include "core/Support/Json.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <set>

using namespace stagecraft;
using llvm::StringRef;

std::string stagecraft::describeOutOfRange(const OpSchedule &s) {
  struct Field {
    const char *name;
    int64_t value, hi;
  } fields[] = {{"stage", s.stage, kMaxStage},
                {"order", s.order, kMaxOrder},
                {"group", s.group, kMaxGroup},
                {"wait", s.wait, kMaxWait}};
  for (const Field &f : fields)
    if (f.value < 0 || f.value > f.hi)
      return llvm::formatv("{0} {1}, outside 0..{2}", f.name, f.value, f.hi)
          .str();
  return "";
}

const OpSchedule *Schedule::find(StringRef name) const {
  for (const ScheduleEntry &e : entries_)
    if (e.name == name)
      return &e.sched;
  return nullptr;
}

OpSchedule *Schedule::find(StringRef name) {
  for (ScheduleEntry &e : entries_)
    if (e.name == name)
      return &e.sched;
  return nullptr;
}

void Schedule::set(StringRef name, const OpSchedule &sched) {
  if (OpSchedule *s = find(name)) {
    *s = sched;
    return;
  }
  entries_.push_back({name.str(), sched});
}

std::vector<int64_t> stagecraft::trimRegisterBudgets(std::vector<int64_t> budgets) {
  while (!budgets.empty() && budgets.back() == 0)
    budgets.pop_back();
  return budgets;
}

void Schedule::overlay(const Schedule &given) {
  for (const ScheduleEntry &e : given.entries())
    set(e.name, e.sched);
  if (given.consumers)
    consumers = given.consumers;
  if (given.registers)
    registers = given.registers;
  if (given.cluster)
    cluster = given.cluster;
}

int64_t Schedule::registerBudget(int64_t group) const {
  if (!registers || group < 0 || group >= static_cast<int64_t>(registers->size()))
    return 0;
  return (*registers)[group];
}

bool Schedule::operator==(const Schedule &o) const {
  // Unset budgets and cluster compare as their defaults (every group its
  // default share, one CTA). Unset consumers are the kernel's own, which may
  // be ping-pong: told apart from a chosen "cooperative" (a file saying only
  // that was taken for the schedule already shown and not applied).
  auto budgets = [](const Schedule &s) {
    return trimRegisterBudgets(s.registers.value_or(std::vector<int64_t>{}));
  };
  if (kernel != o.kernel || consumers != o.consumers || entries_.size() != o.entries_.size())
    return false;
  if (budgets(*this) != budgets(o) || cluster.value_or(1) != o.cluster.value_or(1))
    return false;
  for (const ScheduleEntry &e : entries_) {
    const OpSchedule *other = o.find(e.name);
    if (!other || *other != e.sched)
      return false;
  }
  return true;
}

std::string Schedule::toJson() const {
  std::vector<const ScheduleEntry *> sorted;
  for (const ScheduleEntry &e : entries_)
    sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ScheduleEntry *a, const ScheduleEntry *b) {
                     if (a->sched.order != b->sched.order)
                       return a->sched.order < b->sched.order;
                     return a->name < b->name;
                   });
  std::string out = "{\n  \"format\": \"stagecraft-schedule\",\n  \"version\": 1,\n";
  out += "  \"kernel\": " + llvm::formatv("{0}", llvm::json::Value(kernel)).str() + ",\n";
  // Written when set, so schedules that never chose keep the version-1
  // bytes; a "cooperative" chosen over a kernel's tile.consumers must say
  // so (left out, a bundle's schedule.json of a staggered kernel run
  // cooperatively read back staggered: the sixteenth sweep's s01 control).
  if (consumers)
    out += llvm::formatv("  \"consumers\": \"{0}\",\n", consumersName(*consumers)).str();
  // Written when set, so schedules that never chose budgets keep their
  // bytes; "[]" says "the defaults" (it resets a kernel's tile.registers).
  if (registers) {
    out += "  \"registers\": [";
    std::vector<int64_t> budgets = trimRegisterBudgets(*registers);
    for (size_t i = 0; i < budgets.size(); ++i)
      out += (i ? ", " : "") + std::to_string(budgets[i]);
    out += "],\n";
  }
  // Written when above 1, so schedules without clusters keep their bytes.
  if (cluster && *cluster != 1)
    out += llvm::formatv("  \"cluster\": {0},\n", *cluster).str();
  out += "  \"ops\": [";
  for (size_t i = 0; i < sorted.size(); ++i) {
    const ScheduleEntry &e = *sorted[i];
    out += i ? ",\n    " : "\n    ";
    out += llvm::formatv("{{\"name\": {0}, \"stage\": {1}, \"order\": {2}, "
                         "\"group\": {3}",
                         llvm::json::Value(e.name), e.sched.stage,
                         e.sched.order, e.sched.group)
               .str();
    if (e.sched.wait)
      out += llvm::formatv(", \"wait\": {0}", e.sched.wait).str();
    out += "}";
  }
  out += sorted.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

static llvm::Error scheduleError(StringRef source, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (source + ": " + msg).str());
}


const char *stagecraft::consumersName(Consumers c) {
  switch (c) {
  case Consumers::PingPong: return "pingpong";
  case Consumers::Staggered: return "staggered";
  case Consumers::Cooperative: break;
  }
  return "cooperative";
}

std::optional<Consumers> stagecraft::parseConsumers(StringRef name) {
  if (name == "cooperative")
    return Consumers::Cooperative;
  if (name == "pingpong")
    return Consumers::PingPong;
  if (name == "staggered")
    return Consumers::Staggered;
  return std::nullopt;
}

llvm::Expected<Schedule> Schedule::fromJson(StringRef text, StringRef source) {
  // A UTF-8 byte order mark (some editors write one) is not JSON; skipped.
  text.consume_front("\xEF\xBB\xBF");
  if (text.trim().empty())
    return scheduleError(source, "empty schedule file");
  if (text.size() > (16u << 20))
    return scheduleError(source,
                         "invalid JSON: file is over 16 MiB; a schedule is a few hundred bytes");
  llvm::Expected<llvm::json::Value> parsed = parseJson(text, 32);
  if (!parsed)
    return scheduleError(source, "invalid JSON: " +
                                     llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return scheduleError(source, "a schedule must be a JSON object");
  if (const llvm::json::Value *format = root->get("format"))
    if (format->getAsString() != std::optional<StringRef>("stagecraft-schedule"))
      return scheduleError(source, "\"format\" must be \"stagecraft-schedule\"");
  if (const llvm::json::Value *version = root->get("version")) {
    auto v = version->getAsInteger();
    if (!v)
      return scheduleError(source, "\"version\" must be an integer");
    if (*v != 1)
      return scheduleError(source, "unsupported schedule version " +
                                       llvm::Twine(*v) + " (expected 1)");
  }
  for (const auto &kv : *root) {
    StringRef key = kv.first;
    if (key != "format" && key != "version" && key != "kernel" && key != "ops" &&
        key != "consumers" && key != "registers" && key != "cluster")
      return scheduleError(source, "unknown top-level field \"" + key + "\"");
  }

  Schedule schedule;
  if (const llvm::json::Value *kernel = root->get("kernel")) {
    auto s = kernel->getAsString();
    if (!s)
      return scheduleError(source, "\"kernel\" must be a string");
    schedule.kernel = s->str();
  }
  if (const llvm::json::Value *consumers = root->get("consumers")) {
    auto s = consumers->getAsString();
    std::optional<Consumers> c = s ? parseConsumers(*s) : std::nullopt;
    if (!c)
      return scheduleError(source,
                           "\"consumers\" must be \"cooperative\", \"pingpong\" or \"staggered\"");
    schedule.consumers = *c;
  }
  if (const llvm::json::Value *registers = root->get("registers")) {
    const llvm::json::Array *list = registers->getAsArray();
    if (!list)
      return scheduleError(source, "\"registers\" must be an array of register budgets, one "
                                   "per schedule group (0: the default share)");
    if (list->size() > static_cast<size_t>(kMaxGroup + 1))
      return scheduleError(source, "\"registers\" has " + llvm::Twine(list->size()) +
                                       " entries; there are at most " +
                                       llvm::Twine(kMaxGroup + 1) + " schedule groups");
    std::vector<int64_t> budgets;
    for (size_t i = 0; i < list->size(); ++i) {
      std::string where = "\"registers\"[" + std::to_string(i) + "]";
      auto n = (*list)[i].getAsInteger();
      if (!n)
        return scheduleError(source, where + " must be an integer");
      if (*n < 0 || *n > kMaxRegisterBudget)
        return scheduleError(source, where + " = " + llvm::Twine(*n) +
                                         " is out of range 0.." +
                                         llvm::Twine(kMaxRegisterBudget) +
                                         " (0: the default share)");
      budgets.push_back(*n);
    }
    schedule.registers = std::move(budgets);
  }
  if (const llvm::json::Value *cluster = root->get("cluster")) {
    auto n = cluster->getAsInteger();
    if (!n || (*n != 1 && *n != 2 && *n != 4))
      return scheduleError(source, "\"cluster\" must be 1, 2 or 4 (CTAs per thread-block "
                                   "cluster along grid dimension 0)");
    schedule.cluster = *n;
  }
  const llvm::json::Array *ops = root->getArray("ops");
  if (!ops)
    return scheduleError(source, root->get("ops") ? "\"ops\" must be an array of {\"name\", "
                                                    "\"stage\", ...} entries"
                                                  : "missing \"ops\" array");
  // A loop has tens of units; a list of many thousands is not a schedule
  // (and a linear lookup per entry made 200k of them run for minutes).
  constexpr size_t kMaxEntries = 4096;
  if (ops->size() > kMaxEntries)
    return scheduleError(source, "\"ops\" lists " + std::to_string(ops->size()) +
                                     " entries; a schedule lists at most " +
                                     std::to_string(kMaxEntries) + " (one per unit of the loop)");

  std::set<std::string> seen;
  for (size_t i = 0; i < ops->size(); ++i) {
    std::string where = "ops[" + std::to_string(i) + "]";
    const llvm::json::Object *entry = (*ops)[i].getAsObject();
    if (!entry)
      return scheduleError(source, where + " must be an object");
    auto name = entry->getString("name");
    if (!name || name->empty())
      return scheduleError(source, where + " needs a non-empty \"name\"");
    // Written as JSON writes it: a control character shows as \u0000, not
    // as a raw byte in the terminal.
    where += " (" + llvm::formatv("{0}", llvm::json::Value(*name)).str() + ")";
    if (llvm::any_of(*name, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
      return scheduleError(source, where + ": a unit name has no control characters");
    if (!seen.insert(name->str()).second)
      return scheduleError(source, where + ": the name appears twice");
    OpSchedule sched;
    struct Field {
      const char *key;
      int64_t *dst;
      bool required;
      int64_t lo, hi;
    } fields[] = {{"stage", &sched.stage, true, 0, kMaxStage},
                  {"order", &sched.order, true, 0, kMaxOrder},
                  {"group", &sched.group, true, 0, kMaxGroup},
                  {"wait", &sched.wait, false, 0, kMaxWait}};
    for (const Field &f : fields) {
      const llvm::json::Value *v = entry->get(f.key);
      if (!v) {
        if (f.required)
          return scheduleError(source, where + " is missing \"" + f.key + "\"");
        continue;
      }
      auto n = v->getAsInteger();
      if (!n)
        return scheduleError(source, where + ": \"" + f.key +
                                         "\" must be an integer");
      if (*n < f.lo || *n > f.hi)
        return scheduleError(source, where + ": \"" + f.key + "\" = " +
                                         llvm::Twine(*n) + " is out of range " +
                                         llvm::Twine(f.lo) + ".." +
                                         llvm::Twine(f.hi));
      *f.dst = *n;
    }
    for (const auto &kv : *entry) {
      StringRef key = kv.first;
      if (key != "name" && key != "stage" && key != "order" &&
          key != "group" && key != "wait")
        return scheduleError(source, where + ": unknown field \"" + key + "\"");
    }
    schedule.set(*name, sched);
  }
  return schedule;
}
