//===- TimelineManifest.cpp - the manifest's "timeline" object ------------===//
#include "passes/Driver/TimelineManifest.h"

#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace stagecraft;

std::vector<int64_t> stagecraft::sampledCtas(int64_t ctas, const std::vector<int64_t> &grid) {
  int64_t total = 1;
  for (int64_t g : grid)
    total *= std::max<int64_t>(g, 1);
  int64_t slots = std::min(ctas, total);
  std::vector<int64_t> ids;
  if (slots < 1)
    return ids;
  int64_t stride = total / slots;
  for (int64_t s = 0; s < slots; ++s)
    ids.push_back(s * stride);
  return ids;
}

std::string stagecraft::timelineManifestObject(const TimelineDescription &d,
                                               const std::string &kernel,
                                               const std::vector<int64_t> &grid) {
  llvm::json::Array ctas;
  for (int64_t c : sampledCtas(d.ctas, grid))
    ctas.push_back(c);
  llvm::json::Array groups;
  for (size_t i = 0; i < d.warpGroups.size(); ++i)
    groups.push_back(llvm::json::Object{{"id", int64_t(i)},
                                        {"role", d.warpGroups[i].role},
                                        {"name", d.warpGroups[i].name}});
  llvm::json::Array units;
  for (const TimelineDescription::Unit &u : d.units) {
    llvm::json::Object unit{{"id", u.id}, {"name", u.name}, {"group", u.group}};
    if (!u.kind.empty())
      unit["kind"] = u.kind;
    units.push_back(std::move(unit));
  }
  llvm::json::Object o{{"module", "timeline"},   {"kernel", kernel},
                       {"clock", "globaltimer"}, {"sampled_ctas", std::move(ctas)},
                       {"warp_groups", std::move(groups)}, {"units", std::move(units)},
                       {"capacity", d.capacity},
                       // Records of 16 bytes, one at each unit's start (TimelineProbes.h);
                       // without this field the runner reads the 24-byte intervals of the
                       // bundles compiled before.
                       {"record", "unit_start"},
                       // A null buffer makes no CTA record: the runner times that launch too.
                       {"runs_without_buffer", true}};
  if (d.tiles > 0)
    o["recorded_tiles"] = d.tiles;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(o));
  return text;
}

llvm::Expected<std::string> stagecraft::withTimeline(const std::string &manifestJson,
                                                     const std::string &timelineObject) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(manifestJson);
  if (!parsed)
    return parsed.takeError();
  size_t close = manifestJson.find_last_of('}');
  if (!parsed->getAsObject() || close == std::string::npos)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the manifest is not a JSON object");
  if (parsed->getAsObject()->get("timeline"))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the manifest has a timeline already");
  // The members end before the closing brace (and its newline).
  size_t end = manifestJson.find_last_not_of(" \n\t\r", close - 1) + 1;
  std::string out = manifestJson.substr(0, end) + ",\n  \"timeline\": " + timelineObject +
                    manifestJson.substr(end);
  if (llvm::Expected<llvm::json::Value> check = llvm::json::parse(out); !check)
    return check.takeError();
  return out;
}
