//===- InputCheck.h - refuse input the MLIR parser should not see -*- C++ -*-===//
//
// MLIR's parser is recursive descent: a file nested a million brackets deep
// would overflow the stack, and a gigabyte of text would stall the app. Every
// tool runs this check before parsing, so such input gets a diagnostic with
// file:line:col and a non-zero exit instead of a crash or a hang.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SUPPORT_INPUTCHECK_H
#define STAGECRAFT_CORE_SUPPORT_INPUTCHECK_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace stagecraft {

struct InputLimits {
  uint64_t maxBytes = 64ull << 20; // loop IR is kilobytes; 64 MiB is absurd
  unsigned maxNesting = 256;       // brackets of any kind, outside strings
};

/// Returns "" when `text` may be parsed, else a one-line diagnostic
/// "FILE:LINE:COL: error: ..." naming where the problem is.
std::string checkInputText(llvm::StringRef text, llvm::StringRef filename,
                           const InputLimits &limits = {});

/// Whether a file a user names may be read whole: "" when `path` is a
/// regular file of at most `maxBytes`, else "PATH: why" (no such file, a
/// directory, a device such as /dev/zero that never ends, a FIFO that would
/// hang, too large).
std::string checkUserFile(llvm::StringRef path, uint64_t maxBytes = 64ull << 20);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SUPPORT_INPUTCHECK_H
