//===- TraceMatch.h - does a measured trace belong to this kernel? -*- C++ -*-===//
//
// A trace file (MeasuredTraceFile.h) may come from another kernel or another
// schedule of this one; drawn under this schedule's predicted lanes it would
// mislead. This checks it as far as the file says: its kernel's name, its
// units against the loop's, and then the most precise of what it carries:
// the schedule it was measured with (compared as legality reads a schedule:
// stage differences, body order, group, wait, consumers), else its units'
// schedule groups, else (older traces) which of its units were recorded on
// a producer warp group. No ImGui.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_TRACEMATCH_H
#define STAGECRAFT_APP_TRACEMATCH_H

#include "app/MeasuredTraceFile.h"

#include "core/Schedule/LoopGraph.h"

#include <string>

namespace stagecraft::app {

/// "" when `file` can be a measurement of `kernel` (whose loop is `graph`)
/// under `schedule`; else what differs, in words ("it was measured for
/// kernel \"gemm\", not \"attn_fwd_d128\"").
std::string checkTraceMatches(const MeasuredTraceFile &file, const std::string &kernel,
                              const LoopGraph &graph, const Schedule &schedule);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_TRACEMATCH_H
