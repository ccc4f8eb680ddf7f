//===- Timeline.cpp - unit intervals per warp group ---------------------===//
#include "core/Timeline/Timeline.h"

#include <algorithm>

using namespace stagecraft::timeline;

const char *stagecraft::timeline::rowKindName(RowKind kind) {
  switch (kind) {
  case RowKind::Producer: return "producer";
  case RowKind::Consumer: return "consumer";
  case RowKind::TensorCores: return "tensor cores";
  case RowKind::LoadPipe: return "TMA loads";
  case RowKind::MathPipe: return "CUDA cores";
  }
  return "?";
}

int Timeline::findUnit(const std::string &name) const {
  for (size_t i = 0; i < units.size(); ++i)
    if (units[i].name == name)
      return static_cast<int>(i);
  return -1;
}

double Timeline::endNs() const {
  double e = 0;
  for (const Zone &z : zones)
    e = std::max(e, z.end);
  return e;
}

void Timeline::sortZones() {
  std::stable_sort(zones.begin(), zones.end(), [](const Zone &a, const Zone &b) {
    return a.row != b.row ? a.row < b.row : a.start < b.start;
  });
}
