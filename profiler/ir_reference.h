// The bundle's own reference kernel (manifest reference kind "ir"): the kernel's IR lowered
// plainly by the compiler, run here on the same inputs, every listed output compared with the
// kernel's within the tolerances the compiler derived from the IR.
#pragma once

#include "error_metrics.h"
#include "launch.h"
#include "manifest.h"
#include "runner_kernels.h"
#include "verify.h"

#include <string>
#include <vector>

namespace stagecraft::profiler {

// Runs the reference kernel of `bundleDir` on input set 0 (the kernel's outputs must hold the
// checked launch's results) and compares every output the manifest lists.
std::vector<OutputCheckResult> verifyIrReference(const IrReference &ref, const Manifest &m,
                                                 const std::string &bundleDir, const LoadedBundle &bundle,
                                                 const RunnerKernels &kernels, CUstream stream,
                                                 const StreamWait &wait);

}  // namespace stagecraft::profiler
