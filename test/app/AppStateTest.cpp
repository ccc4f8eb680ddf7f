//===- AppStateTest.cpp - the session's commands, without a window --------===//
#include "app/AppState.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sys/stat.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

bool compiled(AppState &app) {
  return test::pollUntil(app, [&] {
    return app.compileView().state != CompileView::State::Compiling;
  });
}

TEST(AppState, OpensTheExampleAndCompilesInTheBackground) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  EXPECT_EQ(app.kernel(), "attn_fwd_d128");
  EXPECT_EQ(app.editor().graph().units.size(), 6u);
  EXPECT_EQ(app.compileView().state, CompileView::State::Compiling);
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  // The compiled variant is listed, not run (no runner).
  ASSERT_EQ(app.currentRuns().size(), 1u);
  EXPECT_EQ(app.currentRuns()[0]->state, RunState::NotRun);
  EXPECT_EQ(app.currentRuns()[0]->steadyState, app.editor().report().steadyState);
}

TEST(AppState, AFileThatDoesNotParseKeepsItsTextForTheIrPanel) {
  // The IR panel shows the rejected text with its error lines (IrPanel.cpp)
  // until a file opens.
  AppState app(test::testConfig());
  std::string bad = "func.func @k(%A: index) {\n  %x = arith.addi %A\n}\n";
  EXPECT_FALSE(app.openText(bad, "bad.mlir"));
  EXPECT_FALSE(app.hasIr());
  EXPECT_EQ(app.rejectedText(), bad);
  ASSERT_FALSE(app.loadDiagnostics().empty());
  EXPECT_NE(app.loadDiagnostics().front().find("bad.mlir:"), std::string::npos)
      << app.loadDiagnostics().front();
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  EXPECT_EQ(app.rejectedText(), "");
}

TEST(AppState, AFileWithSeveralKernelsSaysWhichItShows) {
  std::ifstream in(STAGECRAFT_TEST_INPUTS_DIR "/unseen/two-kernels.mlir");
  std::string ir((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(ir.empty());
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openText(ir, "two.mlir"));
  EXPECT_EQ(app.kernel(), "g05_softplus_log1p");
  EXPECT_NE(app.status().text.find("the first of 2 (not shown: second;"), std::string::npos)
      << app.status().text;
}

TEST(AppState, AnAutomaticRunWithoutARunnerLeavesTheStatusLineToTheUser) {
  // Auto-run is on and there is no runner: each compile's variant says why
  // it was not run, but the status line keeps what the user last did (a
  // refused move here) instead of a warning after every compile; asking
  // for the run says it there.
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  MoveOutcome refused = app.moveUnit("loadK", MoveTarget{1, 0, ""});
  ASSERT_FALSE(refused.applied);
  std::string said = app.status().text;
  ASSERT_NE(said.find("refused"), std::string::npos) << said;
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.currentRuns().size(), 1u);
  const RunRecord *run = app.currentRuns()[0];
  EXPECT_EQ(run->state, RunState::NotRun);
  EXPECT_NE(run->error.find("no runner command"), std::string::npos) << run->error;
  EXPECT_EQ(app.status().text, said);
  EXPECT_FALSE(app.runVariant(run->id));
  EXPECT_NE(app.status().text.find("not run: runner unavailable"), std::string::npos)
      << app.status().text;
}

