//===- BoardModelTest.cpp - the board's rows, lines and tile order --------===//
#include "app/AppState.h"
#include "app/BoardModel.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

bool has(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

BoardModel modelOf(const AppState &app) { return buildBoardModel(app.editor(), app.tileLoop()); }

TEST(BoardModel, PingPongConsumersAreOneSubRowPerWarpGroup) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm_pingpong.mlir")));
  ASSERT_EQ(app.editor().consumers(), Consumers::PingPong);
  BoardModel m = modelOf(app);
  ASSERT_EQ(m.rows.size(), 3u); // the producer, consumer 0, consumer 1
  EXPECT_EQ(m.rows[0].group, 0);
  EXPECT_EQ(m.rows[0].consumer, -1);
  EXPECT_TRUE(has(m.rows[0].role, "producer")) << m.rows[0].role;
  for (int w = 0; w < 2; ++w) {
    const BoardRow &r = m.rows[1 + w];
    EXPECT_EQ(r.group, 1);
    EXPECT_EQ(r.consumer, w);
    EXPECT_EQ(r.consumers, 2);
    EXPECT_EQ(r.title, "consumer " + std::to_string(w));
    EXPECT_TRUE(has(r.tooltip, "Named-barrier turn order")) << r.tooltip;
    EXPECT_TRUE(has(r.tooltip, "setmaxnreg.inc")) << r.tooltip;
    EXPECT_FALSE(r.bad);
  }
  // What differs: the tiles each owns (program 0's, from the IR) and the turn.
  EXPECT_TRUE(has(m.rows[1].differs, "tiles #0, #2")) << m.rows[1].differs;
  EXPECT_TRUE(has(m.rows[1].differs, "t = 0 (0, 0)")) << m.rows[1].differs;
  EXPECT_TRUE(has(m.rows[2].differs, "tiles #1, #3")) << m.rows[2].differs;
  EXPECT_TRUE(has(m.rows[2].differs, "t = 132")) << m.rows[2].differs;
  EXPECT_TRUE(has(m.rows[1].tooltip, "it goes first")) << m.rows[1].tooltip;
  EXPECT_TRUE(has(m.rows[2].tooltip, "waits (bar.sync) until consumer 0")) << m.rows[2].tooltip;
  // The steady state per group and per consumer.
  ASSERT_EQ(m.steadyStates.size(), 3u);
  EXPECT_TRUE(has(m.steadyStates[0], "WG 0 (producer): loadA(")) << m.steadyStates[0];
  EXPECT_TRUE(has(m.steadyStates[1], "consumer 0 (WG 1): MMA(i)")) << m.steadyStates[1];
  EXPECT_TRUE(has(m.steadyStates[2], "consumer 1: same")) << m.steadyStates[2];
}

TEST(BoardModel, StaggeredConsumersShowTheirTurnAtTheDots) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(app.setConsumers(Consumers::Staggered).applied);
  BoardModel m = modelOf(app);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.rows[1].consumer, 0);
  EXPECT_EQ(m.rows[2].consumer, 1);
  EXPECT_TRUE(has(m.rows[1].differs, "turn 1 of 2 at the dots each iteration (MMA0 ... MMA1)"))
      << m.rows[1].differs;
  EXPECT_TRUE(has(m.rows[2].differs, "turn 2 of 2")) << m.rows[2].differs;
  EXPECT_TRUE(has(m.rows[2].differs, "after consumer 0's")) << m.rows[2].differs;
  ASSERT_EQ(m.steadyStates.size(), 3u);
  EXPECT_EQ(m.steadyStates[1],
            "consumer 0 (WG 1): " + groupSteadyState(app.editor(), 1));
  EXPECT_TRUE(has(m.steadyStates[1], "MMA0(")) << m.steadyStates[1];
  EXPECT_TRUE(has(m.steadyStates[2], "consumer 1: same, half an iteration later"))
      << m.steadyStates[2];
  // Not persistent: no tile loop line.
  EXPECT_EQ(m.tileLoopLine, "");
}

TEST(BoardModel, CooperativeConsumersKeepOneRow) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm.mlir")));
  ASSERT_EQ(app.editor().consumers(), Consumers::Cooperative);
  BoardModel m = modelOf(app);
  ASSERT_EQ(m.rows.size(), 2u);
  for (const BoardRow &r : m.rows) {
    EXPECT_EQ(r.consumer, -1);
    EXPECT_EQ(r.differs, "");
  }
  EXPECT_TRUE(has(m.rows[1].tooltip, "split every tile by rows")) << m.rows[1].tooltip;
  EXPECT_TRUE(has(m.rows[0].tooltip, "setmaxnreg.dec to 24")) << m.rows[0].tooltip;
  ASSERT_EQ(m.steadyStates.size(), 2u);
  EXPECT_EQ(m.steadyStates[1], "WG 1 (consumer): MMA(i)");
}

