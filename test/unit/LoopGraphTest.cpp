//===- LoopGraphTest.cpp - loop graphs from the bundled kernels -----------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace stagecraft;

namespace {

struct Parsed {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp kernel;
};

Parsed parseAsset(const std::string &name) {
  Parsed p;
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  p.ctx = std::make_unique<MLIRContext>(registry);
  p.module = parseSourceFile<ModuleOp>(std::string(STAGECRAFT_ASSETS_DIR) + "/" + name,
                                       p.ctx.get());
  if (p.module)
    p.kernel = tile::getKernels(*p.module).front();
  return p;
}

Parsed parseString(const std::string &text) {
  Parsed p;
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  p.ctx = std::make_unique<MLIRContext>(registry);
  p.module = parseSourceString<ModuleOp>(text, p.ctx.get());
  if (p.module)
    p.kernel = tile::getKernels(*p.module).front();
  return p;
}

TEST(LoopGraph, AnElementReadFollowsTheUnitThatUsesIt) {
  // A page table's entry, through index_cast and a multiply, is loadK's
  // coordinate: an error at the extract is loadK's card (the review of the
  // day's change: only direct operands were followed).
  Parsed p = parseAsset("../test/Inputs/unseen/paged-attention.mlir");
  ASSERT_TRUE(p.module);
  auto g = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g));
  const Unit &loadK = g->units[g->findUnit("loadK")];
  ASSERT_EQ(loadK.followerLocations.size(), 1u);
  EXPECT_NE(loadK.followerLocations[0].find("paged-attention.mlir:36:"), std::string::npos)
      << loadK.followerLocations[0];
}

TEST(LoopGraph, AttentionUnitsEdgesAndSteadyState) {
  Parsed p = parseAsset("attention_fwd_d128.mlir");
  ASSERT_TRUE(p.module);
  auto g = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g));
  std::vector<std::string> names;
  for (const Unit &u : g->units)
    names.push_back(u.name);
  EXPECT_EQ(names, (std::vector<std::string>{"loadK", "MMA0", "Softmax", "MUL", "loadV", "MMA1"}));
  EXPECT_EQ(g->units[g->findUnit("Softmax")].ops.size(), 13u);
  EXPECT_EQ(g->units[g->findUnit("loadK")].bufferBytes, 128 * 128 * 2);
  EXPECT_EQ(g->fixedSmemBytes, 128 * 128 * 2);  // Q
  EXPECT_EQ(g->warpGroups, (std::vector<int64_t>{1, 2}));

  bool carriedAcc = false, mma0ToSoftmax = false;
  for (const Edge &e : g->edges) {
    if (e.def == unsigned(g->findUnit("MMA1")) && e.use == unsigned(g->findUnit("MUL")))
      carriedAcc |= e.loopCarried;
    if (e.def == unsigned(g->findUnit("MMA0")) && e.use == unsigned(g->findUnit("Softmax")))
      mma0ToSoftmax |= !e.loopCarried;
  }
  EXPECT_TRUE(carriedAcc);
  EXPECT_TRUE(mma0ToSoftmax);

  ScheduleReport r = checkSchedule(*g, g->initialSchedule);
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.steadyState, "MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)");
}

TEST(LoopGraph, ATileOnlyTheEpilogueReadsSharesTheRingsPlace) {
  // C = A B^T + R in 128x256 tiles: R's 64 KiB kept beside the four 48 KiB
  // ring stages would need 257 KiB; loaded after the loop, beside the
  // staging, where the rings were, the kernel needs the rings' 193.
  Parsed p = parseAsset("../test/Inputs/unseen/residual-epilogue.mlir");
  ASSERT_TRUE(p.module);
  auto g = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g));
  EXPECT_EQ(g->fixedSmemBytes, 0);
  EXPECT_EQ(g->epilogueLoadSmemBytes, 128 * 256 * 2);
  int64_t rings = 4 * (128 + 256) * 64 * 2;
  ScheduleReport r = checkSchedule(*g, g->initialSchedule);
  ASSERT_TRUE(r.legal()) << r.violations[0].message;
  EXPECT_TRUE(r.epilogueLoadsAfterLoop);
  EXPECT_EQ(r.smemBytes, 1024 + rings);
  // A tile that fits beside the rings (a bias row, 1 KiB) is loaded at the
  // start, under the loop, not waited for after it.
  g->epilogueLoadSmemBytes = 1024;
  r = checkSchedule(*g, g->initialSchedule);
  EXPECT_FALSE(r.epilogueLoadsAfterLoop);
  EXPECT_EQ(r.smemBytes, 1024 + 1024 + rings);
  // After the loop, the total is the larger of the rings and the tile with
  // the staging (32 KiB here; larger staging made up).
  g->epilogueLoadSmemBytes = 64 * 1024;
  g->epilogueSmemBytes = 170 * 1024;
  r = checkSchedule(*g, g->initialSchedule);
  EXPECT_TRUE(r.epilogueLoadsAfterLoop);
  EXPECT_EQ(r.smemBytes, 1024 + 64 * 1024 + 170 * 1024);
  ASSERT_FALSE(r.legal());
  const std::string &why = r.violations[0].message;
  EXPECT_NE(why.find("64 KiB of tiles only the epilogue reads ("), std::string::npos) << why;
  EXPECT_NE(why.find("residual-epilogue.mlir:35:10), loaded after the loop where the rings were"),
            std::string::npos)
      << why;
  // No schedule can help: the advice says so, not "move loads closer".
  EXPECT_NE(why.find("No schedule fits this"), std::string::npos) << why;
}