TEST(AppState, AnOpTheLoweringRefusesIsShownOnItsCard) {
  // An element read of a tile the loop makes is refused by the lowering; the
  // refusal is the card's, one sentence, no IR dump.
  std::ifstream in(STAGECRAFT_TEST_INPUTS_DIR "/refused-op.mlir");
  std::string ir((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(ir.empty());
  AppConfig config = test::testConfig();
  config.backend = CompileBackend::driver(); // the real lowering refuses it
  AppState app(config);
  ASSERT_TRUE(app.openText(ir, "colsum.mlir"));
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.compileView().state, CompileView::State::Error);
  // The element read follows its user (a splat of it: splat_0's card).
  std::string err = app.compileErrorOf("splat_0");
  EXPECT_NE(err.find("tensor.extract in the pipelined loop must read a tile loaded once"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("see current operation"), std::string::npos) << err;
  EXPECT_EQ(app.compileErrorOf("load_0"), "");
  EXPECT_NE(app.compileView().firstError().find("colsum.mlir:15:10: error: tile-lower-to-nvvm: "), std::string::npos)
      << app.compileView().firstError();
}

TEST(AppState, MoveRecompilesAndUndoRestores) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  Schedule original = app.editor().schedule();
  MoveOutcome out = app.moveUnit("loadK", {-1, 0, ""});
  ASSERT_TRUE(out.applied) << out.explanation;
  EXPECT_EQ(app.compileView().state, CompileView::State::Compiling);
  ASSERT_TRUE(compiled(app));
  const CompileResult *r = app.compileView().result();
  ASSERT_NE(r, nullptr);
  // The compile saw the board's schedule.
  EXPECT_EQ(r->steadyState, "MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+2) loadV(i+1)");
  EXPECT_TRUE(app.undo());
  EXPECT_EQ(app.editor().schedule(), original);
  EXPECT_TRUE(app.redo());
  EXPECT_NE(app.editor().schedule(), original);
}

TEST(AppState, IllegalMoveIsRefusedAndExplainedInTheStatusLine) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(compiled(app));
  Schedule before = app.editor().schedule();
  uint64_t job = app.compileView().job;
  MoveOutcome out = app.moveUnit("loadK", {1, 0, ""});
  EXPECT_FALSE(out.applied);
  EXPECT_EQ(app.editor().schedule(), before);
  EXPECT_EQ(app.status().level, StatusLevel::Error);
  EXPECT_NE(app.status().text.find("loadK cannot move to stage 1"), std::string::npos)
      << app.status().text;
  EXPECT_EQ(app.compileView().job, job) << "a refused move must not recompile";
}

TEST(AppState, OnlyTheNewestEditsCompileIsShown) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  // Three edits in one frame: each supersedes the one before.
  ASSERT_TRUE(app.moveUnit("loadK", {-1, 0, ""}).applied);
  ASSERT_TRUE(app.moveUnit("loadV", {0, 0, "loadK"}).applied);
  ASSERT_TRUE(app.undo());
  std::string expected = app.editor().report().steadyState;
  ASSERT_TRUE(compiled(app));
  ASSERT_NE(app.compileView().result(), nullptr);
  EXPECT_EQ(app.compileView().result()->steadyState, expected);
  EXPECT_GE(app.compilesSuperseded(), 1u);
}

TEST(AppState, BadFileIsReportedAndTheSessionKept) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  std::string bad = test::tempDir("bad") + "/bad.mlir";
  std::ofstream(bad) << "module { this is not IR";
  EXPECT_FALSE(app.openFile(bad));
  EXPECT_EQ(app.status().level, StatusLevel::Error);
  EXPECT_NE(app.status().text.find("bad.mlir"), std::string::npos);
  EXPECT_TRUE(app.hasIr());
  EXPECT_EQ(app.kernel(), "attn_fwd_d128");
  EXPECT_FALSE(app.openFile("/nonexistent/file.mlir"));
}

TEST(AppState, SaveAndLoadSchedule) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  Schedule original = app.editor().schedule();
  ASSERT_TRUE(app.moveUnit("loadK", {-1, 0, ""}).applied);
  Schedule moved = app.editor().schedule();
  std::string path = test::tempDir("sched") + "/s.json";
  ASSERT_TRUE(app.saveSchedule(path));
  ASSERT_TRUE(app.undo());
  ASSERT_EQ(app.editor().schedule(), original);
  ASSERT_TRUE(app.loadSchedule(path));
  EXPECT_EQ(app.editor().schedule(), moved);
  // A bundled schedule file loads (it is illegal: shown, not refused).
  ASSERT_TRUE(app.loadSchedule(test::assetPath("schedules/attention_illegal_loadK_late.json")));
  EXPECT_FALSE(app.editor().report().legal());
  EXPECT_EQ(app.status().level, StatusLevel::Warning);
}

