// How an output is judged against its reference (pure arithmetic, testable without a GPU).
//
//   max_rel_err  = max_i |out_i - ref_i| / max_i |ref_i|
//   norm_rel_err = ||out - ref||_2 / ||ref||_2
//
// Both are relative to the reference's scale, not element-wise: element-wise relative error is
// meaningless where ref_i is near zero, which a GEMM or attention output has plenty of. A single
// NaN or infinity in the output (or the reference) fails the check, whatever the norms say.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace stagecraft::profiler {

struct ErrorSummary {
  double sumSqDiff = 0.0;
  double sumSqRef = 0.0;
  double maxAbsDiff = 0.0;
  double maxAbsRef = 0.0;
  uint64_t nonfinite = 0;  // elements where out or ref was NaN or +-inf
  uint64_t nonfiniteRef = 0;  // of those, where the reference itself was
  uint64_t count = 0;      // elements compared
  // Elements that differed by more than a threshold the comparison was given, counted here and
  // left out of sumSqDiff and maxAbsDiff (not of sumSqRef, maxAbsRef or count): flips.
  uint64_t excluded = 0;
  // Elements the kernel and its reference both left as the runner's poison (bytes 0xFF): written
  // by no program, in the IR. Counted apart, in no other field but `count`.
  uint64_t unwritten = 0;
};

// Default tolerances for bf16 outputs. A bf16 result carries 8 significant bits, so rounding the
// output alone gives up to 2^-9 = 0.002 relative error per element; fp32 accumulation in another
// order adds far less. A kernel with a real bug (a missed tile, a wrong index) lands at 1e-1 or
// worse. norm_rel_err <= 1e-2 is the main criterion; max_rel_err <= 5e-2 catches a few wrong
// elements that the norm would average away.
constexpr double kDefaultNormRelTol = 1e-2;
constexpr double kDefaultMaxRelTol = 5e-2;

struct Tolerance {
  double normRel = kDefaultNormRelTol;
  double maxRel = kDefaultMaxRelTol;
};

// One output checked against one reference.
struct OutputCheckResult {
  std::string tensor;
  std::string against;  // "ir" (the kernel's IR reference), "cublas", "attention"
  ErrorSummary errors;
  Tolerance tolerance;  // the one applied: `derived`, or widened by `reorderNoise`
  bool passed = false;
  // Where the output missed the tolerance the compiler derived from the IR and the reference
  // can reorder its sums: that tolerance, and how far the reference moved with its sums
  // reordered (its second run against its first).
  bool reordered = false;
  Tolerance derived;
  ErrorSummary reorderNoise;
  // Where the output passes through a comparison of rounded values (an argmax: the manifest's
  // flip_fraction) and missed its tolerance: the elements that miss its max by any amount
  // (`flipped`: flips near ties) and how many may (flipsAllowed). `errors` are then those of
  // the other elements when the flips are within the allowance, `withFlips` those of all.
  bool flipChecked = false;
  uint64_t flipped = 0, flipsAllowed = 0;
  ErrorSummary withFlips;
};

double maxRelErr(const ErrorSummary &s);
double normRelErr(const ErrorSummary &s);

// True only if nothing was non-finite, something was compared, the reference is not all zeros,
// and both errors are within tolerance.
bool passes(const ErrorSummary &s, const Tolerance &tol);

// An IR reference that is all zeros where it is written (a loop of no iterations at these
// sizes) and an output that matches it exactly: no tolerance to apply, and a pass (a peer's all
// zeros mean its inputs were never filled: passes() refuses those).
bool matchesZeroReference(const ErrorSummary &s);

// `out` against `ref`, i32 elements, in exact integer arithmetic (the GPU's statistics go through
// fp32, which cannot tell two indices apart above 2^24): the same summary, elements that differ
// by more than `excludeAbove` counted apart.
ErrorSummary compareIntegers(const int32_t *out, const int32_t *ref, uint64_t n,
                             double excludeAbove = std::numeric_limits<double>::infinity());

// A tolerance derived from the IR bounds rounding by the values' scales; math that shrinks a
// sum far below its terms' scale (x / (1 + x^2) of a K = 4096 dot) turns the sum's rounding into
// a relative error the IR does not show. The reference run twice, its sums reordered the second
// time, shows it: the kernel, whose sums run in another order again, may differ from the
// reference by kReorderNoiseFactor times what the two references differ by. Never past
// kReorderToleranceCap (a reference that moves that much checks nothing), never below `tol`;
// `tol` unchanged if the second run has a non-finite element. The factor is measured: the
// tensor cores' sums are coarser than fp32 fused multiply-adds in any order (they align and
// truncate), and the case above lands 5.6x the two runs' distance norm-wise, 2.9x at most (wgmma
// bf16, K = 4096, H200: bench/results/input-ranges-h200-2026-11-29); a kernel wrong by 1e-3
// there lands 157x norm-wise. 8 until a row sum of exp over a 1000-deep dot landed 8.8x
// (bench/results/sweep8-h200-2026-11-29): 16.
constexpr double kReorderNoiseFactor = 16.0;
constexpr double kReorderToleranceCap = 0.1;
Tolerance widenedByReorderNoise(const Tolerance &tol, const ErrorSummary &noise);

// An output rounded to integers from computed values may differ by a step (in its own units)
// beyond its tolerance: that step relative to the reference's largest value (max-wise) and to
// its root mean square (norm-wise) is added (`step` in the manifest; 0: `tol` unchanged).
Tolerance widenedByStep(const Tolerance &tol, const ErrorSummary &s, double step);

// Flips: an output that passes through a comparison (or a rounding to an integer) of values the
// kernel and its reference compute a rounding apart can differ by anything where two of them
// are within that rounding of a tie (an argmax's index). The compiler gives the fraction of the
// elements that may (`flip_fraction`, docs/compiler.md); at least one element may, in an output
// with that fraction.
uint64_t flipsAllowed(uint64_t count, double fraction);
// The absolute difference past which an element counts as a flip: the max-wise tolerance.
double flipThreshold(const ErrorSummary &all, const Tolerance &tol);
// Passes with flips: no more than `allowed` elements beyond the threshold (`rest.excluded`),
// and the others within the tolerance.
bool passesWithFlips(const ErrorSummary &rest, const Tolerance &tol, uint64_t allowed);

}  // namespace stagecraft::profiler
