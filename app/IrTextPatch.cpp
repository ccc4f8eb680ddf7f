//===- IrTextPatch.cpp - rewrite tile.sched attributes in IR text ---------===//
#include "app/IrTextPatch.h"

#include <set>

using namespace stagecraft;

std::string stagecraft::app::schedAttrText(const std::string &name,
                                           const OpSchedule &s) {
  std::string t = "#tile.sched<\"" + name + "\", stage = " +
                  std::to_string(s.stage) + ", order = " +
                  std::to_string(s.order) + ", group = " +
                  std::to_string(s.group);
  if (s.wait)
    t += ", wait = " + std::to_string(s.wait);
  return t + ">";
}

bool stagecraft::app::patchSchedAttrs(const std::string &text,
                                      const Schedule &schedule,
                                      std::string &out) {
  static const std::string kOpen = "#tile.sched<\"";
  std::set<std::string> seen;
  out.clear();
  out.reserve(text.size());
  size_t pos = 0;
  while (true) {
    size_t at = text.find(kOpen, pos);
    if (at == std::string::npos)
      break;
    size_t nameStart = at + kOpen.size();
    size_t nameEnd = text.find('"', nameStart);
    size_t close = nameEnd == std::string::npos ? nameEnd
                                                : text.find('>', nameEnd);
    // A line break inside means this is not an attribute we understand.
    if (close == std::string::npos ||
        text.find('\n', nameStart) < close) {
      out.append(text, pos, nameStart - pos);
      pos = nameStart;
      continue;
    }
    std::string name = text.substr(nameStart, nameEnd - nameStart);
    out.append(text, pos, at - pos);
    if (const OpSchedule *s = schedule.find(name)) {
      out += schedAttrText(name, *s);
      seen.insert(name);
    } else {
      out.append(text, at, close + 1 - at);
    }
    pos = close + 1;
  }
  out.append(text, pos, std::string::npos);
  for (const ScheduleEntry &e : schedule.entries())
    if (!seen.count(e.name))
      return false;
  return true;
}