TEST(AppState, SaveIrWritesTheScheduleIntoTheFile) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(app.moveUnit("loadK", {-1, 0, ""}).applied);
  std::string path = test::tempDir("saveir") + "/a.mlir";
  ASSERT_TRUE(app.saveIr(path));
  AppState other(test::testConfig());
  ASSERT_TRUE(other.openFile(path));
  EXPECT_EQ(other.editor().report().steadyState, app.editor().report().steadyState);
}

TEST(AppState, RestoringARunRestoresItsSchedule) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(compiled(app));
  Schedule first = app.editor().schedule();
  uint64_t firstRun = app.currentRuns().at(0)->id;
  ASSERT_TRUE(app.moveUnit("loadK", {-1, 0, ""}).applied);
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.currentRuns().size(), 2u);
  ASSERT_TRUE(app.restoreRun(firstRun));
  EXPECT_EQ(app.editor().schedule(), first);
  EXPECT_EQ(app.selectedRun(), firstRun);
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.currentRuns().size(), 2u) << "the same schedule is the same variant";
}

TileOrderChoice grouped(int64_t g) {
  TileOrderChoice c;
  c.order = TileOrder::Grouped;
  c.groupSize = g;
  return c;
}

/// The line (1-based) of the first occurrence of `needle` in `text`.
int lineOf(const std::string &text, const std::string &needle) {
  size_t at = text.find(needle);
  return at == std::string::npos ? -1 : 1 + std::count(text.begin(), text.begin() + at, '\n');
}

TEST(AppState, ChoosingATileOrderRewritesTheIrAndUndoRestoresItByteForByte) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm.mlir")));
  ASSERT_TRUE(compiled(app));
  const std::string original = app.irText();
  ASSERT_EQ(app.tileLoop().order, TileOrder::RowMajor);
  EXPECT_EQ(app.tileOrderRefusal(TileOrder::Grouped), "");
  Schedule schedule = app.editor().schedule();

  ASSERT_TRUE(app.setTileOrder(grouped(8))) << app.status().text;
  const std::string grouped8 = app.irText();
  EXPECT_NE(grouped8, original);
  // The IR now walks the tiles in groups of 8 tile rows, as TileLoop reads
  // it; the file's comments and the rest of its text are kept.
  EXPECT_EQ(app.tileLoop().order, TileOrder::Grouped);
  EXPECT_EQ(app.tileLoop().groupSize, 8);
  EXPECT_EQ(app.tileOrderSpec(), "grouped:8");
  EXPECT_NE(grouped8.find("    %in_group = arith.muli %c8, %tiles_n : index\n"
                          "    scf.for %t = %pid to %tiles step %nprog {\n"
                          "      %group = arith.divui %t, %in_group : index\n"),
            std::string::npos)
      << grouped8;
  EXPECT_EQ(grouped8.substr(0, grouped8.find("module {")),
            original.substr(0, original.find("module {")));
  EXPECT_NE(app.status().text.find("tile order grouped (8 tile rows)"), std::string::npos)
      << app.status().text;
  // The schedule is untouched; the loop graph's locations follow the text.
  EXPECT_EQ(app.editor().schedule(), schedule);
  const LoopGraph &g = app.editor().graph();
  int loadA = g.findUnit("loadA");
  ASSERT_GE(loadA, 0);
  EXPECT_NE(g.ops[g.units[loadA].ops[0]].location.find(
                ":" + std::to_string(lineOf(grouped8, "tile.load %A")) + ":"),
            std::string::npos)
      << g.ops[g.units[loadA].ops[0]].location;
  // It recompiles the rewritten IR, a variant of its own.
  EXPECT_EQ(app.compileView().state, CompileView::State::Compiling);
  ASSERT_TRUE(compiled(app));
  const CompileResult *r = app.compileView().result();
  ASSERT_NE(r, nullptr);
  ASSERT_FALSE(r->passes.empty());
  EXPECT_NE(r->passes[0].ir.find("arith.minui"), std::string::npos);
  ASSERT_EQ(app.currentRuns().size(), 2u);
  EXPECT_EQ(app.currentRuns()[0]->tileOrder, "row-major");
  EXPECT_EQ(app.currentRuns()[1]->tileOrder, "grouped:8");

  // G: another group size is another rewrite.
  ASSERT_TRUE(app.setTileOrder(grouped(4)));
  EXPECT_EQ(app.tileLoop().groupSize, 4);
  EXPECT_NE(app.irText().find("%c4 = arith.constant 4 : index"), std::string::npos);
  EXPECT_EQ(app.irText().find("arith.constant 8 "), std::string::npos) << app.irText();

  // A schedule edit on top, then undo all the way: each step restores its
  // text byte for byte.
  ASSERT_TRUE(app.moveUnit("MMA", {1, 1, ""}).applied);
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(app.tileLoop().groupSize, 4);
  EXPECT_EQ(app.editor().schedule(), schedule);
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(app.irText(), grouped8);
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(app.irText(), original);
  EXPECT_EQ(app.tileLoop().order, TileOrder::RowMajor);
  EXPECT_NE(app.editor().graph().ops[g.units[loadA].ops[0]].location.find(
                ":" + std::to_string(lineOf(original, "tile.load %A")) + ":"),
            std::string::npos);
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.currentRuns().size(), 2u) << "row-major again is the first variant";
  ASSERT_TRUE(app.redo());
  EXPECT_EQ(app.irText(), grouped8);
  EXPECT_EQ(app.tileLoop().groupSize, 8);
}

