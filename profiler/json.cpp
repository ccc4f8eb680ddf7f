#include "json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

namespace stagecraft::json {

// ---------------------------------------------------------------------------------------------
// Value

Value Value::boolean(bool b) {
  Value v;
  v.type_ = Type::Bool;
  v.bool_ = b;
  return v;
}

Value Value::number(double d) {
  Value v;
  v.type_ = Type::Number;
  v.number_ = d;
  return v;
}

Value Value::integer(int64_t i) {
  Value v;
  v.type_ = Type::Number;
  v.isInteger_ = true;
  v.integer_ = i;
  v.number_ = static_cast<double>(i);
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.type_ = Type::String;
  v.string_ = std::move(s);
  return v;
}

Value Value::array(std::vector<Value> items) {
  Value v;
  v.type_ = Type::Array;
  v.items_ = std::move(items);
  return v;
}

Value Value::object(std::vector<Member> members) {
  Value v;
  v.type_ = Type::Object;
  v.members_ = std::move(members);
  return v;
}

const char *typeName(Value::Type t) {
  switch (t) {
  case Value::Type::Null: return "null";
  case Value::Type::Bool: return "boolean";
  case Value::Type::Number: return "number";
  case Value::Type::String: return "string";
  case Value::Type::Array: return "array";
  case Value::Type::Object: return "object";
  }
  return "?";
}

static void expectType(const Value &v, Value::Type want) {
  if (v.type() != want)
    throw JsonError(std::string("expected ") + typeName(want) + ", got " + typeName(v.type()));
}

bool Value::asBool() const {
  expectType(*this, Type::Bool);
  return bool_;
}

double Value::asDouble() const {
  expectType(*this, Type::Number);
  return number_;
}

int64_t Value::asInt() const {
  expectType(*this, Type::Number);
  if (!isInteger_) throw JsonError("expected an integer, got a number with a fraction or exponent");
  return integer_;
}

const std::string &Value::asString() const {
  expectType(*this, Type::String);
  return string_;
}

const std::vector<Value> &Value::items() const {
  expectType(*this, Type::Array);
  return items_;
}

std::vector<Value> &Value::items() {
  expectType(*this, Type::Array);
  return items_;
}

const std::vector<Value::Member> &Value::members() const {
  expectType(*this, Type::Object);
  return members_;
}

const Value *Value::find(const std::string &key) const {
  if (type_ != Type::Object) return nullptr;
  for (const auto &m : members_)
    if (m.first == key) return &m.second;
  return nullptr;
}

Value &Value::set(const std::string &key, Value v) {
  expectType(*this, Type::Object);
  for (auto &m : members_)
    if (m.first == key) {
      m.second = std::move(v);
      return m.second;
    }
  members_.emplace_back(key, std::move(v));
  return members_.back().second;
}

void Value::push(Value v) {
  expectType(*this, Type::Array);
  items_.push_back(std::move(v));
}

// ---------------------------------------------------------------------------------------------
// Parser: recursive descent with an explicit depth counter.

namespace {

class Parser {
public:
  explicit Parser(const std::string &text) : s_(text) {}

  Value parseDocument() {
    skipWhitespace();
    if (atEnd()) fail("empty input: expected a JSON value");
    Value v = parseValue(0);
    skipWhitespace();
    if (!atEnd()) fail("unexpected content after the JSON value");
    return v;
  }

private:
  const std::string &s_;
  size_t pos_ = 0;

  bool atEnd() const { return pos_ >= s_.size(); }
  unsigned char peek() const { return static_cast<unsigned char>(s_[pos_]); }

  [[noreturn]] void failAt(size_t at, const std::string &msg) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw JsonError("line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + msg);
  }
  [[noreturn]] void fail(const std::string &msg) const { failAt(pos_, msg); }

  static std::string describe(unsigned char c) {
    char buf[32];
    if (c >= 0x20 && c < 0x7f)
      std::snprintf(buf, sizeof buf, "'%c'", c);
    else
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return buf;
  }

