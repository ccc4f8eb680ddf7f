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
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

/// Reads the input a tool names: a file (checked by checkUserFile first) or,
/// for "-", standard input, read up to `maxBytes` and refused past it (an
/// endless stream such as /dev/zero is not read whole). Returns the buffer,
/// or null with `error` set to "PATH: why".
std::unique_ptr<llvm::MemoryBuffer> readUserInput(llvm::StringRef path, std::string &error,
                                                  uint64_t maxBytes = 64ull << 20);

/// Reads the command line's `--size NAME=VALUE` options into (name, value)
/// pairs: "" when they are well formed, else the error (no '=', a value that
/// is not an integer or does not fit 64 bits, a name given twice). The
/// range of a size is the kernel's to check (KernelSignature::bind).
std::string parseSizeOptions(const std::vector<std::string> &options,
                             std::vector<std::pair<std::string, int64_t>> &sizes);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SUPPORT_INPUTCHECK_H
