//===- Json.cpp - llvm::json::parse for files a user hands us -------------===//
#include "core/Support/Json.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdio>

namespace {
/// An open array or object; an object remembers its keys (as written,
/// escapes and all) and whether the next string is one. Objects have a few
/// keys (a trace has a million of them): a short list, a set past 16.
struct Frame {
  bool object = false;
  bool expectKey = false;
  llvm::SmallVector<llvm::StringRef, 8> few;
  llvm::DenseSet<llvm::StringRef> many;
  /// False when `key` was there already.
  bool insert(llvm::StringRef key) {
    if (many.empty()) {
      if (llvm::is_contained(few, key))
        return false;
      few.push_back(key);
      if (few.size() <= 16)
        return true;
      many.insert(few.begin(), few.end());
      return true;
    }
    return many.insert(key).second;
  }
};
} // namespace

std::string stagecraft::checkJsonStructure(llvm::StringRef text, unsigned maxDepth) {
  llvm::SmallVector<Frame, 8> open;
  unsigned line = 1, col = 0;
  auto at = [&](unsigned l, unsigned c) {
    return (llvm::Twine("line ") + llvm::Twine(l) + " column " + llvm::Twine(c) + ": ").str();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
    }
    if (c == '"') {
      unsigned startLine = line, startCol = col;
      size_t start = i + 1;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        ++col;
        if (text[i] == '\\' && i + 1 < text.size())
          ++i, ++col;
        else if (text[i] == '\n')
          ++line, col = 0;
      }
      ++col;
      // llvm::json::parse keeps the last of two equal keys without a word;
      // a schedule's second "ops" or an entry's second "name" would be
      // taken silently for what the user meant.
      if (!open.empty() && open.back().object && open.back().expectKey) {
        llvm::StringRef key = text.slice(start, std::min(i, text.size()));
        if (!open.back().insert(key))
          return at(startLine, startCol) + "the key \"" + key.str() +
                 "\" appears twice in one object";
        open.back().expectKey = false;
      }
      continue;
    }
    if (c == '[' || c == '{') {
      if (open.size() + 1 > maxDepth)
        return at(line, col) + "nesting deeper than " + std::to_string(maxDepth) + " levels";
      open.emplace_back();
      open.back().object = c == '{';
      open.back().expectKey = c == '{';
    } else if ((c == ']' || c == '}') && !open.empty()) {
      open.pop_back();
    } else if (c == ',' && !open.empty() && open.back().object) {
      open.back().expectKey = true;
    } else if (c == '0' && i + 1 < text.size() && llvm::isDigit(text[i + 1]) &&
               (i == 0 || !(llvm::isDigit(text[i - 1]) || text[i - 1] == '.' ||
                            text[i - 1] == 'e' || text[i - 1] == 'E' || text[i - 1] == '+' ||
                            (text[i - 1] == '-' && i > 1 && (text[i - 2] == 'e' || text[i - 2] == 'E'))))) {
      // llvm::json::parse reads 02 as 2; JSON has no leading zeros (a
      // schedule's "stage": 02 was taken silently).
      return at(line, col) + "a number with a leading zero is not JSON";
    }
  }
  return "";
}

llvm::Expected<llvm::json::Value> stagecraft::parseJson(llvm::StringRef text, unsigned maxDepth) {
  if (std::string why = checkJsonStructure(text, maxDepth); !why.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", why.c_str());
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (v)
    return v;
  // llvm::json::parse says "[L:C, byte=B]: why"; say it as the checks above
  // do ("line L column C: why"), one form for every JSON error a user sees.
  std::string message = llvm::toString(v.takeError());
  unsigned line = 0, col = 0;
  int used = 0;
  if (std::sscanf(message.c_str(), "[%u:%u, byte=%*u]: %n", &line, &col, &used) == 2 && used > 0)
    message = "line " + std::to_string(line) + " column " + std::to_string(col) + ": " +
              message.substr(static_cast<size_t>(used));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", message.c_str());
}
