//===- ScheduleJsonTest.cpp - schedule JSON import/export -----------------===//
#include "core/Schedule/Schedule.h"

#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

Schedule sample() {
  Schedule s;
  s.kernel = "attn_fwd_d128";
  s.set("loadV", {1, 5, 0, 0});
  s.set("MMA0", {2, 0, 1, 0});
  s.set("Softmax", {3, 1, 1, 0});
  s.set("MMA1", {3, 3, 1, 1});
  return s;
}

std::string errorOf(const std::string &text) {
  auto s = Schedule::fromJson(text, "s.json");
  if (s)
    return "";
  return llvm::toString(s.takeError());
}

TEST(ScheduleJson, ExactRoundTrip) {
  Schedule s = sample();
  std::string json = s.toJson();
  auto back = Schedule::fromJson(json, "s.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(*back, s);
  EXPECT_EQ(back->toJson(), json);
}

TEST(ScheduleJson, CanonicalOrderAndWaitOnlyWhenSet) {
  std::string json = sample().toJson();
  EXPECT_LT(json.find("\"MMA0\""), json.find("\"Softmax\""));
  EXPECT_LT(json.find("\"MMA1\""), json.find("\"loadV\""));
  EXPECT_NE(json.find("\"wait\": 1"), std::string::npos);
  EXPECT_EQ(json.find("\"wait\": 0"), std::string::npos);
}

TEST(ScheduleJson, EqualityIgnoresEntryOrder) {
  Schedule a, b;
  a.set("x", {0, 0, 0});
  a.set("y", {1, 1, 0});
  b.set("y", {1, 1, 0});
  b.set("x", {0, 0, 0});
  EXPECT_EQ(a, b);
  b.set("x", {0, 0, 1});
  EXPECT_NE(a, b);
}

TEST(ScheduleJson, ErrorsNameTheFileEntryAndField) {
  EXPECT_EQ(errorOf(""), "s.json: empty schedule file");
  EXPECT_NE(errorOf("{\"ops\": [").find("s.json: invalid JSON"), std::string::npos);
  // llvm::json's own errors in the same "line L column C" form as ours.
  EXPECT_EQ(errorOf("{\"ops\": [1,]}"), "s.json: invalid JSON: line 1 column 12: Invalid JSON value");
  EXPECT_EQ(errorOf("[]"), "s.json: a schedule must be a JSON object");
  EXPECT_EQ(errorOf("{}"), "s.json: missing \"ops\" array");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 0}]}"),
            "s.json: ops[0] (\"a\") is missing \"group\"");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": \"1\", \"order\": 0, \"group\": 0}]}"),
            "s.json: ops[0] (\"a\"): \"stage\" must be an integer");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": -1, \"order\": 0, \"group\": 0}]}"),
            "s.json: ops[0] (\"a\"): \"stage\" = -1 is out of range 0..64");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 0, \"group\": 0},"
                    "{\"name\": \"a\", \"stage\": 0, \"order\": 1, \"group\": 0}]}"),
            "s.json: ops[1] (\"a\"): the name appears twice");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 0, \"group\": 0, \"colour\": 1}]}"),
            "s.json: ops[0] (\"a\"): unknown field \"colour\"");
  EXPECT_EQ(errorOf("{\"ops\": [], \"version\": 2}"),
            "s.json: unsupported schedule version 2 (expected 1)");
  EXPECT_EQ(errorOf("{\"ops\": [], \"version\": \"x\"}"), "s.json: \"version\" must be an integer");
  EXPECT_EQ(errorOf("{\"ops\": [], \"format\": 5}"),
            "s.json: \"format\" must be \"stagecraft-schedule\"");
  EXPECT_EQ(errorOf("{\"ops\": [{\"stage\": 0}]}"),
            "s.json: ops[0] needs a non-empty \"name\"");
  // A key twice in one object: the parser would keep the last without a word.
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 0, \"group\": 0}],\n"
                    " \"ops\": []}"),
            "s.json: invalid JSON: line 2 column 2: the key \"ops\" appears twice in one object");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 0, \"group\": 0, "
                    "\"name\": \"b\"}]}"),
            "s.json: invalid JSON: line 1 column 60: the key \"name\" appears twice in one object");
  // The same key in two entries, or as a value, is no duplicate.
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"name\", \"stage\": 0, \"order\": 0, \"group\": 0},"
                    "{\"name\": \"b\", \"stage\": 0, \"order\": 0, \"group\": 0}]}"),
            "");
  // The eighth sweep's odd files: "ops" of the wrong type is not "missing"; a leading zero is
  // not JSON (the parser read 02 as 2), while exponents and fractions keep theirs; a UTF-8 byte
  // order mark is skipped.
  EXPECT_EQ(errorOf("{\"ops\": {}}"),
            "s.json: \"ops\" must be an array of {\"name\", \"stage\", ...} entries");
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 02, \"order\": 0, \"group\": 0}]}"),
            "s.json: invalid JSON: line 1 column 33: a number with a leading zero is not JSON");
  EXPECT_NE(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": -01, \"order\": 0, \"group\": 0}]}")
                .find("leading zero"),
            std::string::npos);
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 1e01, \"group\": 0, "
                    "\"wait\": 0}], \"x0\": 0.05}").find("leading zero"),
            std::string::npos);
  EXPECT_EQ(errorOf("\xEF\xBB\xBF{\"ops\": [{\"name\": \"a\", \"stage\": 0, \"order\": 0, \"group\": 0}]}"),
            "");
  // A control character in a name is written escaped, never raw.
  EXPECT_EQ(errorOf("{\"ops\": [{\"name\": \"a\\u0000\", \"stage\": 0, \"order\": 0, \"group\": 0}]}"),
            "s.json: ops[0] (\"a\\u0000\"): a unit name has no control characters");
}