TEST(BoardModel, TileOrderOfAPersistentGemmIsRowMajor) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm.mlir")));
  const TileLoop &t = app.tileLoop();
  EXPECT_TRUE(t.persistent);
  EXPECT_TRUE(t.stridedByGrid);
  EXPECT_EQ(t.programs, 132);
  EXPECT_EQ(t.tiles, 64 * 32); // 8192 / 128 x 8192 / 256
  EXPECT_EQ(t.tileGrid, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(t.order, TileOrder::RowMajor);
  BoardModel m = modelOf(app);
  EXPECT_EQ(m.tileLoopLine, "persistent: a grid of 132 programs over 2048 tiles (64 x 32), "
                            "t = pid, pid + 132, ...; tile order row-major: tm = t / 32, "
                            "tn = t % 32");
  EXPECT_TRUE(has(m.tileLoopTooltip, "the tile-order control above sets it")) << m.tileLoopTooltip;
  EXPECT_TRUE(has(m.tileLoopTooltip, "t = 132 (4, 4)")) << m.tileLoopTooltip;
}

TEST(BoardModel, TileOrderOfTheGroupedGemmIsGroupedByEight) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm_grouped.mlir")));
  EXPECT_EQ(app.tileLoop().order, TileOrder::Grouped);
  EXPECT_EQ(app.tileLoop().groupSize, 8);
  EXPECT_TRUE(has(modelOf(app).tileLoopLine, "tile order grouped (8 tile rows)"))
      << modelOf(app).tileLoopLine;
}

TEST(BoardModel, ANonPersistentKernelHasNoTileLoop) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  EXPECT_FALSE(app.tileLoop().persistent);
  EXPECT_EQ(app.tileLoop().order, TileOrder::None);
  EXPECT_EQ(modelOf(app).tileLoopLine, "");
}

TEST(BoardModel, PersistentAttentionWalksQueryBlocksRowMajor) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_attention_fwd_d128.mlir")));
  EXPECT_EQ(app.tileLoop().order, TileOrder::RowMajor);
  EXPECT_EQ(app.tileLoop().tileGrid.size(), 2u); // (batch x heads, query blocks)
}

/// persistent_gemm.mlir with the tile coordinates computed otherwise.
std::string gemmWithOrder(const std::string &coords) {
  return replaced(test::readAsset("persistent_gemm.mlir"),
                  "      %tm = arith.divui %t, %tiles_n : index\n"
                  "      %tn = arith.remui %t, %tiles_n : index\n",
                  coords);
}

TEST(BoardModel, AColumnMajorOrderIsRecognized) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openText(gemmWithOrder("      %tm = arith.remui %t, %tiles_m : index\n"
                                         "      %tn = arith.divui %t, %tiles_m : index\n"),
                           "colmajor.mlir"));
  EXPECT_EQ(app.tileLoop().order, TileOrder::ColumnMajor);
  EXPECT_TRUE(has(modelOf(app).tileLoopLine, "column-major: tm = t % 64, tn = t / 64"))
      << modelOf(app).tileLoopLine;
}

TEST(BoardModel, AnOrderOfItsOwnIsCustomAsWritten) {
  // A skewed walk: tile column (t / tiles_m + t % tiles_m) % tiles_n.
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openText(gemmWithOrder("      %tm = arith.remui %t, %tiles_m : index\n"
                                         "      %q = arith.divui %t, %tiles_m : index\n"
                                         "      %s = arith.addi %q, %tm : index\n"
                                         "      %tn = arith.remui %s, %tiles_n : index\n"),
                           "skewed.mlir"));
  EXPECT_TRUE(app.tileLoop().persistent);
  EXPECT_EQ(app.tileLoop().order, TileOrder::Custom);
  EXPECT_TRUE(has(modelOf(app).tileLoopLine, "tile order custom (as written)"))
      << modelOf(app).tileLoopLine;
}

TEST(BoardModel, RefusedArrangementsSayWhy) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  std::string why = app.editor().explainConsumers(Consumers::PingPong);
  EXPECT_TRUE(has(why, "this kernel has none")) << why;
  MoveOutcome out = app.setConsumers(Consumers::PingPong);
  EXPECT_FALSE(out.applied);
  EXPECT_EQ(out.explanation, why);
  EXPECT_TRUE(has(app.status().text, "refused: " + why)) << app.status().text;
  EXPECT_EQ(app.editor().explainConsumers(Consumers::Cooperative), "");
}