TEST(AppState, RestoringARunRestoresItsTileOrder) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm_grouped.mlir")));
  ASSERT_TRUE(compiled(app));
  uint64_t groupedRun = app.currentRuns().at(0)->id;
  TileOrderChoice col;
  col.order = TileOrder::ColumnMajor;
  ASSERT_TRUE(app.setTileOrder(col));
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.tileLoop().order, TileOrder::ColumnMajor);
  ASSERT_TRUE(app.restoreRun(groupedRun));
  EXPECT_EQ(app.tileLoop().order, TileOrder::Grouped);
  EXPECT_EQ(app.tileLoop().groupSize, 8);
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.currentRuns().size(), 2u) << "grouped 8 again is the first variant";
  // Saved with the session.
  SessionFile s = app.sessionFile();
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_EQ(s.runs[1].tileOrder, "column-major");
  EXPECT_NE(s.irText.find("arith.minui"), std::string::npos);
}

TEST(AppState, AKernelWithoutATileLoopHasNoTileOrderToSet) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  std::string before = app.irText();
  EXPECT_FALSE(app.setTileOrder(grouped(8)));
  EXPECT_NE(app.status().text.find("gemm is not a persistent kernel"), std::string::npos)
      << app.status().text;
  EXPECT_EQ(app.irText(), before);
  EXPECT_FALSE(app.editor().canUndo());
}

TEST(AppState, ATileLoopThatCannotTakeAnOrderIsRefusedBeforehand) {
  // Only the tile rows vary in the store: one tile dimension.
  std::string ir = test::readAsset("persistent_gemm.mlir");
  ir.replace(ir.find("tile.store %C[%m0, %n0]"), 23, "tile.store %C[%m0, %c0]");
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openText(ir, "one-dim.mlir"));
  ASSERT_TRUE(app.tileLoop().persistent);
  EXPECT_NE(app.tileOrderRefusal(TileOrder::ColumnMajor).find("one-dim.mlir:45:7: error: the "
                                                             "tile loop walks one dimension"),
            std::string::npos)
      << app.tileOrderRefusal(TileOrder::ColumnMajor);
  EXPECT_FALSE(app.setTileOrder(grouped(2)));
  EXPECT_NE(app.status().text.find("refused: the tile order cannot be set to grouped:2"),
            std::string::npos)
      << app.status().text;
  EXPECT_EQ(app.irText(), ir);
}

