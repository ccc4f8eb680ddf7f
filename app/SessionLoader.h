//===- SessionLoader.h - loop IR text to a loop graph -------------*- C++ -*-===//
//
// The only part of the app that touches MLIR: parse the IR of an opened file
// and extract the plain-data LoopGraph the board edits, and write a schedule
// back into IR text. Everything else in the app works on plain data, so a
// drag never parses anything.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_SESSIONLOADER_H
#define STAGECRAFT_APP_SESSIONLOADER_H

#include "core/Schedule/LoopGraph.h"
#include "core/Schedule/TileLoop.h"
#include "core/Timeline/KernelCosts.h"

#include <map>
#include <string>
#include <vector>

namespace stagecraft::app {

struct LoadedIr {
  bool ok = false;
  LoopGraph graph;
  std::string kernel;
  /// The file's other kernels, which the app does not show (one a file).
  std::vector<std::string> otherKernels;
  /// The work of each unit at the kernel's default sizes, for the predicted
  /// timeline (core/Timeline); `hasCosts` false (and a line in `diagnostics`)
  /// when they could not be read, which leaves the rest of the app working.
  timeline::KernelCosts costs;
  bool hasCosts = false;
  /// The tile loop around the pipelined loop (persistent kernels), as the
  /// IR's index arithmetic walks the tiles.
  TileLoop tileLoop;
  /// Persistent kernels: why the tile loop cannot take an order (row-major,
  /// column-major, grouped), by order; absent when it can.
  std::map<TileOrder, std::string> tileOrderRefusals;
  /// "file:line:col: error: ..." lines when !ok (and any warnings).
  std::vector<std::string> diagnostics;
};

/// Checks (checkInputText), parses and extracts the first kernel's pipelined
/// loop. Never throws or aborts on bad input: it reports.
LoadedIr loadLoopIr(const std::string &text, const std::string &sourceName);

/// The work of each unit of the IR's first kernel (whose loop graph is
/// `graph`) at `sizes`, overrides of its default sizes by name: what the
/// predicted timeline needs to be set beside a trace measured at other
/// sizes. False with `error` ("file:line:col: error: ...") on an unknown
/// size name, a size out of range, or IR that does not load.
bool kernelCostsAt(const std::string &text, const std::string &sourceName, const LoopGraph &graph,
                   const std::vector<std::pair<std::string, int64_t>> &sizes,
                   timeline::KernelCosts &out, std::string &error);

/// The IR with `schedule` written into its `tile.sched` attributes (and its
/// consumer arrangement and register budgets on the kernel). Patches the
/// text in place when every unit already carries an attribute and the
/// kernel-wide choices are the IR's (keeping comments and layout);
/// otherwise prints the module after writeSchedule.
/// Returns false with `error` set when the IR cannot take the schedule.
bool scheduledIrText(const std::string &text, const std::string &sourceName,
                     const Schedule &schedule, std::string &out,
                     std::string &error);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_SESSIONLOADER_H
