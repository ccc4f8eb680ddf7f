//===- LoadSharing.cpp - where a loop load's bytes come from --------------===//
#include "core/Timeline/LoadSharing.h"

#include <algorithm>
#include <set>

using namespace stagecraft::timeline;

namespace {

int64_t evaluated(const LoadFootprint &f, int64_t wave) {
  return std::min<int64_t>(wave, static_cast<int64_t>(f.boxPerCta.size()));
}

/// Bytes-weighted mean of `part` over the unit's loads that have one.
template <typename Part>
std::optional<double> weighted(const UnitWork &w, int64_t wave, Part part) {
  double bytes = 0, sum = 0;
  for (const LoadFootprint &f : w.footprints)
    if (std::optional<double> x = part(f, wave)) {
      bytes += static_cast<double>(f.bytes);
      sum += static_cast<double>(f.bytes) * *x;
    }
  if (bytes <= 0)
    return std::nullopt;
  return sum / bytes;
}

} // namespace

std::optional<double> stagecraft::timeline::boxMissFraction(const LoadFootprint &f, int64_t wave) {
  int64_t n = evaluated(f, wave);
  if (n <= 0)
    return std::nullopt;
  std::set<uint64_t> distinct(f.boxPerCta.begin(), f.boxPerCta.begin() + n);
  return static_cast<double>(distinct.size()) / static_cast<double>(n);
}

std::optional<double> stagecraft::timeline::missFraction(const UnitWork &w, int64_t wave) {
  return weighted(w, wave, [](const LoadFootprint &f, int64_t n) { return boxMissFraction(f, n); });
}

std::optional<double> stagecraft::timeline::tpcSharedFraction(const LoadFootprint &f,
                                                             int64_t wave) {
  int64_t n = evaluated(f, wave);
  if (n < 1)
    return std::nullopt;
  // Pairs (c, c + 1); the last CTA of an odd wave has its TPC to itself.
  int64_t shared = 0;
  for (int64_t c = 0; c + 1 < n; c += 2)
    shared += f.boxPerCta[c] == f.boxPerCta[c + 1] ? 2 : 0;
  return static_cast<double>(shared) / static_cast<double>(n);
}

std::optional<double> stagecraft::timeline::tpcSharedFraction(const UnitWork &w, int64_t wave) {
  return weighted(w, wave,
                  [](const LoadFootprint &f, int64_t n) { return tpcSharedFraction(f, n); });
}

double stagecraft::timeline::linkBytes(const UnitWork &w, int64_t wave, double coalescing) {
  double bytes = static_cast<double>(w.loadBytes);
  for (const LoadFootprint &f : w.footprints)
    if (std::optional<double> shared = tpcSharedFraction(f, wave))
      bytes -= static_cast<double>(f.bytes) * coalescing * *shared / 2.0;
  return std::max(0.0, bytes);
}
