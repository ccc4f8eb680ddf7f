//===- InputCheck.cpp - refuse input the MLIR parser should not see -------===//
#include "core/Support/InputCheck.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <cstring>


using namespace stagecraft;

std::string stagecraft::checkInputText(llvm::StringRef text,
                                       llvm::StringRef filename,
                                       const InputLimits &limits) {
  auto at = [&](unsigned line, unsigned col, const llvm::Twine &msg) {
    return llvm::formatv("{0}:{1}:{2}: error: {3}", filename, line, col,
                         msg.str())
        .str();
  };
  // Lines ending in CR alone (classic Mac OS): MLIR counts lines by LF, so
  // every error would be reported on "line 1" at a column in the thousands.
  if (text.contains('\r') && !text.contains('\n'))
    return at(1, 1, "the file's lines end in CR alone (classic Mac OS line endings); MLIR "
                    "counts lines by LF: convert them (tr '\\r' '\\n')");
  if (text.starts_with("\xEF\xBB\xBF"))
    return at(1, 1, "the file starts with a UTF-8 byte order mark, which the MLIR parser "
                    "does not take: save it without one");
  if (text.size() > limits.maxBytes)
    return at(1, 1, llvm::formatv("file is {0} MiB; loop IR files over {1} MiB "
                                  "are refused",
                                  text.size() >> 20, limits.maxBytes >> 20)
                        .str());
  if (text.trim().empty())
    return at(1, 1, "file is empty: expected a module with a tile kernel");

  unsigned line = 1, col = 1, depth = 0;
  bool inString = false, inComment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = text[i];
    if (c == 0)
      return at(line, col, "file contains a NUL byte: is it a binary file, "
                           "not MLIR text?");
    if (c == '\n') {
      ++line;
      col = 1;
      inComment = false;
      continue;
    }
    ++col;
    if (inComment)
      continue;
    if (inString) {
      if (c == '\\')
        ++i, ++col;
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        inComment = true;
      break;
    case '(': case '[': case '{': case '<':
      if (++depth > limits.maxNesting)
        return at(line, col - 1,
                  llvm::formatv("brackets nest deeper than {0} levels; "
                                "refusing to parse (no loop IR is that deep)",
                                limits.maxNesting)
                      .str());
      break;
    case ')': case ']': case '}':
      depth = depth ? depth - 1 : 0;
      break;
    case '>':
      // `->` is an arrow, not a closing bracket.
      if (!(i > 0 && text[i - 1] == '-'))
        depth = depth ? depth - 1 : 0;
      break;
    default:
      break;
    }
  }
  return "";
}

std::string stagecraft::checkUserFile(llvm::StringRef path, uint64_t maxBytes) {
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(path, st))
    return (path + ": cannot read: " + ec.message()).str();
  if (st.type() == llvm::sys::fs::file_type::directory_file)
    return (path + ": is a directory, not a file").str();
  if (st.type() != llvm::sys::fs::file_type::regular_file)
    return (path + ": is not a regular file (a device or a pipe); refusing to read it").str();
  if (st.getSize() > maxBytes)
    return llvm::formatv("{0}: is {1} MiB; files over {2} MiB are refused", path,
                         st.getSize() >> 20, maxBytes >> 20)
        .str();
  return "";
}

std::unique_ptr<llvm::MemoryBuffer>
stagecraft::readUserInput(llvm::StringRef path, std::string &error, uint64_t maxBytes) {
  if (path != "-") {
    if (std::string why = checkUserFile(path, maxBytes); !why.empty()) {
      error = why;
      return nullptr;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer) {
      error = (path + ": cannot read: " + buffer.getError().message()).str();
      return nullptr;
    }
    return std::move(*buffer);
  }
  std::string text;
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(0, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = std::string("<stdin>: cannot read: ") + std::strerror(errno);
      return nullptr;
    }
    if (n == 0)
      break;
    text.append(chunk, static_cast<size_t>(n));
    if (text.size() > maxBytes) {
      error = llvm::formatv("<stdin>: more than {0} MiB; inputs over that are refused",
                            maxBytes >> 20)
                  .str();
      return nullptr;
    }
  }
  return llvm::MemoryBuffer::getMemBufferCopy(text, "<stdin>");
}

std::string stagecraft::parseSizeOptions(
    const std::vector<std::string> &options,
    std::vector<std::pair<std::string, int64_t>> &sizes) {
  for (const std::string &s : options) {
    auto [name, value] = llvm::StringRef(s).split('=');
    if (name.empty() || value.empty() || s.find('=') == std::string::npos)
      return "--size expects NAME=VALUE, got '" + s + "'";
    long long v = 0;
    if (value.getAsInteger(10, v)) {
      bool digits = llvm::all_of(value.drop_front(value.starts_with("-") ? 1 : 0),
                                 [](char c) { return c >= '0' && c <= '9'; });
      return digits ? "--size " + name.str() + "=" + value.str() +
                          " is out of range (a size is 1 to 2^31-1)"
                    : "--size " + name.str() + " expects an integer, got '" + value.str() + "'";
    }
    for (const auto &given : sizes)
      if (given.first == name)
        return "--size " + name.str() + " is given twice";
    sizes.push_back({name.str(), v});
  }
  return "";
}
