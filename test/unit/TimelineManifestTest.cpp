// The manifest's "timeline" object (passes/Driver/TimelineManifest.h): the sampled CTAs as the
// instrumented kernel computes them, the object's fields, and its place in the manifest; and a
// compile with emitTimeline describing exactly the units and warp groups of the lowering.
#include "passes/Driver/CompileDriver.h"
#include "passes/Driver/TimelineManifest.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

TEST(TimelineManifest, SampledCtasSpreadOverTheGrid) {
  EXPECT_EQ(sampledCtas(4, {64, 32, 1}), (std::vector<int64_t>{0, 512, 1024, 1536}));
  EXPECT_EQ(sampledCtas(4, {132, 1, 1}), (std::vector<int64_t>{0, 33, 66, 99}));
  // Fewer CTAs than asked for: every one, each once.
  EXPECT_EQ(sampledCtas(4, {3, 1, 1}), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(sampledCtas(4, {1, 1, 1}), (std::vector<int64_t>{0}));
  // Not a multiple: the stride rounds down, the ids stay inside the grid.
  EXPECT_EQ(sampledCtas(3, {10, 1, 1}), (std::vector<int64_t>{0, 3, 6}));
  EXPECT_EQ(sampledCtas(2, {5, 3, 2}), (std::vector<int64_t>{0, 15}));
}

TimelineDescription gemmLike() {
  TimelineDescription d;
  d.ctas = 2;
  d.capacity = 64;
  d.warpGroups = {{"producer", "producer"}, {"consumer", "consumer 0"}};
  d.units = {{0, "loadA", 0}, {2, "MMA", 1}};
  return d;
}

TEST(TimelineManifest, ObjectHasTheContractsFields) {
  std::string text = timelineManifestObject(gemmLike(), "gemm", {8, 2, 1});
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  const llvm::json::Object &o = *v->getAsObject();
  EXPECT_EQ(*o.getString("module"), "timeline");
  EXPECT_EQ(*o.getString("kernel"), "gemm");
  EXPECT_EQ(*o.getString("clock"), "globaltimer");
  EXPECT_EQ(*o.getInteger("capacity"), 64);
  EXPECT_EQ(*o.getString("record"), "unit_start"); // 16-byte records at unit starts
  EXPECT_EQ(o.getBoolean("runs_without_buffer"), true); // a null buffer records nothing
  const llvm::json::Array &ctas = *o.getArray("sampled_ctas");
  ASSERT_EQ(ctas.size(), 2u);
  EXPECT_EQ(*ctas[1].getAsInteger(), 8);
  const llvm::json::Array &groups = *o.getArray("warp_groups");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(*groups[1].getAsObject()->getInteger("id"), 1);
  EXPECT_EQ(*groups[1].getAsObject()->getString("role"), "consumer");
  EXPECT_EQ(*groups[1].getAsObject()->getString("name"), "consumer 0");
  const llvm::json::Array &units = *o.getArray("units");
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(*units[1].getAsObject()->getInteger("id"), 2);
  EXPECT_EQ(*units[1].getAsObject()->getString("name"), "MMA");
  EXPECT_EQ(*units[1].getAsObject()->getInteger("group"), 1);
}

TEST(TimelineManifest, AddedAsTheLastFieldKeepingTheRest) {
  std::string manifest = "{\n  \"format\": \"stagecraft-bundle\",\n  \"grid\": [8, 2, 1]\n}\n";
  llvm::Expected<std::string> out = withTimeline(manifest, "{\"capacity\":1}");
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  EXPECT_EQ(*out, "{\n  \"format\": \"stagecraft-bundle\",\n  \"grid\": [8, 2, 1],\n"
                  "  \"timeline\": {\"capacity\":1}\n}\n");
  // Not an object, or one with a timeline already: refused.
  llvm::Expected<std::string> bad = withTimeline("[1, 2]", "{}");
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
  llvm::Expected<std::string> twice = withTimeline(*out, "{}");
  EXPECT_FALSE(bool(twice));
  llvm::consumeError(twice.takeError());
}

std::string readAsset(const std::string &name) {
  auto buf = llvm::MemoryBuffer::getFile(std::string(STAGECRAFT_ASSETS_DIR) + "/" + name);
  return buf ? (*buf)->getBuffer().str() : "";
}

TEST(TimelineManifest, CompileDescribesTheInstrumentedKernel) {
  std::string source = readAsset("persistent_gemm_pingpong.mlir");
  ASSERT_FALSE(source.empty());
  CompileOptions o;
  o.emitCubin = false;
  o.emitReference = false;
  o.keepSnapshots = false;
  o.keepLlvmIR = false;
  CompileResult plain = compile(source, "persistent_gemm_pingpong.mlir", o);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain.timelinePtx.empty());
  o.emitTimeline = true;
  CompileResult r = compile(source, "persistent_gemm_pingpong.mlir", o);
  ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics.back());
  EXPECT_EQ(r.ptx, plain.ptx); // the kernel itself is untouched
  ASSERT_FALSE(r.timelinePtx.empty());
  EXPECT_NE(r.timelinePtx.find("%globaltimer"), std::string::npos);

  llvm::Expected<llvm::json::Value> m = llvm::json::parse(r.manifestJson);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  const llvm::json::Object &tl = *m->getAsObject()->getObject("timeline");
  // Ping-pong: a producer and two consumer warp groups (one per team).
  const llvm::json::Array &groups = *tl.getArray("warp_groups");
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(*groups[0].getAsObject()->getString("role"), "producer");
  EXPECT_EQ(*groups[2].getAsObject()->getString("name"), "consumer 1");
  const llvm::json::Array &block = *m->getAsObject()->getArray("block");
  EXPECT_EQ(*block[0].getAsInteger(), int64_t(128 * groups.size()));
  // Every unit of the loop, once, with ids in order; sampled CTAs inside the grid.
  const llvm::json::Array &units = *tl.getArray("units");
  ASSERT_GE(units.size(), 3u);
  for (size_t i = 0; i < units.size(); ++i)
    EXPECT_EQ(*units[i].getAsObject()->getInteger("id"), int64_t(i));
  const llvm::json::Array &grid = *m->getAsObject()->getArray("grid");
  int64_t ctas = *grid[0].getAsInteger() * *grid[1].getAsInteger() * *grid[2].getAsInteger();
  for (const llvm::json::Value &c : *tl.getArray("sampled_ctas"))
    EXPECT_LT(*c.getAsInteger(), ctas);
}

} // namespace
