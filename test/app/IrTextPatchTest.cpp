//===- IrTextPatchTest.cpp - saving a schedule into IR text ---------------===//
#include "app/IrTextPatch.h"
#include "app/SessionLoader.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::app;

TEST(IrTextPatch, RewritesAttributesKeepingComments) {
  std::string text = test::readAsset("attention_fwd_d128.mlir");
  LoadedIr ir = loadLoopIr(text, "a.mlir");
  ASSERT_TRUE(ir.ok);
  Schedule s = ir.graph.initialSchedule;
  OpSchedule k = *s.find("loadK");
  k.stage = 5;
  s.set("loadK", k);
  std::string out;
  ASSERT_TRUE(patchSchedAttrs(text, s, out));
  EXPECT_NE(out.find("#tile.sched<\"loadK\", stage = 5, order = 4, group = 0>"), std::string::npos);
  EXPECT_NE(out.find("// Attention forward pass"), std::string::npos);
  // Reading it back gives the new schedule.
  LoadedIr back = loadLoopIr(out, "b.mlir");
  ASSERT_TRUE(back.ok);
  EXPECT_EQ(back.graph.initialSchedule.find("loadK")->stage, 5);
}

TEST(IrTextPatch, FallsBackToThePrinterForUnscheduledOps) {
  // loadA without its attribute: it gets a default name and schedule,
  // which no attribute in the text can carry.
  std::string text = test::readAsset("gemm.mlir");
  const std::string attr =
      " {tile.sched = #tile.sched<\"loadA\", stage = 0, order = 1, group = 0>}";
  size_t at = text.find(attr);
  ASSERT_NE(at, std::string::npos);
  text.erase(at, attr.size());
  LoadedIr ir = loadLoopIr(text, "gemm.mlir");
  ASSERT_TRUE(ir.ok) << (ir.diagnostics.empty() ? "" : ir.diagnostics.front());
  Schedule s = ir.graph.initialSchedule;
  std::string out, error;
  ASSERT_TRUE(scheduledIrText(text, "gemm.mlir", s, out, error)) << error;
  LoadedIr back = loadLoopIr(out, "gemm2.mlir");
  ASSERT_TRUE(back.ok);
  for (const ScheduleEntry &e : s.entries())
    EXPECT_EQ(*back.graph.initialSchedule.find(e.name), e.sched) << e.name;
}

TEST(SessionLoader, ReportsBadInputWithoutCrashing) {
  LoadedIr ir = loadLoopIr("module { func.func @f( {", "bad.mlir");
  EXPECT_FALSE(ir.ok);
  ASSERT_FALSE(ir.diagnostics.empty());
  EXPECT_NE(ir.diagnostics.front().find("bad.mlir"), std::string::npos);
  std::string deep(100000, '(');
  LoadedIr deepIr = loadLoopIr(deep, "deep.mlir");
  EXPECT_FALSE(deepIr.ok);
  EXPECT_FALSE(deepIr.diagnostics.empty());
}
