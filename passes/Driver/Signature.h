//===- Signature.h - the kernel's interface, symbolically ---------*- C++ -*-===//
//
// What a program needs to call a compiled kernel at sizes nobody chose yet:
// the sizes (names, defaults), each argument in kernel-parameter order
// (tensor descriptors with their dtype, role and global shape as an
// expression of the sizes; sizes), the grid as expressions of the sizes, and
// what the schedule made of the loop. Read from the tile kernel before
// lowering, written to the bundle as signature.json
// (docs/bundle-format.md#signaturejson). The manifest says the same things at
// one set of sizes; the exporter (Export.h) combines the two.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_SIGNATURE_H
#define STAGECRAFT_PASSES_DRIVER_SIGNATURE_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace stagecraft {

struct ScheduleReport;

/// signature.json of `kernel` (a tile kernel whose signature is valid).
/// `source` is the text the kernel was parsed from: argument names are read
/// at the arguments' locations (`%Q` names the argument "Q"). Returns "" and
/// `sourceName` is recorded for the exported README. Returns "" and
/// emits nothing when the kernel has no valid signature (the manifest
/// reports that).
std::string describeSignature(mlir::func::FuncOp kernel, llvm::StringRef source,
                              llvm::StringRef sourceName, const ScheduleReport &report);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_SIGNATURE_H
