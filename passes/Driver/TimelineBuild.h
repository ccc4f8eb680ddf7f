//===- TimelineBuild.h - the instrumented kernel on a thread of its own -*- C++ -*-===//
//
// The bundle's instrumented kernel (timeline.ptx / timeline.cubin,
// docs/bundle-format.md): the scheduled IR lowered a second time with
// tile-lower-to-nvvm{timeline=true}, through the same conversions and LLVM
// -O3 as the kernel, then ptxas when cubins are made. Like the reference
// (ReferenceBuild.h) it is built from the scheduled IR's text in an
// MLIRContext of its own, on a thread of its own, started only once the
// kernel's PTX exists: nobody waits for it before that.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_TIMELINEBUILD_H
#define STAGECRAFT_PASSES_DRIVER_TIMELINEBUILD_H

#include "passes/Driver/CompileDriver.h"
#include "passes/Driver/TimelineManifest.h"
#include "passes/Target.h"

#include "passes/Driver/BuildThread.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace stagecraft {

struct TimelineBuild {
  // In.
  std::string scheduledIR; // with locations
  std::string sourceName, kernel;
  Target target;
  CompileOptions options; // the kernel's (target, ptxas, emitCubin); callbacks unused
  std::atomic<bool> abandon{false};

  // Out.
  bool ok = false;
  std::vector<std::string> diagnostics;
  std::string ptx, cubin;
  PtxasReport ptxas;
  TimelineDescription description;
  double millis = 0;

  /// Runs the whole build on the calling thread.
  void run();
};

/// A TimelineBuild on its own thread (BuildThread.h).
using TimelineThread = BuildThread<TimelineBuild>;

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_TIMELINEBUILD_H