TEST(LoopGraph, TritonComputationPipeliningSchedules) {
  Parsed p = parseAsset("attention_fwd_d128.mlir");
  ASSERT_TRUE(p.module);
  auto g = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g));
  Schedule s1;
  s1.set("MMA0", {2, 0, 1});
  s1.set("Softmax", {3, 1, 1});
  s1.set("MUL", {3, 2, 1});
  s1.set("MMA1", {3, 3, 1});
  s1.set("loadK", {0, 4, 0});
  s1.set("loadV", {1, 5, 0});
  ScheduleReport r1 = checkSchedule(*g, s1);
  EXPECT_TRUE(r1.legal()) << (r1.legal() ? "" : r1.violations[0].message);
  EXPECT_EQ(r1.steadyState, "MMA0(i+1) Softmax(i) MUL(i) MMA1(i) loadK(i+3) loadV(i+2)");
  EXPECT_EQ(r1.numStages, 4);

  Schedule s2;
  s2.set("MMA0", {2, 0, 1});
  s2.set("MMA1", {3, 1, 1});
  s2.set("Softmax", {2, 2, 1});
  s2.set("MUL", {2, 3, 1});
  s2.set("loadK", {0, 4, 0});
  s2.set("loadV", {1, 5, 0});
  ScheduleReport r2 = checkSchedule(*g, s2);
  EXPECT_TRUE(r2.legal()) << (r2.legal() ? "" : r2.violations[0].message);
  EXPECT_EQ(r2.steadyState, "MMA0(i+1) MMA1(i) Softmax(i+1) MUL(i+1) loadK(i+3) loadV(i+2)");

  // MUL before MMA1 in the body while one stage earlier breaks the carried
  // accumulator: the schedule must put MMA1 first.
  s2.set("MUL", {2, 0, 1});
  s2.set("MMA0", {2, 3, 1});
  EXPECT_FALSE(checkSchedule(*g, s2).legal());
}

TEST(LoopGraph, DefaultsForAnUnscheduledLoop) {
  Parsed p = parseString(R"mlir(
    func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
                 %N: index {tile.size = "N"})
        attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                    tile.defaults = {N = 128 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant dense<0.0> : tensor<64x64xf32>
      %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
        %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %b = tile.load %A[%c0, %i] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %d = tile.dot %a, %b, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        %e = arith.addf %d, %d : tensor<64x64xf32>
        scf.yield %e : tensor<64x64xf32>
      }
      return
    })mlir");
  ASSERT_TRUE(p.module);
  auto g = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g));
  ScheduleReport r = checkSchedule(*g, g->initialSchedule);
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.steadyState, "load_0(i+1) load_1(i+1) dot_0(i) addf_0(i)");

  // Writing a schedule and reading it back gives the same schedule.
  Schedule s = g->initialSchedule;
  s.set("dot_0", {2, 2, 0, 1});
  s.set("addf_0", {2, 3, 0});
  ASSERT_TRUE(succeeded(writeSchedule(p.kernel, s)));
  auto g2 = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g2));
  EXPECT_EQ(g2->initialSchedule, s);
}

