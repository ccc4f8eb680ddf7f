//===- UnitCostsTest.cpp - unit work and trip counts from the IR ----------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Timeline/Simulator.h"
#include "core/Timeline/UnitCosts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::timeline;

namespace {

struct Parsed {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp kernel;
  LoopGraph graph;
  std::vector<std::string> diagnostics;
};

std::unique_ptr<Parsed> parse(const std::string &text, bool isFile) {
  auto p = std::make_unique<Parsed>();
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  p->ctx = std::make_unique<MLIRContext>(registry);
  Parsed *raw = p.get();
  p->ctx->getDiagEngine().registerHandler([raw](Diagnostic &d) {
    raw->diagnostics.push_back(d.str());
    return success();
  });
  p->module = isFile ? parseSourceFile<ModuleOp>(std::string(STAGECRAFT_ASSETS_DIR) + "/" + text,
                                                 p->ctx.get())
                     : parseSourceString<ModuleOp>(text, p->ctx.get());
  if (!p->module)
    return p;
  p->kernel = tile::getKernels(*p->module).front();
  auto g = buildLoopGraph(p->kernel);
  if (succeeded(g))
    p->graph = std::move(*g);
  return p;
}

const UnitWork &unit(const KernelCosts &c, const std::string &name) {
  for (const UnitWork &u : c.units)
    if (u.name == name)
      return u;
  static UnitWork none;
  ADD_FAILURE() << "no unit " << name;
  return none;
}

TEST(UnitCosts, Gemm) {
  auto p = parse("gemm.mlir", true);
  ASSERT_TRUE(p->module);
  auto c = extractKernelCosts(p->kernel, p->graph);
  ASSERT_TRUE(succeeded(c));
  ASSERT_EQ(c->units.size(), 3u);
  EXPECT_EQ(unit(*c, "loadA").loadBytes, 128 * 64 * 2);
  EXPECT_EQ(unit(*c, "loadA").loadBoxes, 1);
  EXPECT_EQ(unit(*c, "loadB").loadBytes, 256 * 64 * 2);
  const UnitWork &mma = unit(*c, "MMA");
  ASSERT_EQ(mma.dots.size(), 1u);
  EXPECT_EQ(mma.dots[0].m, 128);
  EXPECT_EQ(mma.dots[0].n, 256);
  EXPECT_EQ(mma.dots[0].k, 64);
  EXPECT_EQ(mma.dots[0].inputType, "bf16");
  EXPECT_FALSE(mma.dots[0].aInRegisters);
  EXPECT_EQ(mma.accumulatesOnto, (std::vector<std::string>{"MMA"}));
  EXPECT_FALSE(mma.writesAccumulator);
  // The epilogue: the bf16 conversion of the accumulator and its store.
  EXPECT_EQ(c->epilogueMath.convert, 128 * 256);
  EXPECT_EQ(c->epilogueStoreBytes, 128 * 256 * 2);
  // Stored as the lowering stages it: four 128-byte-wide panels of 128 rows.
  EXPECT_EQ(c->epiloguePanelBytes, (std::vector<int64_t>(4, 128 * 128)));
  EXPECT_EQ(c->prologueLoadBytes, 0);
  EXPECT_EQ(c->epilogueLoadBytes, 0);
  // 8192^3: 64 x 32 CTAs of 128 iterations.
  EXPECT_EQ(c->grid, (std::vector<int64_t>{64, 32, 1}));
  ASSERT_EQ(c->ctas.size(), 1u);
  EXPECT_EQ(c->ctas[0].trip, 128);
  EXPECT_EQ(c->ctas[0].count, 64 * 32);
  EXPECT_DOUBLE_EQ(c->dotFlops(), 2.0 * 8192 * 8192 * 8192);
  EXPECT_DOUBLE_EQ(c->dramBytes, 3.0 * 8192 * 8192 * 2);
  EXPECT_DOUBLE_EQ(c->storedBytes, 8192.0 * 8192 * 2); // C alone
  EXPECT_TRUE(c->notes.empty());

  // Sizes: K = 4000 is 63 iterations of 64; unknown sizes are refused.
  auto k4000 = extractKernelCosts(p->kernel, p->graph, {{"M", 8000}, {"N", 8064}, {"K", 4000}});
  ASSERT_TRUE(succeeded(k4000));
  EXPECT_EQ(k4000->grid, (std::vector<int64_t>{63, 32, 1}));
  EXPECT_EQ(k4000->ctas[0].trip, 63);
  EXPECT_DOUBLE_EQ(k4000->storedBytes, 8000.0 * 8064 * 2);
  EXPECT_TRUE(failed(extractKernelCosts(p->kernel, p->graph, {{"Q", 1}})));
  ASSERT_FALSE(p->diagnostics.empty());
  EXPECT_NE(p->diagnostics.back().find("unknown size \"Q\""), std::string::npos);
}

TEST(UnitCosts, ATileOnlyTheEpilogueReadsIsLoadedAfterTheLoop) {
  auto p = parse("../test/Inputs/unseen/residual-epilogue.mlir", true);
  ASSERT_TRUE(p->module);
  auto c = extractKernelCosts(p->kernel, p->graph);
  ASSERT_TRUE(succeeded(c));
  EXPECT_EQ(c->prologueLoadBytes, 0);
  EXPECT_EQ(c->epilogueLoadBytes, 128 * 256 * 2); // R
}

TEST(UnitCosts, LoadFootprintsFollowTheProgramIds) {
  auto p = parse("gemm.mlir", true);
  ASSERT_TRUE(p->module);
  // 512 x 512 in 128 x 256 tiles: a grid of 4 x 2, blockIdx.x (the M tile)
  // fastest. CTA c loads A's rows of tile c % 4 and B's of tile c / 4.
  auto c = extractKernelCosts(p->kernel, p->graph, {{"M", 512}, {"N", 512}, {"K", 256}});
  ASSERT_TRUE(succeeded(c));
  ASSERT_EQ(unit(*c, "loadA").footprints.size(), 1u);
  const LoadFootprint &a = unit(*c, "loadA").footprints[0];
  const LoadFootprint &b = unit(*c, "loadB").footprints[0];
  EXPECT_EQ(a.bytes, 128 * 64 * 2);
  ASSERT_EQ(a.boxPerCta.size(), 8u);
  ASSERT_EQ(b.boxPerCta.size(), 8u);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(a.boxPerCta[i] == a.boxPerCta[j], i % 4 == j % 4) << i << " " << j;
      EXPECT_EQ(b.boxPerCta[i] == b.boxPerCta[j], i / 4 == j / 4) << i << " " << j;
    }
  EXPECT_NE(a.boxPerCta[0], b.boxPerCta[0]); // another tensor, the same coordinates
  EXPECT_TRUE(unit(*c, "MMA").footprints.empty());

