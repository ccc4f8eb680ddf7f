//===- IrMutator.cpp - mutations of MLIR text that keep it mostly parsable ===//
#include "IrMutator.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <regex>
#include <vector>

using namespace stagecraft::fuzz;

namespace {

struct Match {
  size_t pos, len;
};

std::vector<Match> findAll(const std::string &text, const std::regex &re) {
  std::vector<Match> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
       it != std::sregex_iterator(); ++it)
    out.push_back({static_cast<size_t>(it->position(1)), static_cast<size_t>(it->length(1))});
  return out;
}

template <typename T> const T &pick(const std::vector<T> &v, std::minstd_rand &rng) {
  return v[rng() % v.size()];
}

bool replaceOne(std::string &text, const std::regex &re,
                const std::vector<std::string> &choices, std::minstd_rand &rng) {
  std::vector<Match> m = findAll(text, re);
  if (m.empty())
    return false;
  Match at = pick(m, rng);
  text.replace(at.pos, at.len, pick(choices, rng));
  return true;
}

// Numbers that sit on the edges of what the dialect and the hardware allow.
const std::vector<std::string> kNumbers = {
    "0",   "1",   "2",   "3",    "7",    "8",    "9",    "15",         "16",
    "17",  "31",  "32",  "63",   "64",   "65",   "96",   "127",        "128",
    "129", "192", "255", "256",  "257",  "512",  "1024", "4096",       "65536",
    "-1",  "-64", "2147483647", "2147483648", "4294967296", "9223372036854775807",
    "1048576", "1048577"};

bool mutateNumber(std::string &text, std::minstd_rand &rng) {
  // A number not inside an identifier (%c128 stays a name; 128x64 is a shape).
  static const std::regex re(R"((?:^|[^A-Za-z0-9_%#.])(-?[0-9]+))");
  std::vector<Match> m = findAll(text, re);
  if (m.empty())
    return false;
  Match at = pick(m, rng);
  std::string old = text.substr(at.pos, at.len);
  std::string repl;
  switch (rng() % 4) {
  // In 128 bits: strtoll saturates a long number to LLONG_MAX, and one more
  // (or twice it) overflowed the mutator itself (UBSan, a 6-minute run).
  case 0: {
    __int128 v = std::strtoll(old.c_str(), nullptr, 10);
    v += rng() % 2 ? 1 : -1;
    repl = v > LLONG_MAX ? "9223372036854775808" : v < LLONG_MIN ? "-9223372036854775809"
                                                                 : std::to_string((long long)v);
    break;
  }
  case 1: {
    __int128 v = std::strtoll(old.c_str(), nullptr, 10);
    v = rng() % 2 ? v * 2 : v / 2;
    repl = v > LLONG_MAX ? "18446744073709551614" : v < LLONG_MIN ? "-18446744073709551616"
                                                                  : std::to_string((long long)v);
    break;
  }
  default:
    repl = pick(kNumbers, rng);
  }
  text.replace(at.pos, at.len, repl);
  return true;
}

bool mutateShapeDim(std::string &text, std::minstd_rand &rng) {
  // A dimension of a shape: 128x64xbf16, tensor<128xf32>.
  static const std::regex re(R"([<x]([0-9]+)x)");
  return replaceOne(text, re, kNumbers, rng);
}

bool mutateElementType(std::string &text, std::minstd_rand &rng) {
  static const std::regex re(R"([x: (]((?:bf16|f16|f32|f64|i1|i8|i16|i32|i64|index))\b)");
  return replaceOne(text, re, {"bf16", "f16", "f32", "f64", "i1", "i8", "i32", "i64", "index"},
                    rng);
}

bool mutateOperand(std::string &text, std::minstd_rand &rng) {
  // Uses (after "=" on a line, or in an op without results) get another name.
  static const std::regex def(R"((%[A-Za-z0-9_]+)(?:#[0-9]+)?(?::[0-9]+)? *[=,:)])");
  static const std::regex use(R"([ ,\[(](%[A-Za-z0-9_#]+))");
  std::vector<Match> defs = findAll(text, def), uses = findAll(text, use);
  if (defs.empty() || uses.empty())
    return false;
  Match d = pick(defs, rng), u = pick(uses, rng);
  std::string name = text.substr(d.pos, d.len);
  text.replace(u.pos, u.len, name);
  return true;
}

const std::vector<std::vector<std::string>> kFamilies = {
    {"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf", "arith.minimumf",
     "arith.remf"},
    {"arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi", "arith.remui",
     "arith.ceildivui", "arith.minui", "arith.maxsi", "arith.andi", "arith.ori", "arith.xori",
     "arith.shli"},
    {"math.exp2", "math.exp", "math.log", "math.sqrt", "math.rsqrt", "math.tanh", "math.absf",
     "arith.negf"},
    {"arith.truncf", "arith.extf", "arith.bitcast", "arith.fptosi", "arith.sitofp"},
    {"tile.reduce max", "tile.reduce sum"},
    {"tile.program_id", "tile.num_programs"},
    {"tile.load", "tile.store"},
    {"{transpose_b", "{transpose_a", "{transpose_a, transpose_b", "{"},
    {"{causal", "{"},
    {"dim = 0", "dim = 1", "dim = 2"},
    {"scf.for", "scf.parallel"},
};

bool mutateOpName(std::string &text, std::minstd_rand &rng) {
  const std::vector<std::string> &family = pick(kFamilies, rng);
  std::vector<Match> m;
  for (const std::string &name : family)
    for (size_t p = text.find(name); p != std::string::npos; p = text.find(name, p + 1))
      m.push_back({p, name.size()});
  if (m.empty())
    return false;
  Match at = pick(m, rng);
  text.replace(at.pos, at.len, pick(family, rng));
  return true;
}

bool mutateLines(std::string &text, std::minstd_rand &rng) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size() - 1;
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  if (lines.size() < 2)
    return false;
  size_t a = rng() % lines.size(), b = rng() % lines.size();
  switch (rng() % 3) {
  case 0: lines.erase(lines.begin() + a); break;
  case 1: lines.insert(lines.begin() + b, lines[a]); break;
  default: std::swap(lines[a], lines[b]);
  }
  text.clear();
  for (const std::string &l : lines)
    text += l;
  return true;
}

} // namespace

bool stagecraft::fuzz::mutateIrText(std::string &text, std::minstd_rand &rng) {
  switch (rng() % 8) {
  case 0: return mutateNumber(text, rng);
  case 1: return mutateShapeDim(text, rng);
  case 2: return mutateElementType(text, rng);
  case 3: return mutateOperand(text, rng);
  case 4:
  case 5: return mutateOpName(text, rng);
  case 6: return mutateLines(text, rng);
  default: return mutateNumber(text, rng);
  }
}
