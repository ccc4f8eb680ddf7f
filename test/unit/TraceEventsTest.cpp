//===- TraceEventsTest.cpp - the Chrome trace-event writer ----------------===//
#include "core/TraceEvents/TraceEvents.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace stagecraft::trace;

namespace {

Document sample() {
  Document d;
  d.processes = {{1, "CTA 0 (SM 7)", 0}};
  d.threads = {{1, 1, "producer", 0}, {1, 2, "consumer \"0\"\n", 1}};
  Event e;
  e.name = "loadK";
  e.category = "load";
  e.pid = 1;
  e.tid = 1;
  e.tsUs = 1.2345;
  e.durUs = 0.5;
  e.args = {Arg::num("iteration", 3), Arg::str("note", "a\tb")};
  d.events.push_back(e);
  e.name = "MMA0";
  e.category = "";
  e.tid = 2;
  e.tsUs = 2;
  e.durUs = -1; // written as 0
  e.args = {Arg::num("bad", NAN)};
  d.events.push_back(e);
  d.otherData = {Arg::str("kernel", "attn"), Arg::num("overhead", 0.031),
                 Arg::json("units", R"([{"id": 0, "name": "loadK"}])")};
  return d;
}

TEST(TraceEvents, WritesTheTraceEventFormat) {
  std::string text = toJson(sample());
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(v)) << llvm::toString(v.takeError()) << "\n" << text;
  const llvm::json::Object *o = v->getAsObject();
  ASSERT_NE(o, nullptr);
  const llvm::json::Array *events = o->getArray("traceEvents");
  ASSERT_NE(events, nullptr);
  int metadata = 0, complete = 0;
  for (const llvm::json::Value &ev : *events) {
    const llvm::json::Object *e = ev.getAsObject();
    ASSERT_NE(e, nullptr);
    std::string ph = e->getString("ph")->str();
    ASSERT_TRUE(e->getInteger("pid").has_value());
    if (ph == "M") {
      ++metadata;
      ASSERT_NE(e->getObject("args"), nullptr);
      continue;
    }
    ASSERT_EQ(ph, "X");
    ++complete;
    EXPECT_TRUE(e->getString("name").has_value());
    EXPECT_TRUE(e->getNumber("ts").has_value());
    EXPECT_GE(*e->getNumber("dur"), 0);
    EXPECT_TRUE(e->getInteger("tid").has_value());
    EXPECT_NE(e->getObject("args"), nullptr);
  }
  EXPECT_EQ(metadata, 2 + 4); // name and sort index of 1 process and 2 threads
  EXPECT_EQ(complete, 2);
  const llvm::json::Object *first = (*events)[metadata].getAsObject();
  EXPECT_EQ(*first->getString("cat"), "load");
  EXPECT_NEAR(*first->getNumber("ts"), 1.2345, 0.001); // microseconds, ns precision
  EXPECT_EQ(*first->getObject("args")->getInteger("iteration"), 3);
  EXPECT_EQ(*first->getObject("args")->getString("note"), "a\tb");
  const llvm::json::Object *second = (*events)[metadata + 1].getAsObject();
  EXPECT_EQ(second->get("cat"), nullptr);
  EXPECT_EQ(*second->getNumber("dur"), 0);
  EXPECT_EQ(second->getObject("args")->get("bad")->kind(), llvm::json::Value::Null);
  // Names are escaped, not mangled.
  bool found = false;
  for (const llvm::json::Value &ev : *events)
    if (auto name = ev.getAsObject()->getObject("args")->getString("name"))
      found |= *name == "consumer \"0\"\n";
  EXPECT_TRUE(found);
  EXPECT_EQ(*o->getString("displayTimeUnit"), "ns");
  EXPECT_EQ(*o->getObject("otherData")->getString("kernel"), "attn");
  // A JSON argument is written as the value it is, not as a string.
  const llvm::json::Array *units = o->getObject("otherData")->getArray("units");
  ASSERT_NE(units, nullptr);
  ASSERT_EQ(units->size(), 1u);
  EXPECT_EQ(*(*units)[0].getAsObject()->getString("name"), "loadK");
}

TEST(TraceEvents, FilesAreWrittenWholeOrNotAtAll) {
  std::string dir = "/tmp/stagecraft-trace-test-" + std::to_string(getpid());
  ASSERT_EQ(system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  std::string path = dir + "/t.json";
  EXPECT_EQ(writeFileAtomically(path, "{}\n"), "");
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), "{}\n");
  std::string err = writeFileAtomically(dir + "/missing/t.json", "{}");
  EXPECT_NE(err.find("cannot write " + dir + "/missing/t.json"), std::string::npos) << err;
  // No temporary is left behind.
  EXPECT_NE(system(("ls " + dir + " | grep -q partial").c_str()), 0);
  system(("rm -rf " + dir).c_str());
}

} // namespace