  // All 8 CTAs run at once: 4 distinct A boxes, 2 distinct B boxes.
  ScheduleReport r = checkSchedule(p->graph, p->graph.initialSchedule);
  Prediction pr = predict(p->graph, p->graph.initialSchedule, r, *c, HopperModel{});
  ASSERT_TRUE(pr.ok) << pr.error;
  ASSERT_EQ(pr.loadSources.size(), 2u);
  EXPECT_EQ(pr.loadSources[0].unit, "loadA");
  EXPECT_NEAR(pr.loadSources[0].dramFraction, 4.0 / 8, 1e-9);
  EXPECT_NEAR(pr.loadSources[1].dramFraction, 2.0 / 8, 1e-9);
}

TEST(UnitCosts, CausalAttention) {
  auto p = parse("attention_fwd_d128_causal.mlir", true);
  ASSERT_TRUE(p->module);
  auto c = extractKernelCosts(p->kernel, p->graph, {{"B", 1}, {"H", 2}, {"S", 300}});
  ASSERT_TRUE(succeeded(c));
  // Grid (3 query blocks, 2 heads): query block q visits key blocks 0..q.
  EXPECT_EQ(c->grid, (std::vector<int64_t>{3, 2, 1}));
  std::vector<int64_t> trips;
  for (const CtaRun &r : c->ctas)
    for (int64_t i = 0; i < r.count; ++i)
      trips.push_back(r.trip);
  EXPECT_EQ(trips, (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(unit(*c, "loadK").loadBytes, 128 * 128 * 2);
  EXPECT_EQ(unit(*c, "loadK").loadBoxes, 2); // two 64-column panels
  EXPECT_EQ(c->prologueLoadBytes, 128 * 128 * 2); // Q
  EXPECT_EQ(c->epilogueLoadBytes, 0);               // Q is read in the loop
  const UnitWork &softmax = unit(*c, "Softmax");
  EXPECT_EQ(softmax.math.mufu, 128 * 128 + 128); // exp2 of the tile and of the row vector
  EXPECT_EQ(softmax.math.convert, 128 * 128);    // P to bf16
  EXPECT_EQ(softmax.math.shuffle, 2 * 128 * 8);  // two row reductions
  // FMA pipe, per score: the mask, two row reductions, x * scale - max (the
  // multiply by the splat fuses into the subtraction: the lowering takes the
  // scale out of the max); per row: the new max, m - m', l * alpha + sum (one
  // fma).
  EXPECT_EQ(softmax.math.fma, 4 * 128 * 128 + 3 * 128);
  // MUL's multiply feeds a dot, not an add: it costs one op per element.
  EXPECT_EQ(unit(*c, "MUL").math.fma, 128 * 128);
  EXPECT_TRUE(softmax.genericOps.empty());
  EXPECT_TRUE(unit(*c, "MUL").writesAccumulator);
  EXPECT_FALSE(unit(*c, "Softmax").writesAccumulator);
  const UnitWork &mma1 = unit(*c, "MMA1");
  ASSERT_EQ(mma1.dots.size(), 1u);
  EXPECT_TRUE(mma1.dots[0].aInRegisters);
  EXPECT_EQ(mma1.accumulatesOnto, (std::vector<std::string>{"MUL"}));
  EXPECT_FALSE(unit(*c, "MMA0").dots[0].aInRegisters); // Q from shared memory
  EXPECT_TRUE(unit(*c, "MMA0").accumulatesOnto.empty()); // a zero constant
  // The epilogue: O / l, l broadcast along the columns: one reciprocal per
  // row a thread holds (2 of each 64-row slab's rows, so 4 / 128 of the
  // elements: the SASS has 2 MUFU.RCP a thread), the range scaling, its
  // select and the multiply per element; the conversion to bf16.
  EXPECT_EQ(c->epilogueMath.mufu, 128 * 128 * 4 / 128);
  EXPECT_EQ(c->epilogueMath.fma, 4 * 128 * 128);
  EXPECT_EQ(c->epilogueMath.convert, 128 * 128);
}

/// A kernel over one 128x64 bf16 tile of A per K step (the load is unit
/// "load"), storing a 128x64 f32 tile: `constants` go before the loop, `body`
/// follows the load and yields the accumulator.
std::string loopKernel(const std::string &constants, const std::string &body) {
  return R"mlir(
module {
  func.func @k(%A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, K] -> (M, K)>},
               %C: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M, K] -> (M, K)>},
               %M: index {tile.size = "M"}, %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, K] -> (M ceildiv 128)>,
                  tile.defaults = {M = 256 : i64, K = 1000 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  )mlir" + constants + R"mlir(
    %r = scf.for %k = %c0 to %K step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32>) {
      %a = tile.load %A[%c0, %k] {tile.sched = #tile.sched<"load", stage = 0, order = 0, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
  )mlir" + body + R"mlir(
    }
    tile.store %C[%c0, %c0], %r : !tile.desc<128x64xf32>, tensor<128x64xf32>
    return
  }
}
)mlir";
}