TEST(KernelSignature, SizesGridAndShapes) {
  Parsed p = parseAsset("attention_fwd_d64_causal.mlir");
  ASSERT_TRUE(p.module);
  auto sig = tile::KernelSignature::get(p.kernel);
  ASSERT_TRUE(succeeded(sig));
  EXPECT_EQ(sig->sizeNames, (std::vector<std::string>{"B", "H", "S"}));
  EXPECT_EQ(sig->sizeDefaults, (std::vector<int64_t>{4, 32, 8192}));
  EXPECT_EQ(tile::KernelSignature::evaluate(sig->grid, {4, 32, 8000}),
            (std::vector<int64_t>{63, 128}));
  EXPECT_EQ(tile::KernelSignature::evaluate(sig->descShapes[0], {4, 32, 8000}),
            (std::vector<int64_t>{128, 8000, 64}));
}

} // namespace

namespace {

TEST(LoopGraph, ClusterFactsFromTheIR) {
  Parsed p = parseAsset("persistent_gemm_cluster.mlir");
  ASSERT_TRUE(p.kernel);
  FailureOr<LoopGraph> g = buildLoopGraph(p.kernel);
  ASSERT_TRUE(succeeded(g));
  const Unit &a = g->units[g->findUnit("loadA")], &b = g->units[g->findUnit("loadB")];
  // loadA's rows go through tile.cluster_rank; loadB's coordinates do not.
  EXPECT_FALSE(a.sameInCluster);
  EXPECT_TRUE(b.sameInCluster);
  EXPECT_EQ(b.boxRows, 256);
  EXPECT_TRUE(b.descriptorAlsoUsedAt.empty());
  // The tile loop strides by clusters: the same iterations in every CTA of one.
  EXPECT_TRUE(g->clusterVaryingBound.empty()) << g->clusterVaryingBound;
  EXPECT_EQ(g->initialSchedule.cluster, std::optional<int64_t>(2));
  ScheduleReport r = checkSchedule(*g, g->initialSchedule);
  EXPECT_TRUE(r.legal());
  EXPECT_EQ(r.sharedLoads, std::vector<std::string>{"loadB"});

  // A kernel of program ids: the tile loop's lower bound varies in a cluster, and with it
  // every load's coordinates.
  Parsed q = parseAsset("persistent_gemm_grouped.mlir");
  FailureOr<LoopGraph> h = buildLoopGraph(q.kernel);
  ASSERT_TRUE(succeeded(h));
  EXPECT_EQ(h->clusterVaryingBound, "the tile loop's lower bound");
  EXPECT_FALSE(h->units[h->findUnit("loadB")].sameInCluster);
  EXPECT_FALSE(h->initialSchedule.cluster.has_value());
}

} // namespace

namespace {

TEST(DescType, LoadPanelsAreTheWidestSwizzleThatDividesARow) {
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  Builder b(&ctx);
  auto panel = [&](std::vector<int64_t> shape, Type elem) {
    auto d = tile::DescType::get(&ctx, shape, elem);
    return std::make_pair(d.getLoadBoxShape().back(), d.getLoadSwizzleBytes());
  };
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type(), e4m3 = b.getType<Float8E4M3FNType>();
  using P = std::pair<int64_t, int64_t>;
  EXPECT_EQ(panel({128, 64}, bf16), P(64, 128));   // one 128-byte panel
  EXPECT_EQ(panel({128, 256}, bf16), P(64, 128));  // four
  EXPECT_EQ(panel({128, 96}, bf16), P(32, 64));    // 192 bytes: three 64-byte panels
  EXPECT_EQ(panel({1, 128, 96}, bf16), P(32, 64));
  EXPECT_EQ(panel({128, 80}, bf16), P(16, 32));    // 160 bytes: five 32-byte panels
  EXPECT_EQ(panel({128, 32}, bf16), P(32, 64));    // one 64-byte row
  EXPECT_EQ(panel({128, 16}, bf16), P(16, 32));
  EXPECT_EQ(panel({64, 24}, bf16), P(24, 0));      // 48 bytes: one unswizzled panel
  EXPECT_EQ(panel({128, 64}, e4m3), P(64, 64));
  EXPECT_EQ(panel({128, 128}, e4m3), P(128, 128));
  EXPECT_EQ(panel({128, 48}, f32), P(16, 64));     // 192 bytes
  EXPECT_EQ(panel({256}, bf16), P(256, 0));        // 1-d: one box
  // Rows above 128 bytes that no swizzle divides: 16-byte panels, never a
  // partial last panel (whose store would write the next tile's columns).
  EXPECT_EQ(panel({128, 200}, bf16), P(8, 0));     // 400 bytes
  EXPECT_EQ(panel({128, 144}, e4m3), P(16, 0));    // 144 bytes
  EXPECT_EQ(panel({128, 72}, f32), P(8, 32));      // 288 bytes: nine 32-byte panels
}

} // namespace
