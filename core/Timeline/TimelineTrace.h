//===- TimelineTrace.h - timelines as Chrome trace-event JSON -----*- C++ -*-===//
//
// The predicted timeline of stagecraft-compile --timeline: one process
// "predicted", a thread per row (each warp group, then the SM's TMA, tensor
// and CUDA-core pipes), one complete event per unit per iteration. The
// measured timeline (stagecraft-run --trace) goes through the same writer
// (core/TraceEvents) with a process per sampled CTA.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_TIMELINETRACE_H
#define STAGECRAFT_CORE_TIMELINE_TIMELINETRACE_H

#include "core/Timeline/Simulator.h"
#include "core/TraceEvents/TraceEvents.h"

namespace stagecraft::timeline {

/// Adds `t` as process `pid` named `processName`: its rows as threads
/// (tid = row index + 1, in row order), its zones as complete events.
void appendTimeline(trace::Document &doc, const Timeline &t, int64_t pid,
                    const std::string &processName, int64_t sortIndex);

/// The whole predicted trace of `kernel`, with the prediction's figures
/// (iteration time, bound, TFLOP/s, occupancy, model) in otherData.
trace::Document predictedTrace(const Prediction &p, const std::string &kernel,
                               const HopperModel &model);

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_TIMELINETRACE_H
