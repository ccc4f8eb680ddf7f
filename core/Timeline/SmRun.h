//===- SmRun.h - the event loop of one SM ---------------------------*- C++ -*-===//
//
// Runs the CTAs resident on one SM (identical ones: the same trip count)
// through their warp groups' programs (SimPlan.h) and reports CTA 0: when
// each source iteration ends, what its warp groups waited for, the pipes'
// busy time and, when asked, its zones. Internal to core/Timeline.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_SMRUN_H
#define STAGECRAFT_CORE_TIMELINE_SMRUN_H

#include "core/Timeline/SimPlan.h"
#include "core/Timeline/Simulator.h"

namespace stagecraft::timeline {

struct Busy {
  std::vector<std::pair<double, double>> spans;
  double within(double a, double b) const {
    double t = 0;
    for (const auto &s : spans)
      t += std::max(0.0, std::min(b, s.second) - std::max(a, s.first));
    return t;
  }
};

/// A wait of a warp group of CTA 0, and why.
struct WaitSpan {
  double start, end;
  std::string reason;
  bool consumer = false; // a warp group that computes (not the producer)
};

struct RunResult {
  double ctaEnd = 0;                // cycles: CTA 0's last warp group done
  std::vector<double> iterationEnd; // per source iteration: CTA 0's consumers done (cycles)
  Busy tensor, tma, math;
  std::vector<WaitSpan> waits;
  Timeline timeline; // CTA 0, in ns (when recorded)
  bool deadlock = false;
  std::string deadlockWhere;
};

/// Runs `ctas` CTAs of `trip` iterations on one SM, in tiles of `tileTrip`
/// (a persistent kernel: the consumers' epilogue after each; 0 or `trip`:
/// one tile).
RunResult runSm(const Plan &plan, const LoopGraph &graph, const HopperModel &model,
                int64_t trip, int64_t tileTrip, int ctas, bool record,
                const SimOptions &options);

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_SMRUN_H
