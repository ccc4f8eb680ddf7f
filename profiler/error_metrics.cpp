#include "error_metrics.h"

#include <cmath>
#include <limits>

namespace stagecraft::profiler {

double maxRelErr(const ErrorSummary &s) {
  if (s.maxAbsRef > 0.0) return s.maxAbsDiff / s.maxAbsRef;
  return s.maxAbsDiff == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
}

double normRelErr(const ErrorSummary &s) {
  if (s.sumSqRef > 0.0) return std::sqrt(s.sumSqDiff / s.sumSqRef);
  return s.sumSqDiff == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
}

bool passes(const ErrorSummary &s, const Tolerance &tol) {
  if (s.nonfinite != 0 || s.count == 0) return false;
  // An all-zero reference means the inputs were not initialised: nothing was really checked.
  if (!(s.maxAbsRef > 0.0)) return false;
  double n = normRelErr(s), m = maxRelErr(s);
  // Written so that a NaN error fails (comparisons with NaN are false).
  return n <= tol.normRel && m <= tol.maxRel;
}

Tolerance widenedByReorderNoise(const Tolerance &tol, const ErrorSummary &noise) {
  if (noise.nonfinite != 0 || noise.count == 0) return tol;
  double n = normRelErr(noise), m = maxRelErr(noise);
  if (!std::isfinite(n) || !std::isfinite(m)) return tol;
  return Tolerance{std::max(tol.normRel, std::min(kReorderToleranceCap, kReorderNoiseFactor * n)),
                   std::max(tol.maxRel, std::min(kReorderToleranceCap, kReorderNoiseFactor * m))};
}

}  // namespace stagecraft::profiler

namespace stagecraft::profiler {

Tolerance widenedByStep(const Tolerance &tol, const ErrorSummary &s, double step) {
  uint64_t n = s.count > s.unwritten ? s.count - s.unwritten : 0;
  if (!(step > 0.0) || n == 0 || !(s.maxAbsRef > 0.0) || !(s.sumSqRef > 0.0)) return tol;
  double rms = std::sqrt(s.sumSqRef / double(n));
  return Tolerance{tol.normRel + step / rms, tol.maxRel + step / s.maxAbsRef};
}

ErrorSummary compareIntegers(const int32_t *out, const int32_t *ref, uint64_t n, double excludeAbove) {
  ErrorSummary s;
  s.count = n;
  for (uint64_t i = 0; i < n; ++i) {
    double r = double(ref[i]);
    double d = std::fabs(double(int64_t(out[i]) - int64_t(ref[i])));
    s.sumSqRef += r * r;
    s.maxAbsRef = std::max(s.maxAbsRef, std::fabs(r));
    if (d > excludeAbove) {
      ++s.excluded;
      continue;
    }
    s.sumSqDiff += d * d;
    s.maxAbsDiff = std::max(s.maxAbsDiff, d);
  }
  return s;
}

bool matchesZeroReference(const ErrorSummary &s) {
  return s.nonfinite == 0 && s.count > s.unwritten && s.maxAbsRef == 0.0 && s.maxAbsDiff == 0.0 &&
         s.sumSqDiff == 0.0;
}

uint64_t flipsAllowed(uint64_t count, double fraction) {
  if (!(fraction > 0.0) || count == 0) return 0;
  return std::max<uint64_t>(1, uint64_t(std::ceil(std::min(fraction, 1.0) * double(count))));
}

double flipThreshold(const ErrorSummary &all, const Tolerance &tol) { return tol.maxRel * all.maxAbsRef; }

bool passesWithFlips(const ErrorSummary &rest, const Tolerance &tol, uint64_t allowed) {
  return rest.excluded <= allowed && passes(rest, tol);
}

}  // namespace stagecraft::profiler