TEST(ScheduleJson, BinaryAndDeeplyNestedInputFailCleanly) {
  std::string binary("\x7f\x45\x4c\x46\x00\x01\x02", 7);
  EXPECT_NE(errorOf(binary).find("s.json: invalid JSON"), std::string::npos);
  std::string deep(100000, '[');
  EXPECT_NE(errorOf(deep).find("s.json:"), std::string::npos);
}

} // namespace

namespace {

TEST(ScheduleJson, ConsumersRoundTripAndDefault) {
  Schedule s = sample();
  // Unset writes the version-1 bytes without the field; a cooperative chosen
  // (over a kernel's ping-pong, say) is written.
  std::string plain = s.toJson();
  EXPECT_EQ(plain.find("consumers"), std::string::npos);
  s.consumers = Consumers::Cooperative;
  EXPECT_NE(s.toJson().find("\"consumers\": \"cooperative\""), std::string::npos);
  s.consumers = Consumers::PingPong;
  std::string json = s.toJson();
  EXPECT_NE(json.find("\"consumers\": \"pingpong\",\n"), std::string::npos) << json;
  auto back = Schedule::fromJson(json, "s.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_TRUE(back->consumers.has_value());
  EXPECT_EQ(*back->consumers, Consumers::PingPong);
  EXPECT_EQ(*back, s);
  EXPECT_EQ(back->toJson(), json);
  EXPECT_NE(*back, sample());
}

TEST(ScheduleJson, ConsumersMustBeKnown) {
  EXPECT_EQ(errorOf(R"({"consumers": "zigzag", "ops": []})"),
            "s.json: \"consumers\" must be \"cooperative\", \"pingpong\" or \"staggered\"");
  EXPECT_EQ(errorOf(R"({"consumers": 2, "ops": []})"),
            "s.json: \"consumers\" must be \"cooperative\", \"pingpong\" or \"staggered\"");
  EXPECT_EQ(errorOf(R"({"consumers": "cooperative", "ops": []})"), "");
}

} // namespace

namespace {

TEST(ScheduleJson, RegistersWrittenOnlyWhenSetAndTrimmed) {
  Schedule s = sample();
  std::string plain = s.toJson();
  EXPECT_EQ(plain.find("registers"), std::string::npos);
  s.registers = std::vector<int64_t>{40, 232, 0};
  std::string json = s.toJson();
  // After the kernel (and consumers), before the ops; trailing defaults dropped.
  EXPECT_NE(json.find("  \"kernel\": \"attn_fwd_d128\",\n  \"registers\": [40, 232],\n  \"ops\""),
            std::string::npos)
      << json;
  auto back = Schedule::fromJson(json, "s.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_TRUE(back->registers.has_value());
  EXPECT_EQ(*back->registers, (std::vector<int64_t>{40, 232}));
  EXPECT_EQ(back->registerBudget(1), 232);
  EXPECT_EQ(back->registerBudget(5), 0);
  EXPECT_EQ(*back, s);
  EXPECT_EQ(back->toJson(), json);
  EXPECT_NE(*back, sample());
  // Set but all defaults: written as [] (it resets a kernel's budgets), and
  // equal to a schedule that never chose any.
  s.registers = std::vector<int64_t>{0, 0};
  json = s.toJson();
  EXPECT_NE(json.find("\"registers\": [],\n"), std::string::npos) << json;
  back = Schedule::fromJson(json, "s.json");
  ASSERT_TRUE(bool(back));
  ASSERT_TRUE(back->registers.has_value());
  EXPECT_TRUE(back->registers->empty());
  EXPECT_EQ(back->toJson(), json);
  EXPECT_EQ(*back, sample());
}

TEST(ScheduleJson, RegistersErrorsNameTheField) {
  auto ops = [](const std::string &registers) {
    return errorOf("{\"registers\": " + registers + ", \"ops\": []}");
  };
  EXPECT_EQ(ops("[40, 232]"), "");
  EXPECT_EQ(ops("[]"), "");
  EXPECT_EQ(ops("232"), "s.json: \"registers\" must be an array of register budgets, one per "
                        "schedule group (0: the default share)");
  EXPECT_EQ(ops("[40, \"232\"]"), "s.json: \"registers\"[1] must be an integer");
  EXPECT_EQ(ops("[40, 232.5]"), "s.json: \"registers\"[1] must be an integer");
  EXPECT_EQ(ops("[-8]"), "s.json: \"registers\"[0] = -8 is out of range 0..256 (0: the default "
                         "share)");
  EXPECT_EQ(ops("[24, 300]"), "s.json: \"registers\"[1] = 300 is out of range 0..256 (0: the "
                              "default share)");
  EXPECT_EQ(ops("[0, 0, 0, 0, 0, 0, 0, 0, 0]"),
            "s.json: \"registers\" has 9 entries; there are at most 8 schedule groups");
  // setmaxnreg's own rules (a multiple of 8, from 24) are legality's.
  EXPECT_EQ(ops("[41]"), "");
}

} // namespace

namespace {

TEST(ScheduleJson, ClusterRoundTripWrittenOnlyAboveOne) {
  Schedule s = sample();
  std::string plain = s.toJson();
  EXPECT_EQ(plain.find("cluster"), std::string::npos);
  s.cluster = 1;
  EXPECT_EQ(s.toJson(), plain);
  EXPECT_EQ(s, sample());
  s.cluster = 2;
  std::string json = s.toJson();
  EXPECT_NE(json.find("\"cluster\": 2,\n  \"ops\""), std::string::npos) << json;
  auto back = Schedule::fromJson(json, "s.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_TRUE(back->cluster.has_value());
  EXPECT_EQ(*back->cluster, 2);
  EXPECT_EQ(*back, s);
  EXPECT_NE(*back, sample());
  EXPECT_EQ(back->toJson(), json);
}

TEST(ScheduleJson, ClusterMustBeOneTwoOrFour) {
  std::string why = "s.json: \"cluster\" must be 1, 2 or 4 (CTAs per thread-block cluster along "
                    "grid dimension 0)";
  EXPECT_EQ(errorOf(R"({"cluster": 3, "ops": []})"), why);
  EXPECT_EQ(errorOf(R"({"cluster": "2", "ops": []})"), why);
  EXPECT_EQ(errorOf(R"({"cluster": 0, "ops": []})"), why);
  EXPECT_EQ(errorOf(R"({"cluster": 4, "ops": []})"), "");
}

} // namespace