  void skipWhitespace() {
    while (!atEnd()) {
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        ++pos_;
      else
        break;
    }
  }

  Value parseValue(int depth) {
    if (atEnd()) fail("unexpected end of input: expected a value");
    unsigned char c = peek();
    switch (c) {
    case '{': return parseObject(depth + 1);
    case '[': return parseArray(depth + 1);
    case '"': return Value::string(parseString());
    case 't': expectWord("true"); return Value::boolean(true);
    case 'f': expectWord("false"); return Value::boolean(false);
    case 'n': expectWord("null"); return Value::null();
    default:
      if (c == '-' || (c >= '0' && c <= '9')) return parseNumber();
      fail("unexpected " + describe(c) + ": expected a value");
    }
  }

  void expectWord(const char *word) {
    size_t n = std::strlen(word);
    if (s_.compare(pos_, n, word) != 0) fail(std::string("invalid literal, expected '") + word + "'");
    pos_ += n;
  }

  void checkDepth(int depth) const {
    if (depth > kMaxDepth)
      fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
  }

  Value parseObject(int depth) {
    checkDepth(depth);
    ++pos_;  // '{'
    Value obj = Value::object();
    std::unordered_set<std::string> seen;  // keeps duplicate detection linear for huge objects
    skipWhitespace();
    if (!atEnd() && peek() == '}') {
      ++pos_;
      return obj;
    }
    for (;;) {
      skipWhitespace();
      if (atEnd()) fail("unexpected end of input inside an object");
      if (peek() != '"') fail("unexpected " + describe(peek()) + ": expected a string key");
      size_t keyPos = pos_;
      std::string key = parseString();
      if (!seen.insert(key).second) failAt(keyPos, "duplicate key \"" + key + "\"");
      skipWhitespace();
      if (atEnd()) fail("unexpected end of input: expected ':'");
      if (peek() != ':') fail("unexpected " + describe(peek()) + ": expected ':'");
      ++pos_;
      skipWhitespace();
      Value member = parseValue(depth);
      obj.appendUnchecked(std::move(key), std::move(member));
      skipWhitespace();
      if (atEnd()) fail("unexpected end of input: expected ',' or '}'");
      unsigned char c = peek();
      ++pos_;
      if (c == '}') return obj;
      if (c != ',') failAt(pos_ - 1, "unexpected " + describe(c) + ": expected ',' or '}'");
    }
  }

  Value parseArray(int depth) {
    checkDepth(depth);
    ++pos_;  // '['
    Value arr = Value::array();
    skipWhitespace();
    if (!atEnd() && peek() == ']') {
      ++pos_;
      return arr;
    }
    for (;;) {
      skipWhitespace();
      arr.push(parseValue(depth));
      skipWhitespace();
      if (atEnd()) fail("unexpected end of input: expected ',' or ']'");
      unsigned char c = peek();
      ++pos_;
      if (c == ']') return arr;
      if (c != ',') failAt(pos_ - 1, "unexpected " + describe(c) + ": expected ',' or ']'");
    }
  }

  unsigned parseHex4() {
    if (pos_ + 4 > s_.size()) fail("unexpected end of input in a \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_ + i];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else failAt(pos_ + i, "invalid hex digit in a \\u escape");
    }
    pos_ += 4;
    return v;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  // Validates one UTF-8 sequence starting at pos_ (first byte >= 0x80) and copies it.
  void copyUtf8Sequence(std::string &out) {
    unsigned char c = peek();
    int len;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; }
    else fail("invalid UTF-8 in a string (" + describe(c) + ")");
    if (pos_ + len > s_.size()) fail("truncated UTF-8 sequence in a string");
    for (int i = 1; i < len; ++i) {
      unsigned char cc = static_cast<unsigned char>(s_[pos_ + i]);
      if ((cc & 0xC0) != 0x80) failAt(pos_ + i, "invalid UTF-8 continuation byte in a string");
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Reject overlong forms, surrogates and code points past U+10FFFF.
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      fail("invalid UTF-8 code point in a string");
    out.append(s_, pos_, len);
    pos_ += len;
  }

  std::string parseString() {
    size_t start = pos_;
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (atEnd()) failAt(start, "unterminated string");
      unsigned char c = peek();
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) fail("control character " + describe(c) + " in a string (escape it)");
      if (c >= 0x80) {
        copyUtf8Sequence(out);
        continue;
      }
      if (c != '\\') {
        out += char(c);
        ++pos_;
        continue;
      }
      ++pos_;
      if (atEnd()) failAt(start, "unterminated string");
      char e = s_[pos_++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        unsigned cp = parseHex4();
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (s_.compare(pos_, 2, "\\u") != 0) fail("unpaired high surrogate in a \\u escape");
          pos_ += 2;
          unsigned lo = parseHex4();
          if (lo < 0xDC00 || lo > 0xDFFF) fail("invalid low surrogate in a \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          fail("unpaired low surrogate in a \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default: failAt(pos_ - 1, "invalid escape '\\" + std::string(1, e) + "'");
      }
    }
  }

