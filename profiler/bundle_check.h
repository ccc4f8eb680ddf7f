// Checks a bundle without a GPU: the "check" request and --dry-run (docs/runner-protocol.md).
//
// Everything a run checks before it needs the device: the manifest (parsed and validated, errors
// naming the field), and that a module is there to load (kernel.cubin, an ELF file, or
// kernel.ptx). A bundle that passes may still fail on the GPU (a cubin for another architecture,
// a launch the device refuses), but not for anything the runner could have known earlier.
#pragma once

#include "protocol.h"

namespace stagecraft::profiler {

// The result of checking `request.bundle` (a directory): status ok with the manifest's kernel,
// grid, block, cluster, shared memory, FLOPs, problem, reference kind and the module that would
// be loaded; or status error with the reason. Never throws; verified is always false.
Result checkBundle(const Request &request);

}  // namespace stagecraft::profiler