TEST(AppState, CompiledVariantsGoToTheRunner) {
  std::string dir = test::tempDir("apprunner");
  std::string runner = dir + "/runner.sh";
  std::ofstream(runner) << R"(#!/bin/sh
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  echo "{\"id\":$id,\"status\":\"ok\",\"verified\":true,\"tflops\":420.0,\"reference_tflops\":600.0,\"ratio_to_reference\":0.7,\"device\":{\"name\":\"Fake H100\"}}"
done
)";
  chmod(runner.c_str(), 0755);
  AppState app(test::testConfig(runner));
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(test::pollUntil(app, [&] {
    auto runs = app.currentRuns();
    return !runs.empty() && runs[0]->state == RunState::Done;
  }));
  const RunRecord *r = app.currentRuns()[0];
  EXPECT_EQ(r->status, "ok");
  EXPECT_TRUE(r->verified);
  EXPECT_DOUBLE_EQ(*r->tflops, 420.0);
  EXPECT_EQ(r->device, "Fake H100");
  EXPECT_EQ(r->resultText(), "verified, 420.0 TFLOP/s");
}

TEST(AppState, Sm100aIsCompileOnly) {
  // The target control: sm_100a compiles (the real lowering, tcgen05) but
  // never goes to the runner; the variant says why; sm_90a runs again.
  std::string dir = test::tempDir("apptarget");
  std::string runner = dir + "/runner.sh";
  std::ofstream(runner) << R"(#!/bin/sh
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  echo "{\"id\":$id,\"status\":\"ok\",\"verified\":true,\"tflops\":420.0,\"device\":{\"name\":\"Fake H100\"}}"
done
)";
  chmod(runner.c_str(), 0755);
  AppConfig config = test::testConfig(runner);
  config.backend = CompileBackend::driver();
  AppState app(config);
  ASSERT_TRUE(app.openFile(test::assetPath("fp8_gemm.mlir")));
  app.setTarget("sm_100a");
  EXPECT_TRUE(app.compileOnly());
  EXPECT_NE(app.status().text.find("compile-only"), std::string::npos) << app.status().text;
  ASSERT_TRUE(test::pollUntil(app, [&] {
    for (const RunRecord *r : app.currentRuns())
      if (r->target == "sm_100a" && r->state != RunState::Queued)
        return app.compileView().state != CompileView::State::Compiling;
    return false;
  }, 120));
  const RunRecord *bw = nullptr;
  for (const RunRecord *r : app.currentRuns())
    if (r->target == "sm_100a")
      bw = r;
  ASSERT_NE(bw, nullptr);
  EXPECT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  EXPECT_EQ(bw->state, RunState::Compiled);
  EXPECT_EQ(bw->resultText(), "compiled for sm_100a (compile-only)");
  EXPECT_FALSE(app.runVariant(bw->id));
  EXPECT_NE(app.status().text.find("compile-only, there is no runner"), std::string::npos);
  std::ifstream ptx(bw->bundleDir + "/kernel.ptx");
  std::string text((std::istreambuf_iterator<char>(ptx)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("tcgen05.mma.cta_group::1.kind::f8f6f4"), std::string::npos);
  // The target is part of the session.
  EXPECT_EQ(app.sessionFile().target, "sm_100a");
  app.setTarget("sm_90a");
  ASSERT_TRUE(test::pollUntil(app, [&] {
    for (const RunRecord *r : app.currentRuns())
      if (r->target == "sm_90a" && r->state == RunState::Done)
        return true;
    return false;
  }, 120));
}

