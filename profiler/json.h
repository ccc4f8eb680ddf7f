// A small, strict JSON reader and writer for the runner.
//
// The GPU host has no JSON library, and the runner reads manifests written by another program and
// requests typed by people, so the parser is strict (RFC 8259: no comments, no trailing commas, no
// NaN, valid UTF-8, no duplicate keys) and every error names a line and column. Nesting is limited
// (kMaxDepth) so that hostile input cannot overflow the stack; input of any size or content either
// parses or yields a JsonError, never a crash.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::json {

class JsonError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Value {
public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  using Member = std::pair<std::string, Value>;

  Value() = default;  // null
  static Value null() { return Value(); }
  static Value boolean(bool b);
  static Value number(double d);
  static Value integer(int64_t i);
  static Value string(std::string s);
  static Value array(std::vector<Value> items = {});
  static Value object(std::vector<Member> members = {});

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }
  bool isBool() const { return type_ == Type::Bool; }
  bool isNumber() const { return type_ == Type::Number; }
  // A number written without fraction or exponent that fits in int64.
  bool isInteger() const { return type_ == Type::Number && isInteger_; }
  bool isString() const { return type_ == Type::String; }
  bool isArray() const { return type_ == Type::Array; }
  bool isObject() const { return type_ == Type::Object; }

  // Accessors throw JsonError on a type mismatch; callers that want field-named messages check
  // the type first (see manifest.cpp).
  bool asBool() const;
  double asDouble() const;
  int64_t asInt() const;
  const std::string &asString() const;
  const std::vector<Value> &items() const;
  std::vector<Value> &items();
  const std::vector<Member> &members() const;

  // Object helpers. find() returns nullptr when absent.
  const Value *find(const std::string &key) const;
  // Appends or replaces a member (keeps insertion order, which the writer preserves).
  Value &set(const std::string &key, Value v);
  // Appends without looking for an existing key (the parser has already rejected duplicates).
  void appendUnchecked(std::string key, Value v) { members_.emplace_back(std::move(key), std::move(v)); }
  // Array helper.
  void push(Value v);

private:
  Type type_ = Type::Null;
  bool bool_ = false;
  bool isInteger_ = false;
  double number_ = 0.0;
  int64_t integer_ = 0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<Member> members_;
};

const char *typeName(Value::Type t);

// Nesting deeper than this is rejected (arrays and objects together).
constexpr int kMaxDepth = 128;

// Parses a complete JSON text (one value, optional surrounding whitespace). Throws JsonError with
// "line L, column C: ..." (1-based; columns count bytes).
Value parse(const std::string &text);

// Serializes compactly on one line (no newlines inside, so it can be one line of a JSON-lines
// stream). Non-finite numbers are written as null: JSON has no NaN.
std::string write(const Value &v);

}  // namespace stagecraft::json
