#include "error_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace stagecraft::profiler;

namespace {

ErrorSummary summary(double sumSqDiff, double sumSqRef, double maxDiff, double maxRef, uint64_t nonfinite = 0) {
  ErrorSummary s;
  s.sumSqDiff = sumSqDiff;
  s.sumSqRef = sumSqRef;
  s.maxAbsDiff = maxDiff;
  s.maxAbsRef = maxRef;
  s.nonfinite = nonfinite;
  s.count = 1000;
  return s;
}

TEST(ErrorMetrics, Definitions) {
  ErrorSummary s = summary(4.0, 10000.0, 0.5, 10.0);
  EXPECT_DOUBLE_EQ(normRelErr(s), 0.02);  // sqrt(4 / 10000)
  EXPECT_DOUBLE_EQ(maxRelErr(s), 0.05);   // 0.5 / 10
}

TEST(ErrorMetrics, TypicalBf16OutputPasses) {
  // Measured on the H100 for the fixture GEMM: norm 1.66e-3, max 2.1e-3.
  EXPECT_TRUE(passes(summary(1.66e-3 * 1.66e-3, 1.0, 2.1e-3, 1.0), Tolerance{}));
}

TEST(ErrorMetrics, ToleranceBoundaries) {
  Tolerance tol;
  const double n = 0.99 * tol.normRel;
  EXPECT_TRUE(passes(summary(n * n, 1.0, 0.99 * tol.maxRel, 1.0), tol));
  const double over = 1.01 * tol.normRel;
  EXPECT_FALSE(passes(summary(over * over, 1.0, 0.0, 1.0), tol));
  EXPECT_FALSE(passes(summary(0.0, 1.0, tol.maxRel * 1.01, 1.0), tol));
  // The wrong fixture GEMM (last K tile skipped at K = 4096): norm 0.125.
  EXPECT_FALSE(passes(summary(0.125 * 0.125, 1.0, 0.118, 1.0), tol));
}

TEST(ErrorMetrics, NanNeverPasses) {
  EXPECT_FALSE(passes(summary(0.0, 1.0, 0.0, 1.0, /*nonfinite=*/1), Tolerance{}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(passes(summary(nan, 1.0, 0.0, 1.0), Tolerance{}));
  EXPECT_FALSE(passes(summary(0.0, 1.0, nan, 1.0), Tolerance{}));
}

TEST(ErrorMetrics, NothingComparedOrZeroReferenceFails) {
  ErrorSummary s = summary(0.0, 1.0, 0.0, 1.0);
  s.count = 0;
  EXPECT_FALSE(passes(s, Tolerance{}));
  EXPECT_FALSE(passes(summary(0.0, 0.0, 0.0, 0.0), Tolerance{}));
  EXPECT_TRUE(std::isinf(normRelErr(summary(1.0, 0.0, 1.0, 0.0))));
}

// The failing case of docs/compiler.md's known limit: an f32 output of x / (1 + x^2) over a
// K = 4096 dot, 2.7e-5 norm-wise and 4.7e-4 at most against a derived 1.6e-5 / 1e-4.
TEST(ErrorMetrics, ReorderNoiseWidensTheDerivedTolerance) {
  Tolerance derived{1.6e-5, 1e-4};
  ErrorSummary kernel = summary(2.7e-5 * 2.7e-5, 1.0, 4.7e-4, 1.0);
  EXPECT_FALSE(passes(kernel, derived));
  // The reference moved 4.9e-6 norm-wise, 1.6e-4 at most with its sums reordered (the H200's
  // run): kReorderNoiseFactor times that holds the kernel.
  Tolerance widened = widenedByReorderNoise(derived, summary(4.9e-6 * 4.9e-6, 1.0, 1.6e-4, 1.0));
  EXPECT_DOUBLE_EQ(widened.normRel, kReorderNoiseFactor * 4.9e-6);
  EXPECT_DOUBLE_EQ(widened.maxRel, kReorderNoiseFactor * 1.6e-4);
  EXPECT_TRUE(passes(kernel, widened));
  // The eighth sweep's row sums of exp over a 1000-deep dot: 4.4e-5 norm-wise where the
  // reference moved 5e-6 (8.8x, past the factor of 8 it had).
  EXPECT_TRUE(passes(summary(4.4e-5 * 4.4e-5, 1.0, 4.6e-5, 1.0),
                     widenedByReorderNoise(Tolerance{1e-5, 1e-4}, summary(5e-6 * 5e-6, 1.0, 5e-6, 1.0))));
  // The same kernel wrong by 1e-3 (1.001 / (x^2 + 1.001)): 7.75e-4 norm-wise, 7.2e-4 at most.
  EXPECT_FALSE(passes(summary(7.75e-4 * 7.75e-4, 1.0, 7.2e-4, 1.0), widened));
  // A tile missed: 0.1 norm-wise.
  EXPECT_FALSE(passes(summary(0.1 * 0.1, 1.0, 0.3, 1.0), widened));
}

TEST(ErrorMetrics, ReorderNoiseNeverNarrowsOrPassesTheCap) {
  Tolerance derived{1e-2, 5e-2};
  // A reference that barely moves leaves the derived tolerance as it is.
  Tolerance same = widenedByReorderNoise(derived, summary(1e-12, 1.0, 1e-6, 1.0));
  EXPECT_DOUBLE_EQ(same.normRel, 1e-2);
  EXPECT_DOUBLE_EQ(same.maxRel, 5e-2);
  // One that moves a lot is capped: it checks nothing past that.
  Tolerance capped = widenedByReorderNoise(derived, summary(0.5 * 0.5, 1.0, 0.9, 1.0));
  EXPECT_DOUBLE_EQ(capped.normRel, kReorderToleranceCap);
  EXPECT_DOUBLE_EQ(capped.maxRel, kReorderToleranceCap);
  // A second run with NaN, or nothing compared, widens nothing.
  Tolerance nan = widenedByReorderNoise(derived, summary(1.0, 1.0, 1.0, 1.0, /*nonfinite=*/1));
  EXPECT_DOUBLE_EQ(nan.normRel, 1e-2);
  ErrorSummary none = summary(1.0, 1.0, 1.0, 1.0);
  none.count = 0;
  EXPECT_DOUBLE_EQ(widenedByReorderNoise(derived, none).maxRel, 5e-2);
}

TEST(ErrorMetrics, FlipsNearTiesAreCountedNotAveraged) {
  // An argmax over 2000 rows (the seventh sweep's classifier head's form): flip_fraction 7e-4
  // allows 2 rows; a fraction that rounds below one element allows
  // one; none given, none.
  EXPECT_EQ(flipsAllowed(2000, 7e-4), 2u);
  EXPECT_EQ(flipsAllowed(128, 1e-4), 1u);
  EXPECT_EQ(flipsAllowed(2000, 0.0), 0u);
  EXPECT_EQ(flipsAllowed(0, 0.5), 0u);
  EXPECT_EQ(flipsAllowed(10, 7.0), 10u);
  Tolerance tol{1e-5, 1e-4};
  // All elements: one index 19 columns off at a largest index of 200, 0.095 of it.
  ErrorSummary all = summary(19.0 * 19.0, 2000 * 100.0 * 100.0, 19.0, 200.0);
  all.count = 2000;
  EXPECT_FALSE(passes(all, tol));
  EXPECT_DOUBLE_EQ(flipThreshold(all, tol), 1e-4 * 200.0);
  // Without the element past the threshold the rest match exactly: passes with one flip.
  ErrorSummary rest = summary(0.0, 2000 * 100.0 * 100.0, 0.0, 200.0);
  rest.count = 2000;
  rest.excluded = 1;
  EXPECT_TRUE(passesWithFlips(rest, tol, 2));
  // More flips than allowed (a column offset wrong in a tenth of the rows): fails.
  rest.excluded = 200;
  EXPECT_FALSE(passesWithFlips(rest, tol, 2));
  // Few flips, but the other elements off too: fails.
  rest.excluded = 1;
  rest.sumSqDiff = 2000 * 1.0;
  EXPECT_FALSE(passesWithFlips(rest, tol, 2));
}

TEST(ErrorMetrics, AnAllZeroIrReferenceMatchedExactlyPasses) {
  // A loop of no iterations at these sizes: reference and kernel all zeros.
  ErrorSummary zeros = summary(0.0, 0.0, 0.0, 0.0);
  EXPECT_FALSE(passes(zeros, Tolerance{}));
  EXPECT_TRUE(matchesZeroReference(zeros));
  // The kernel not zero: no match; nothing but unwritten elements: nothing matched.
  EXPECT_FALSE(matchesZeroReference(summary(1e-12, 0.0, 1e-6, 0.0)));
  ErrorSummary unwritten = summary(0.0, 0.0, 0.0, 0.0);
  unwritten.unwritten = unwritten.count;
  EXPECT_FALSE(matchesZeroReference(unwritten));
  EXPECT_FALSE(matchesZeroReference(summary(0.0, 0.0, 0.0, 0.0, /*nonfinite=*/1)));
}

TEST(ErrorMetrics, IntegersAreComparedExactly) {
  // Flat indices past 2^24, one of them off by one: in fp32 both round to the same value.
  const int32_t ref[] = {16777217, 20000001, 3, -1};
  const int32_t out[] = {16777216, 20000001, 3, -1};
  EXPECT_EQ(float(ref[0]), float(out[0]));
  ErrorSummary s = compareIntegers(out, ref, 4);
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.maxAbsDiff, 1.0);
  EXPECT_DOUBLE_EQ(s.maxAbsRef, 20000001.0);
  EXPECT_FALSE(passes(s, Tolerance{1e-10, 1e-10}));
  // The element past a threshold is counted apart (a flip), the rest exact.
  ErrorSummary rest = compareIntegers(out, ref, 4, 0.5);
  EXPECT_EQ(rest.excluded, 1u);
  EXPECT_DOUBLE_EQ(rest.maxAbsDiff, 0.0);
  EXPECT_TRUE(passesWithFlips(rest, Tolerance{1e-10, 1e-10}, 1));
}

}  // namespace