TEST(AppState, ExportsTheCurrentVariantWithItsMeasurement) {
  std::string dir = test::tempDir("appexport");
  std::string runner = dir + "/runner.sh";
  std::ofstream(runner) << R"(#!/bin/sh
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  echo "{\"id\":$id,\"status\":\"ok\",\"verified\":true,\"tflops\":420.0,\"median_us\":2617.5,\"device\":{\"name\":\"Fake H100\"}}"
done
)";
  chmod(runner.c_str(), 0755);
  AppConfig config = test::testConfig(runner);
  config.backend = CompileBackend::driver(); // a real bundle: signature.json, kernel.cubin
  AppState app(config);
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  EXPECT_FALSE(app.exportKernel(dir + "/early"));
  EXPECT_NE(app.status().text.find("still compiling"), std::string::npos) << app.status().text;
  ASSERT_TRUE(test::pollUntil(app, [&] {
    auto runs = app.currentRuns();
    return !runs.empty() && runs[0]->state == RunState::Done;
  }, 120));
  ASSERT_TRUE(app.exportKernel(dir + "/gemm_pkg")) << app.status().text;
  EXPECT_NE(app.status().text.find("exported variant #1"), std::string::npos);
  for (const char *f : {"__init__.py", "_runtime.py", "gemm_pkg.h", "gemm_pkg_cubin.h",
                        "example.cpp", "kernel.cubin", "signature.json"})
    EXPECT_TRUE(std::ifstream(dir + "/gemm_pkg/" + f).good()) << f;
  std::ifstream in(dir + "/gemm_pkg/README.md");
  std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(readme.find("420.0 TFLOP/s (2617.5 us median) on Fake H100"), std::string::npos)
      << readme;
  EXPECT_NE(readme.find(app.editor().report().steadyState), std::string::npos);
  EXPECT_FALSE(app.exportKernel(dir + "/gemm-pkg"));
  EXPECT_NE(app.status().text.find("must be an identifier"), std::string::npos)
      << app.status().text;
  // A schedule that never compiled has nothing to export.
  ASSERT_TRUE(app.moveUnit("loadA", {-1, 0, ""}).applied);
  EXPECT_FALSE(app.exportKernel(dir + "/moved"));
}

} // namespace

TEST(AppState, AKernelWithoutAModuleAroundItCompilesAndNoPhaseShowsAFailure) {
  // MLIR lets a file hold bare func.funcs (the parser wraps them in a
  // module); the app compiles such a file as the command line does. With
  // the real driver, each phase of a full compile (schedule checked, PTX,
  // all) arrives in turn; none of a successful compile may show as failed
  // (the schedule-checked phase once carried the result's default status,
  // Error, and the compile view flashed "schedule check failed").
  std::ifstream in(test::assetPath("gemm.mlir"));
  std::string ir((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t open = ir.find("module {");
  ASSERT_NE(open, std::string::npos);
  ir.erase(open, std::string("module {").size());
  size_t close = ir.rfind('}');
  ASSERT_NE(close, std::string::npos);
  ir.erase(close, 1);
  AppConfig config = test::testConfig();
  config.backend = CompileBackend::driver();
  AppState app(config);
  ASSERT_TRUE(app.openText(ir, "bare.mlir"));
  bool sawError = false;
  ASSERT_TRUE(test::pollUntil(app, [&] {
    sawError |= app.compileView().state == CompileView::State::Error;
    return app.compileView().hasFull;
  }));
  EXPECT_FALSE(sawError);
  EXPECT_TRUE(app.compileView().hasChecked);
  EXPECT_EQ(app.compileView().checked.status, CompileResult::Status::Ok);
  EXPECT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  EXPECT_EQ(app.compileView().full.kernel, "gemm");
}

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(AppState, ARegisterBudgetIsAScheduleEditThatCompilesAutosavesAndUndoes) {
  std::string dir = test::tempDir("budget");
  AppState app(test::testConfig("", dir + "/autosave.json"));
  ASSERT_TRUE(app.openFile(test::assetPath("gemm.mlir")));
  ASSERT_TRUE(compiled(app));
  std::string original = app.editor().schedule().toJson();
  MoveOutcome out = app.setRegisters(1, 232);
  ASSERT_TRUE(out.applied);
  ASSERT_TRUE(out.changed);
  EXPECT_EQ(app.status().level, StatusLevel::Ok);
  EXPECT_EQ(app.status().text, "warp group 1's register budget is now 232 (setmaxnreg)");
  // The background compile gets it.
  EXPECT_EQ(app.compileView().state, CompileView::State::Compiling);
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  const CompileResult *r = app.compileView().result();
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->scheduleJson.find("\"registers\": [0, 232],"), std::string::npos)
      << r->scheduleJson;
  EXPECT_NE(r->scheduleSummary.find("(budget 232, chosen)"), std::string::npos)
      << r->scheduleSummary;
  // The autosave has it.
  ASSERT_EQ(app.autosaveNow(), "");
  EXPECT_NE(readFile(dir + "/autosave.json").find("registers"), std::string::npos);
  // The saved schedule and the saved IR carry it.
  ASSERT_TRUE(app.saveSchedule(dir + "/s.json"));
  EXPECT_NE(readFile(dir + "/s.json").find("\"registers\": [0, 232],"), std::string::npos);
  ASSERT_TRUE(app.saveIr(dir + "/g.mlir"));
  EXPECT_NE(readFile(dir + "/g.mlir").find("tile.registers = array<i64: 0, 232>"),
            std::string::npos);
  {
    AppState other(test::testConfig());
    ASSERT_TRUE(other.openFile(dir + "/g.mlir"));
    EXPECT_EQ(other.editor().registerBudget(1), 232);
  }
  // An illegal budget is applied, shown, and not compiled.
  out = app.setRegisters(1, 248);
  ASSERT_TRUE(out.applied);
  EXPECT_FALSE(app.editor().report().legal());
  EXPECT_EQ(app.status().level, StatusLevel::Error);
  EXPECT_NE(app.status().text.find("which is illegal: the register budgets need 66560 registers"),
            std::string::npos)
      << app.status().text;
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.compileView().state, CompileView::State::Error);
  // Undo: 232, then the file's own schedule.
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(app.editor().registerBudget(1), 232);
  EXPECT_TRUE(app.editor().report().legal());
  ASSERT_TRUE(app.undo());
  EXPECT_EQ(app.editor().schedule().toJson(), original);
  ASSERT_TRUE(compiled(app));
  EXPECT_EQ(app.compileView().state, CompileView::State::Ok);
  // Loading the saved schedule brings the budget back.
  ASSERT_TRUE(app.loadSchedule(dir + "/s.json"));
  EXPECT_EQ(app.editor().registerBudget(1), 232);
}

