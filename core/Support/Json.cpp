//===- Json.cpp - llvm::json::parse for files a user hands us -------------===//
#include "core/Support/Json.h"

#include "llvm/ADT/Twine.h"

std::string stagecraft::checkJsonNesting(llvm::StringRef text, unsigned maxDepth) {
  unsigned depth = 0, line = 1, col = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
    }
    if (inString) {
      if (c == '\\')
        ++i, ++col;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return (llvm::Twine("line ") + llvm::Twine(line) + " column " + llvm::Twine(col) +
                ": nesting deeper than " + llvm::Twine(maxDepth) + " levels")
            .str();
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return "";
}

llvm::Expected<llvm::json::Value> stagecraft::parseJson(llvm::StringRef text, unsigned maxDepth) {
  if (std::string why = checkJsonNesting(text, maxDepth); !why.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", why.c_str());
  return llvm::json::parse(text);
}
