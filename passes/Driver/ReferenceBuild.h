//===- ReferenceBuild.h - the reference kernel on a thread of its own -*- C++ -*-===//
//
// The reference kernel (tile-lower-reference: the same IR lowered plainly,
// docs/bundle-format.md) takes about as long to compile as the kernel
// itself, and nobody waits for it before the kernel's PTX. So it is built
// from the scheduled IR's text in an MLIRContext of its own, on a thread of
// its own: it never touches the kernel's context and can overlap anything.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_REFERENCEBUILD_H
#define STAGECRAFT_PASSES_DRIVER_REFERENCEBUILD_H

#include "passes/Target.h"

#include "passes/Driver/BuildThread.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace stagecraft {

struct ReferenceBuild {
  // In.
  /// The scheduled module, printed with its locations (so diagnostics name
  /// the user's file and line).
  std::string scheduledIR;
  std::string sourceName;
  /// Programs of the kernel's grid (the reference's blocks are capped by it).
  int64_t programs = 1;
  /// The GPU the reference is compiled for (the kernel's).
  Target target;
  /// Stop at the next step when either is set.
  std::shared_ptr<std::atomic<bool>> cancel;
  std::atomic<bool> abandon{false};

  // Out.
  bool ok = false, stopped = false;
  std::vector<std::string> diagnostics;
  std::string ptx, kernel;
  int64_t blocks = 0, scratchPerBlock = 0;
  double millis = 0;

  /// Runs the whole build on the calling thread.
  void run();
};

/// A ReferenceBuild on its own thread (BuildThread.h).
using ReferenceThread = BuildThread<ReferenceBuild>;

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_REFERENCEBUILD_H
