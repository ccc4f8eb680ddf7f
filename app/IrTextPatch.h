//===- IrTextPatch.h - rewrite tile.sched attributes in IR text ---*- C++ -*-===//
//
// Saving a schedule into an .mlir file should not throw away the file's
// comments and layout (printing the module would). So the app rewrites the
// `#tile.sched<"NAME", stage = S, order = O, group = G[, wait = W]>`
// attributes where they stand, and only falls back to the printer when some
// unit has no attribute in the text to rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_IRTEXTPATCH_H
#define STAGECRAFT_APP_IRTEXTPATCH_H

#include "core/Schedule/Schedule.h"

#include <string>

namespace stagecraft::app {

/// The attribute text for one unit, as the dialect prints it.
std::string schedAttrText(const std::string &name, const OpSchedule &s);

/// Rewrites every `#tile.sched<"NAME", ...>` whose NAME the schedule has.
/// Returns false when a unit of the schedule appears in no attribute (the
/// caller then prints the module instead).
bool patchSchedAttrs(const std::string &text, const Schedule &schedule,
                     std::string &out);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_IRTEXTPATCH_H
