//===- AttentionSchedulesTest.cpp - legal attention schedules compile -----===//
//
// Enumerates schedules of assets/attention_fwd_d128.mlir with up to 4
// stages: loadK in 0..1, loadV in 0..2, MMA0, Softmax (with MUL) and MMA1 in
// 0..3 (shifts of the same schedule skipped), in Triton's two body orders
// (MMA0 Softmax MUL MMA1, or MMA0 MMA1 Softmax MUL), loads in the producer
// warp group. Every legal one must compile through the whole pipeline and,
// at head dim 128, assemble with ptxas without spills and without ptxas
// serializing the wgmma pipeline; every illegal one must be refused with the
// legality explanation.
//
//===----------------------------------------------------------------------===//
#include "core/Schedule/Schedule.h"
#include "passes/Driver/CompileDriver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace stagecraft;

TEST(AttentionSchedules, EveryLegalScheduleCompilesAndAssembles) {
  auto source = llvm::MemoryBuffer::getFile(STAGECRAFT_ASSETS_DIR "/attention_fwd_d128.mlir");
  ASSERT_TRUE(bool(source));
  bool havePtxas = llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas");
  int legal = 0, refused = 0;
  for (int k = 0; k <= 1; ++k)
    for (int v = 0; v <= 2; ++v)
      for (int m0 = 0; m0 <= 3; ++m0)
        for (int sm = 0; sm <= 3; ++sm)
          for (int m1 = 0; m1 <= 3; ++m1)
            for (int dot1First = 0; dot1First <= 1; ++dot1First) {
              if (std::min({k, v, m0, sm, m1}) != 0)
                continue; // a shift of a schedule already covered
              Schedule s;
              s.kernel = "attn_fwd_d128";
              s.set("MMA0", {m0, 0, 1});
              s.set("Softmax", {sm, dot1First ? 2 : 1, 1});
              s.set("MUL", {sm, dot1First ? 3 : 2, 1});
              s.set("MMA1", {m1, dot1First ? 1 : 3, 1});
              s.set("loadK", {k, 4, 0});
              s.set("loadV", {v, 5, 0});
              CompileOptions options;
              options.scheduleJson = s.toJson();
              options.emitReference = false; // the reference has its own tests
              options.emitCubin = havePtxas;
              options.sizes = {{"B", 1}, {"H", 2}, {"S", 1000}};
              // The IR text is not looked at here (CompileDriverTest checks it).
              options.keepSnapshots = false;
              options.keepLlvmIR = false;
              CompileResult r = compile((*source)->getBuffer(), "attention_fwd_d128.mlir", options);
              std::string what = s.toJson();
              if (r.ok()) {
                ++legal;
                EXPECT_NE(r.ptx.find("wgmma.mma_async"), std::string::npos) << what;
                if (havePtxas) {
                  EXPECT_FALSE(r.cubin.empty()) << what;
                  EXPECT_EQ(r.ptxas.spillStoreBytes, 0) << what;
                  EXPECT_EQ(r.ptxas.text.find("serialized"), std::string::npos)
                      << what << "\n" << r.ptxas.text;
                }
              } else {
                ++refused;
                ASSERT_FALSE(r.diagnostics.empty()) << what;
                bool explained = false;
                for (const std::string &d : r.diagnostics)
                  explained |= d.find("illegal schedule") != std::string::npos;
                EXPECT_TRUE(explained) << what << "\n" << r.diagnostics.front();
              }
            }
  EXPECT_GE(legal, 10);
  EXPECT_GE(refused, 10);
  std::printf("legal attention schedules compiled: %d, illegal ones refused: %d\n", legal,
              refused);
}
