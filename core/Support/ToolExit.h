//===- ToolExit.h - a command-line tool's exit status ------------*- C++ -*-===//
//
// What a tool printed must have reached its reader: a full disk or a closed
// pipe on standard output is an error, not a success. Each tool's main
// returns finishStdout(its status).
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SUPPORT_TOOLEXIT_H
#define STAGECRAFT_CORE_SUPPORT_TOOLEXIT_H

#include "llvm/Support/raw_ostream.h"

namespace stagecraft {

inline int finishStdout(int status) {
  llvm::outs().flush();
  if (!llvm::outs().has_error())
    return status;
  llvm::errs() << "error: cannot write the output: " << llvm::outs().error().message() << "\n";
  llvm::outs().clear_error();
  return status ? status : 1;
}

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SUPPORT_TOOLEXIT_H
