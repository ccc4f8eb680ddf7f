//===- Json.h - llvm::json::parse for files a user hands us ------*- C++ -*-===//
//
// llvm::json::parse is recursive: a file of a million '[' overflows the stack
// (a crash, not an error). Every JSON a user can hand a tool (schedules,
// model parameters, batch files, measured traces, runner replies, autosaves)
// goes through parseJson, which refuses nesting no such file has before
// parsing it, naming the line and column.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SUPPORT_JSON_H
#define STAGECRAFT_CORE_SUPPORT_JSON_H

#include "llvm/Support/JSON.h"

namespace stagecraft {

/// "" when `text`'s arrays and objects nest at most `maxDepth` deep (outside
/// strings) and no object has a key twice, else "line L column C: nesting
/// deeper than N levels" or "line L column C: the key "K" appears twice in
/// one object". Malformed JSON is left to the parser.
std::string checkJsonStructure(llvm::StringRef text, unsigned maxDepth);

/// llvm::json::parse after checkJsonStructure.
llvm::Expected<llvm::json::Value> parseJson(llvm::StringRef text, unsigned maxDepth = 64);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SUPPORT_JSON_H
