//===- LoadSharing.h - where a loop load's bytes come from --------*- C++ -*-===//
//
// A TMA load's box, CTA by CTA (LoadFootprint), says two things about its
// bytes on the H100:
//  - DRAM or L2: of the CTAs of the first wave that load the same box in the
//    same iteration, one misses in the L2 and the others hit;
//  - how many cross the TPC's link: the launch puts CTAs 2k and 2k+1 on the
//    two SMs of one TPC (every pair of a persistent GEMM's trace, bench/
//    results/cta-placement-h100-2026-11-26), and two SMs of a TPC that load
//    the same bytes at once get them 1.75x as fast as different bytes, while
//    two SMs on different TPCs get nothing from it (bench/results/l2-sharing-
//    h100-2026-11-26). The TPC serves the pair's second copy of a shared box
//    at a fraction of its cost (HopperModel::tpcCoalescing). (Four SMs of
//    two TPCs the launch fills one after the other, all reading the same
//    bytes, get them faster still, 76-78 bytes a cycle each; a term for that
//    fitted the bar worse, docs/timeline.md.)
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_LOADSHARING_H
#define STAGECRAFT_CORE_TIMELINE_LOADSHARING_H

#include "core/Timeline/KernelCosts.h"

#include <optional>

namespace stagecraft::timeline {

/// The part of a load's bytes that comes from DRAM when `wave` CTAs (the
/// first in launch order) run at once; none when its boxes are unknown.
std::optional<double> boxMissFraction(const LoadFootprint &f, int64_t wave);

/// The same over a unit's loads whose boxes are known (bytes-weighted).
std::optional<double> missFraction(const UnitWork &w, int64_t wave);

/// Of the first `wave` CTAs, the part whose TPC partner (the CTA launched
/// beside it: linear index c xor 1) loads the same box (the last CTA of an
/// odd wave has no partner); none when the boxes are unknown.
std::optional<double> tpcSharedFraction(const LoadFootprint &f, int64_t wave);

/// The same over a unit's loads whose boxes are known (bytes-weighted).
std::optional<double> tpcSharedFraction(const UnitWork &w, int64_t wave);

/// What a unit's loads cost on its TPC's link, in bytes of the SM's share of
/// the L2 bandwidth: every byte, less `coalescing` x half of those the
/// partner loads too (a box both SMs load crosses the link about once). A
/// load whose boxes are unknown counts in full.
double linkBytes(const UnitWork &w, int64_t wave, double coalescing);

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_LOADSHARING_H