  Value parseNumber() {
    size_t start = pos_;
    bool integral = true;
    if (peek() == '-') ++pos_;
    if (atEnd()) fail("unexpected end of input in a number");
    if (peek() == '0') {
      ++pos_;
      if (!atEnd() && peek() >= '0' && peek() <= '9') fail("leading zeros are not allowed");
    } else if (peek() >= '1' && peek() <= '9') {
      while (!atEnd() && peek() >= '0' && peek() <= '9') ++pos_;
    } else {
      fail("invalid number");
    }
    if (!atEnd() && peek() == '.') {
      integral = false;
      ++pos_;
      if (atEnd() || !(peek() >= '0' && peek() <= '9')) fail("expected a digit after '.'");
      while (!atEnd() && peek() >= '0' && peek() <= '9') ++pos_;
    }
    if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
      integral = false;
      ++pos_;
      if (!atEnd() && (peek() == '+' || peek() == '-')) ++pos_;
      if (atEnd() || !(peek() >= '0' && peek() <= '9')) fail("expected a digit in the exponent");
      while (!atEnd() && peek() >= '0' && peek() <= '9') ++pos_;
    }
    std::string token = s_.substr(start, pos_ - start);
    if (integral) {
      errno = 0;
      char *end = nullptr;
      long long i = std::strtoll(token.c_str(), &end, 10);
      if (errno == 0 && end && *end == '\0') return Value::integer(i);
      // Too large for int64: keep it as a double.
    }
    double d = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(d)) failAt(start, "number out of range");
    return Value::number(d);
  }
};

void writeString(std::string &out, const std::string &s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  out += '"';
}

void writeNumber(std::string &out, double d) {
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  // Shortest of %.15g / %.17g that reads back exactly.
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  if (std::strtod(buf, nullptr) != d) std::snprintf(buf, sizeof buf, "%.17g", d);
  out += buf;
}

void writeValue(std::string &out, const Value &v) {
  switch (v.type()) {
  case Value::Type::Null: out += "null"; break;
  case Value::Type::Bool: out += v.asBool() ? "true" : "false"; break;
  case Value::Type::Number:
    if (v.isInteger())
      out += std::to_string(v.asInt());
    else
      writeNumber(out, v.asDouble());
    break;
  case Value::Type::String: writeString(out, v.asString()); break;
  case Value::Type::Array: {
    out += '[';
    bool first = true;
    for (const auto &item : v.items()) {
      if (!first) out += ',';
      first = false;
      writeValue(out, item);
    }
    out += ']';
    break;
  }
  case Value::Type::Object: {
    out += '{';
    bool first = true;
    for (const auto &m : v.members()) {
      if (!first) out += ',';
      first = false;
      writeString(out, m.first);
      out += ':';
      writeValue(out, m.second);
    }
    out += '}';
    break;
  }
  }
}

}  // namespace

Value parse(const std::string &text) { return Parser(text).parseDocument(); }

std::string write(const Value &v) {
  std::string out;
  writeValue(out, v);
  return out;
}

}  // namespace stagecraft::json