TEST(AppState, ConsumersThereAndBackKeepTheScheduleText) {
  // Staggered and back to cooperative on a kernel without tile.consumers:
  // the same schedule text (runs and lessons are matched by it; an explicit
  // "cooperative" made it a new variant: the review of the day's change).
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  std::string before = app.editor().schedule().toJson();
  ASSERT_TRUE(app.setConsumers(Consumers::Staggered).changed);
  ASSERT_TRUE(app.setConsumers(Consumers::Cooperative).changed);
  EXPECT_EQ(app.editor().schedule().toJson(), before);
}

TEST(AppState, TheConsumersChoiceReachesTheCompile) {
  // A kernel that says ping-pong, switched to cooperative on the board: the
  // schedule says "cooperative" (a bundle's schedule.json read it back as
  // the kernel's ping-pong when cooperative was not written).
  const std::string consumers = "\"consumers\": \"pingpong\"";
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm_pingpong.mlir")));
  ASSERT_TRUE(compiled(app));
  ASSERT_NE(app.compileView().result()->scheduleJson.find(consumers), std::string::npos);
  ASSERT_TRUE(app.setConsumers(Consumers::Cooperative).changed);
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  EXPECT_NE(app.compileView().result()->scheduleJson.find("\"consumers\": \"cooperative\""),
            std::string::npos)
      << app.compileView().result()->scheduleJson;
  // And the other way round: the same kernel without tile.consumers.
  std::string ir = test::readAsset("persistent_gemm_pingpong.mlir");
  size_t at = ir.find(",\n                  tile.consumers = \"pingpong\"");
  ASSERT_NE(at, std::string::npos);
  ir.erase(at, std::string(",\n                  tile.consumers = \"pingpong\"").size());
  AppState coop(test::testConfig());
  ASSERT_TRUE(coop.openText(ir, "coop.mlir"));
  ASSERT_EQ(coop.editor().consumers(), Consumers::Cooperative);
  ASSERT_TRUE(coop.setConsumers(Consumers::PingPong).changed);
  ASSERT_TRUE(compiled(coop));
  EXPECT_NE(coop.compileView().result()->scheduleJson.find(consumers), std::string::npos)
      << coop.compileView().result()->scheduleJson;
}