TEST(BoardModel, ARegisterBudgetOverrunIsOnTheConsumersRow) {
  // 128x256 f32 accumulators do not fit one warp group's registers: the
  // grouped GEMM with ping-pong consumers (as written) is illegal.
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openText(replaced(test::readAsset("persistent_gemm_grouped.mlir"),
                                    "tile.warpgroups = array<i64: 1, 2>}",
                                    "tile.warpgroups = array<i64: 1, 2>, "
                                    "tile.consumers = \"pingpong\"}"),
                           "grouped_pingpong.mlir"));
  ASSERT_EQ(app.editor().consumers(), Consumers::PingPong);
  BoardModel m = modelOf(app);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_FALSE(m.rows[0].bad);
  EXPECT_TRUE(m.rows[1].bad);
  EXPECT_TRUE(has(m.rows[1].tooltip, "Illegal (registers): warp group 1 needs about"))
      << m.rows[1].tooltip;
  EXPECT_TRUE(has(m.rows[1].tooltip, "each consumer warp group holds a whole tile"))
      << m.rows[1].tooltip;
  // And from cooperative, the control refuses ping-pong with every reason:
  // each consumer's own epilogue staging overflows shared memory, and a
  // whole 128x256 accumulator per warp group its registers.
  ASSERT_TRUE(app.setConsumers(Consumers::Cooperative).applied);
  std::string why = app.editor().explainConsumers(Consumers::PingPong);
  EXPECT_TRUE(has(why, "more than the 227 KiB a block can have")) << why;
  EXPECT_TRUE(has(why, "Also: warp group 1 needs about")) << why;
  MoveOutcome out = app.setConsumers(Consumers::PingPong);
  EXPECT_FALSE(out.applied);
  EXPECT_EQ(app.status().text, "refused: " + why);
}

} // namespace

namespace {

TEST(BoardModel, TheRegisterBudgetNoteSaysWhetherItWasChosenAndWhy) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  BoardModel m = modelOf(app);
  ASSERT_EQ(m.rows.size(), 2u);
  EXPECT_TRUE(has(m.rows[1].tooltip,
                  "budget 240. setmaxnreg.inc to 240, the default share: the block's 64512 "
                  "registers (384 threads x 168) minus 3072 for 128 producer threads x 24, over "
                  "256 threads, rounded down to a multiple of 8 (at most 248)."))
      << m.rows[1].tooltip;
  EXPECT_TRUE(has(m.rows[1].tooltip, "Every warp starts with 168 registers per thread (65536 / "
                                     "384 threads, rounded down to 8)"))
      << m.rows[1].tooltip;
  EXPECT_TRUE(has(m.rows[1].tooltip, "Right-click the row's label to choose the budget."));
  // Chosen budgets.
  ASSERT_TRUE(app.setRegisters(0, 40).changed);
  ASSERT_TRUE(app.setRegisters(1, 232).changed);
  m = modelOf(app);
  EXPECT_TRUE(has(m.rows[0].tooltip, "budget 40 (chosen). setmaxnreg.dec to 40, chosen for this "
                                     "group (the schedule's \"registers\"); 0 gives the default "
                                     "back."))
      << m.rows[0].tooltip;
  EXPECT_TRUE(has(m.rows[1].tooltip, "Registers: about 160 per thread at the peak, around MMA, "
                                     "budget 232 (chosen). setmaxnreg.inc to 232, chosen"))
      << m.rows[1].tooltip;
  EXPECT_FALSE(m.rows[0].bad);
  EXPECT_FALSE(m.rows[1].bad);
  // Illegal: both rows red, the reason in both tooltips.
  ASSERT_TRUE(app.setRegisters(1, 248).changed);
  m = modelOf(app);
  for (const BoardRow &r : m.rows) {
    EXPECT_TRUE(r.bad) << r.title;
    EXPECT_TRUE(has(r.tooltip, "Illegal (registers): the register budgets need 68608 registers"))
        << r.tooltip;
  }
  // The consumers below the launch cap: every warp starts at their count.
  ASSERT_TRUE(app.setRegisters(1, 160).changed);
  m = modelOf(app);
  EXPECT_FALSE(m.rows[1].bad) << m.rows[1].tooltip;
  EXPECT_TRUE(has(m.rows[1].tooltip, "Every warp starts with 160 registers per thread (the "
                                     "largest setmaxnreg.inc count)"))
      << m.rows[1].tooltip;
}

} // namespace