// A loop with ops the model has no class for, an integer index tile and a
// splat: costed generically (and named), never an error.
const std::string kNewOps = loopKernel("", R"mlir(
      %f = arith.extf %a {tile.sched = #tile.sched<"math", stage = 1, order = 1, group = 0>}
          : tensor<128x64xbf16> to tensor<128x64xf32>
      %i = arith.fptosi %f {tile.sched = #tile.sched<"math", stage = 1, order = 1, group = 0>}
          : tensor<128x64xf32> to tensor<128x64xi32>
      %p = math.ipowi %i, %i {tile.sched = #tile.sched<"math", stage = 1, order = 1, group = 0>}
          : tensor<128x64xi32>
      %e = arith.sitofp %p {tile.sched = #tile.sched<"math", stage = 1, order = 1, group = 0>}
          : tensor<128x64xi32> to tensor<128x64xf32>
      %s = arith.addf %acc, %e {tile.sched = #tile.sched<"math", stage = 1, order = 1, group = 0>}
          : tensor<128x64xf32>
      scf.yield %s : tensor<128x64xf32>
)mlir");

TEST(UnitCosts, UnknownOpsGetAGenericCostAndANote) {
  auto p = parse(kNewOps, false);
  ASSERT_TRUE(p->module) << (p->diagnostics.empty() ? "" : p->diagnostics.front());
  auto c = extractKernelCosts(p->kernel, p->graph);
  ASSERT_TRUE(succeeded(c));
  const UnitWork &math = unit(*c, "math");
  EXPECT_EQ(math.genericOps, (std::vector<std::string>{"math.ipowi"}));
  EXPECT_EQ(math.math.generic, 128 * 64);
  // extf packed in pairs (one unit), fptosi and sitofp one result each (two).
  EXPECT_EQ(math.math.convert, 5 * 128 * 64);
  EXPECT_EQ(math.math.fma, 128 * 64);
  EXPECT_EQ(c->ctas[0].trip, 16); // ceil(1000 / 64)
  ScheduleReport r = checkSchedule(p->graph, p->graph.initialSchedule);
  ASSERT_TRUE(r.legal());
  Prediction pr = predict(p->graph, p->graph.initialSchedule, r, *c, HopperModel());
  ASSERT_TRUE(pr.ok) << pr.error;
  bool noted = false;
  for (const std::string &n : pr.notes)
    noted |= n.find("math: no cost class for math.ipowi") != std::string::npos;
  EXPECT_TRUE(noted);
  EXPECT_EQ(pr.flops, 0); // no dots
}

// A sliding-window mask (rows - cols in [0, W)) and, apart, a product of two
// positions: integer math of the element's position costs once per distinct
// value in a thread's accumulator fragment (2 rows and N / 4 columns of each
// 64-row slab: as the PTX of the window variant has it, 18 compares for 32
// elements), predicate logic folds into the compares, and anything that is
// not linear in the position is per element.
const std::string kPositionMath = loopKernel(R"mlir(
    %zi = arith.constant dense<0> : tensor<128x64xi32>
    %wi = arith.constant dense<256> : tensor<128x64xi32>
    %ninf = arith.constant dense<-1.0e30> : tensor<128x64xf32>
)mlir", R"mlir(
      %f = arith.extf %a {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>}
          : tensor<128x64xbf16> to tensor<128x64xf32>
      %rows = tile.iota %c0, dim = 0 {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi32>
      %cols = tile.iota %k, dim = 1 {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi32>
      %dist = arith.subi %rows, %cols {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi32>
      %past = arith.cmpi sge, %dist, %zi {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi32>
      %near = arith.cmpi slt, %dist, %wi {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi32>
      %ok = arith.andi %past, %near {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi1>
      %m = arith.select %ok, %f, %ninf {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xi1>, tensor<128x64xf32>
      %s = arith.addf %acc, %m {tile.sched = #tile.sched<"mask", stage = 1, order = 1, group = 0>} : tensor<128x64xf32>
      %prod = arith.muli %rows, %cols {tile.sched = #tile.sched<"other", stage = 1, order = 2, group = 0>} : tensor<128x64xi32>
      %data = arith.fptosi %f {tile.sched = #tile.sched<"other", stage = 1, order = 2, group = 0>} : tensor<128x64xf32> to tensor<128x64xi32>
      %cmp = arith.cmpi slt, %data, %cols {tile.sched = #tile.sched<"other", stage = 1, order = 2, group = 0>} : tensor<128x64xi32>
      %both = arith.andi %cmp, %past {tile.sched = #tile.sched<"other", stage = 1, order = 2, group = 0>} : tensor<128x64xi1>
      %pf = arith.sitofp %prod {tile.sched = #tile.sched<"other", stage = 1, order = 2, group = 0>} : tensor<128x64xi32> to tensor<128x64xf32>
      %o = arith.select %both, %pf, %s {tile.sched = #tile.sched<"other", stage = 1, order = 2, group = 0>} : tensor<128x64xi1>, tensor<128x64xf32>
      scf.yield %o : tensor<128x64xf32>
)mlir");

TEST(UnitCosts, PositionMathCostsPerDistinctValue) {
  auto p = parse(kPositionMath, false);
  ASSERT_TRUE(p->module) << (p->diagnostics.empty() ? "" : p->diagnostics.front());
  auto c = extractKernelCosts(p->kernel, p->graph);
  ASSERT_TRUE(succeeded(c));
  const double e = 128 * 64;
  // Integer ops on the INT32 pipe: rows (2 of 32 per thread: 4 / 64), cols
  // (1 / 2), rows - cols and its two compares (1 / 2 + 2 / 64 each); the
  // andi folds into the compares; the select and the add per element (FMA).
  EXPECT_DOUBLE_EQ(unit(*c, "mask").math.integer, e * (4.0 / 64 + 0.5 + 3 * (0.5 + 2.0 / 64)));
  EXPECT_DOUBLE_EQ(unit(*c, "mask").math.fma, 2 * e);
  // A product of two positions and a compare with data: per element (the
  // andi of a data predicate too); the select per element.
  EXPECT_DOUBLE_EQ(unit(*c, "other").math.integer, e + e + e);
  EXPECT_DOUBLE_EQ(unit(*c, "other").math.fma, e);
  // fptosi and sitofp: one result per instruction, two units of the pipe
  // that packs float conversions in pairs.
  EXPECT_DOUBLE_EQ(unit(*c, "other").math.convert, 4 * e);
}

TEST(UnitCosts, ClassesOfElementwiseOps) {
  MathWork w;
  EXPECT_TRUE(classifyElementwise("math.exp2", 10, w));
  EXPECT_TRUE(classifyElementwise("arith.divf", 10, w));
  EXPECT_TRUE(classifyElementwise("arith.muli", 10, w));
  EXPECT_TRUE(classifyElementwise("arith.truncf", 10, w));
  EXPECT_TRUE(classifyElementwise("tile.broadcast", 10, w));
  EXPECT_FALSE(classifyElementwise("math.ipowi", 10, w));
  EXPECT_EQ(w.mufu, 20);
  EXPECT_EQ(w.fma, 2 * 10);    // divf's Newton steps
  EXPECT_EQ(w.integer, 10);    // the integer multiply: the INT32 pipe
  EXPECT_EQ(w.convert, 10);
}

TEST(UnitCosts, PredictionsOfTheAssetsRankTheGemmSweep) {
  // Loads further ahead make the GEMM faster until the bandwidth bounds it;
  // the unpipelined schedule is far slower (what bench/results measured).
  auto p = parse("gemm.mlir", true);
  auto c = extractKernelCosts(p->kernel, p->graph);
  ASSERT_TRUE(succeeded(c));
  auto predictWith = [&](int64_t mmaStage, int64_t loadGroup, int64_t wait) {
    Schedule s = p->graph.initialSchedule;
    s.set("MMA", {mmaStage, mmaStage == 0 ? 2 : 0, 1, wait});
    s.set("loadA", {0, mmaStage == 0 ? 0 : 1, loadGroup, 0});
    s.set("loadB", {0, mmaStage == 0 ? 1 : 2, loadGroup, 0});
    ScheduleReport r = checkSchedule(p->graph, s);
    EXPECT_TRUE(r.legal());
    return predict(p->graph, s, r, *c, HopperModel());
  };
  Prediction unpipelined = predictWith(0, 1, 0);
  Prediction ahead1 = predictWith(1, 0, 0);
  Prediction ahead2 = predictWith(2, 0, 1);
  ASSERT_TRUE(unpipelined.ok && ahead1.ok && ahead2.ok);
  EXPECT_LT(unpipelined.tflops, ahead1.tflops);
  EXPECT_LT(ahead1.tflops, ahead2.tflops);
  EXPECT_EQ(unpipelined.bound, "latency");
  EXPECT_NE(ahead2.bound, "latency");
}

} // namespace