TEST(AppState, TheConsumersChoiceChangesThePredictedTimelineBeforeAnyRun) {
  // Ping-pong: each consumer warp group computes tiles of its own (no
  // iteration in both rows), team 1's first tile after team 0's; switched
  // to cooperative on the board, both split every tile (the same
  // iterations in both rows), predicted before any compile finishes.
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm_pingpong.mlir")));
  auto iterationsOf = [&](const std::string &row) {
    std::set<int32_t> its;
    const timeline::Timeline &t = app.prediction().timeline;
    for (const timeline::Zone &z : t.zones)
      if (t.rows[z.row].name == row && z.unit < t.units.size() &&
          t.units[z.unit].kind != timeline::ZoneKind::Epilogue)
        its.insert(z.iteration);
    return its;
  };
  ASSERT_TRUE(app.prediction().ok) << app.prediction().error;
  std::set<int32_t> team0 = iterationsOf("consumer 0"), team1 = iterationsOf("consumer 1");
  ASSERT_FALSE(team0.empty());
  ASSERT_FALSE(team1.empty());
  for (int32_t i : team1)
    EXPECT_EQ(team0.count(i), 0u) << "iteration " << i << " in both teams";
  EXPECT_LT(*team0.begin(), *team1.begin());

  uint64_t before = app.predictionVersion();
  ASSERT_TRUE(app.setConsumers(Consumers::Cooperative).changed);
  EXPECT_GT(app.predictionVersion(), before);
  ASSERT_TRUE(app.prediction().ok) << app.prediction().error;
  EXPECT_EQ(iterationsOf("consumer 0"), iterationsOf("consumer 1"));
  EXPECT_FALSE(iterationsOf("consumer 0").empty());
}

} // namespace

namespace {

TEST(AppState, TheClusterChoiceReachesTheCompileAndSurvivesADrag) {
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openFile(test::assetPath("persistent_gemm_cluster.mlir")));
  ASSERT_TRUE(app.setCluster(4).changed);
  // Said at once (a compile finishing later says its own).
  EXPECT_NE(app.status().text.find("clusters of 4 CTAs now share loadB (loaded once per cluster, "
                                   "multicast)"),
            std::string::npos)
      << app.status().text;
  // A drag keeps the kernel-wide choice.
  ASSERT_TRUE(app.moveUnit("loadB", MoveTarget{1, 0, ""}).applied);
  EXPECT_EQ(app.editor().cluster(), 4);
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  EXPECT_NE(app.compileView().result()->scheduleJson.find("\"cluster\": 4"), std::string::npos)
      << app.compileView().result()->scheduleJson;
  // Back to no cluster over the kernel's tile.cluster = 2: the compile is told so (a schedule
  // file leaves 1 unwritten), and checks the kernel without sharing.
  ASSERT_TRUE(app.setCluster(1).changed);
  ASSERT_TRUE(compiled(app));
  ASSERT_EQ(app.compileView().state, CompileView::State::Ok) << app.compileView().firstError();
  EXPECT_EQ(app.compileView().result()->scheduleJson.find("\"cluster\""), std::string::npos);
  EXPECT_EQ(app.compileView().result()->scheduleSummary.find("cluster:"), std::string::npos)
      << app.compileView().result()->scheduleSummary;
}

TEST(AppState, AClusterThatCannotShareIsRefusedWithTheReason) {
  // The pipelined loop's trip count depends on the CTA's rank: loadB could not be shared.
  std::string ir = test::readAsset("persistent_gemm_cluster.mlir");
  std::string from = "%acc = scf.for %k = %c0 to %K step %c64";
  size_t at = ir.find(from);
  ASSERT_NE(at, std::string::npos);
  ir.replace(at, from.size(),
             "%kend = arith.subi %K, %rank : index\n      %acc = scf.for %k = %c0 to %kend step %c64");
  ir.replace(ir.find("tile.cluster = 2,"), std::string("tile.cluster = 2,").size(), "");
  AppState app(test::testConfig());
  ASSERT_TRUE(app.openText(ir, "kend.mlir"));
  EXPECT_EQ(app.editor().cluster(), 1);
  MoveOutcome out = app.setCluster(2);
  EXPECT_FALSE(out.applied);
  EXPECT_NE(out.explanation.find("the pipelined loop's upper bound differs between them"),
            std::string::npos)
      << out.explanation;
  EXPECT_EQ(app.editor().cluster(), 1);
  EXPECT_EQ(app.status().level, StatusLevel::Error);
}

} // namespace
