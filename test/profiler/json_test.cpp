#include "json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using stagecraft::json::JsonError;
using stagecraft::json::kMaxDepth;
using stagecraft::json::parse;
using stagecraft::json::Value;
using stagecraft::json::write;

namespace {

std::string errorOf(const std::string &text) {
  try {
    parse(text);
  } catch (const JsonError &e) {
    return e.what();
  }
  return "";
}

TEST(Json, ParsesAllTypes) {
  Value v = parse(R"( {"a": [1, -2.5, 3e2, true, false, null], "s": "x\"\\\n\u00e9\ud83d\ude00", "big": 12345678901234} )");
  const auto &a = v.find("a")->items();
  ASSERT_EQ(a.size(), 6u);
  EXPECT_TRUE(a[0].isInteger());
  EXPECT_EQ(a[0].asInt(), 1);
  EXPECT_FALSE(a[1].isInteger());
  EXPECT_DOUBLE_EQ(a[1].asDouble(), -2.5);
  EXPECT_DOUBLE_EQ(a[2].asDouble(), 300.0);
  EXPECT_FALSE(a[2].isInteger());  // written with an exponent
  EXPECT_TRUE(a[3].asBool());
  EXPECT_FALSE(a[4].asBool());
  EXPECT_TRUE(a[5].isNull());
  EXPECT_EQ(v.find("s")->asString(), "x\"\\\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.find("big")->asInt(), 12345678901234);
}

TEST(Json, IntegerTooLargeBecomesDouble) {
  Value v = parse("123456789012345678901234567890");
  EXPECT_FALSE(v.isInteger());
  EXPECT_NEAR(v.asDouble(), 1.2345678901234568e29, 1e15);
}

TEST(Json, ErrorsNameLineAndColumn) {
  EXPECT_EQ(errorOf("{\n  \"a\": 1,\n  \"b\": ]\n}"), "line 3, column 8: unexpected ']': expected a value");
  EXPECT_EQ(errorOf("[1, 2,]"), "line 1, column 7: unexpected ']': expected a value");
  EXPECT_EQ(errorOf("{\"a\": 1 \"b\": 2}"), "line 1, column 9: unexpected '\"': expected ',' or '}'");
}

TEST(Json, RejectsWhatStrictJsonRejects) {
  EXPECT_NE(errorOf("").find("empty input"), std::string::npos);
  EXPECT_NE(errorOf("   \n ").find("empty input"), std::string::npos);
  EXPECT_NE(errorOf("{\"a\": 1} x").find("after the JSON value"), std::string::npos);
  EXPECT_NE(errorOf("{\"a\": 1, \"a\": 2}").find("duplicate key \"a\""), std::string::npos);
  EXPECT_NE(errorOf("[01]").find("leading zeros"), std::string::npos);
  EXPECT_NE(errorOf("[NaN]").find("expected a value"), std::string::npos);
  EXPECT_NE(errorOf("[1e999]").find("out of range"), std::string::npos);
  EXPECT_NE(errorOf("// c\n1").find("expected a value"), std::string::npos);
  EXPECT_NE(errorOf("[\"a\tb\"]").find("control character"), std::string::npos);
  EXPECT_NE(errorOf("[\"\\x\"]").find("invalid escape"), std::string::npos);
  EXPECT_NE(errorOf("[\"\\ud800\"]").find("surrogate"), std::string::npos);
  EXPECT_NE(errorOf("[tru]").find("expected 'true'"), std::string::npos);
}

TEST(Json, TruncatedInputAtEveryLengthFailsCleanly) {
  const std::string full = R"({"k": [1, 2.5, "str\u00e9", {"x": null}], "t": true})";
  ASSERT_NO_THROW(parse(full));
  for (size_t n = 0; n < full.size(); ++n) {
    std::string err = errorOf(full.substr(0, n));
    EXPECT_FALSE(err.empty()) << "prefix of length " << n << " parsed";
    EXPECT_EQ(err.rfind("line 1, column ", 0), 0u) << err;
  }
}

TEST(Json, BinaryInputFailsCleanly) {
  std::string bin;
  for (int i = 0; i < 4096; ++i) bin.push_back(char((i * 7919 + 13) & 0xFF));
  EXPECT_FALSE(errorOf(bin).empty());
  // Invalid UTF-8 inside a string, and a NUL byte.
  EXPECT_NE(errorOf("[\"\xff\xfe\"]").find("invalid UTF-8"), std::string::npos);
  EXPECT_NE(errorOf(std::string("[\"a\0b\"]", 7)).find("control character"), std::string::npos);
  EXPECT_NE(errorOf("[\"\xc0\xaf\"]").find("invalid UTF-8"), std::string::npos);  // overlong '/'
}

TEST(Json, DeepNestingIsRejectedNotOverflowed) {
  std::string ok(kMaxDepth, '[');
  ok += std::string(kMaxDepth, ']');
  EXPECT_NO_THROW(parse(ok));
  std::string deep(kMaxDepth + 1, '[');
  deep += std::string(kMaxDepth + 1, ']');
  EXPECT_NE(errorOf(deep).find("nesting deeper than"), std::string::npos);
  // A million open brackets: must fail fast, not crash.
  EXPECT_NE(errorOf(std::string(1000000, '[')).find("nesting deeper than"), std::string::npos);
  std::string objs;
  for (int i = 0; i < 100000; ++i) objs += "{\"a\":";
  EXPECT_NE(errorOf(objs).find("nesting deeper than"), std::string::npos);
}

TEST(Json, HugeFlatInputParses) {
  std::string big = "[";
  for (int i = 0; i < 200000; ++i) big += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
  big += "]";
  EXPECT_EQ(parse(big).items().size(), 200000u);
}

TEST(Json, WriterRoundTripsAndEscapes) {
  Value o = Value::object();
  o.set("s", Value::string("a\"b\\c\n\x01"));
  o.set("i", Value::integer(-42));
  o.set("d", Value::number(0.1));
  o.set("nan", Value::number(std::nan("")));
  o.set("arr", Value::array({Value::boolean(true), Value::null()}));
  std::string text = write(o);
  EXPECT_EQ(text, R"({"s":"a\"b\\c\n\u0001","i":-42,"d":0.1,"nan":null,"arr":[true,null]})");
  EXPECT_EQ(text.find('\n'), std::string::npos);
  Value back = parse(text);
  EXPECT_EQ(back.find("s")->asString(), "a\"b\\c\n\x01");
  EXPECT_DOUBLE_EQ(back.find("d")->asDouble(), 0.1);
  EXPECT_TRUE(back.find("nan")->isNull());
  // Doubles that need 17 digits survive.
  double third = 1.0 / 3.0;
  EXPECT_EQ(parse(write(Value::number(third))).asDouble(), third);
}

TEST(Json, TypeMismatchThrows) {
  Value v = parse("{\"a\": \"x\"}");
  EXPECT_THROW(v.find("a")->asInt(), JsonError);
  EXPECT_THROW(v.items(), JsonError);
  EXPECT_EQ(v.find("missing"), nullptr);
}

}  // namespace
