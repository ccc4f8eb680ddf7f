//===- GemmSchedulesTest.cpp - every legal GEMM schedule compiles ---------===//
//
// Enumerates schedules of assets/gemm.mlir with up to 5 stages: stages of
// loadA, loadB and MMA in 0..4 (shifts of the same schedule skipped), MMA
// wait 0 and 1, loads in the producer warp group or with the MMA, and the
// MMA before or after the loads in the body. Every legal one must compile
// through the whole pipeline and assemble with ptxas without spills; every
// illegal one must be refused with a diagnostic, never compiled.
//
//===----------------------------------------------------------------------===//
#include "core/Schedule/Schedule.h"
#include "passes/Driver/CompileDriver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace stagecraft;

TEST(GemmSchedules, EveryLegalScheduleCompilesAndAssembles) {
  auto source = llvm::MemoryBuffer::getFile(STAGECRAFT_ASSETS_DIR "/gemm.mlir");
  ASSERT_TRUE(bool(source));
  bool havePtxas = llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas");
  int legal = 0, refused = 0;
  for (int a = 0; a <= 4; ++a)
    for (int b = 0; b <= 4; ++b)
      for (int m = 0; m <= 4; ++m) {
        if (std::min({a, b, m}) != 0)
          continue; // a shift of a schedule already covered
        for (int wait = 0; wait <= 1; ++wait)
          for (int loadGroup = 0; loadGroup <= 1; ++loadGroup)
            for (int mmaFirst = 0; mmaFirst <= 1; ++mmaFirst) {
              Schedule s;
              s.kernel = "gemm";
              s.set("MMA", {m, mmaFirst ? 0 : 2, 1, wait});
              s.set("loadA", {a, mmaFirst ? 1 : 0, loadGroup});
              s.set("loadB", {b, mmaFirst ? 2 : 1, loadGroup});
              CompileOptions options;
              options.scheduleJson = s.toJson();
              options.emitCubin = havePtxas;
              options.emitReference = false; // the reference has its own tests
              options.sizes = {{"M", 1024}, {"N", 1024}, {"K", 1000}};
              // The IR text is not looked at here (CompileDriverTest checks it).
              options.keepSnapshots = false;
              options.keepLlvmIR = false;
              CompileResult r = compile((*source)->getBuffer(), "gemm.mlir", options);
              std::string what = s.toJson();
              if (r.ok()) {
                ++legal;
                EXPECT_NE(r.ptx.find("wgmma.mma_async"), std::string::npos) << what;
                if (havePtxas) {
                  EXPECT_FALSE(r.cubin.empty()) << what;
                  EXPECT_EQ(r.ptxas.spillStoreBytes, 0) << what;
                  // ptxas keeps the wgmma pipeline: no serialization note.
                  for (const char *note : {"C7514", "C7515", "C7517"})
                    EXPECT_EQ(r.ptxas.text.find(note), std::string::npos) << what << "\n"
                                                                           << r.ptxas.text;
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
      }
  // The enumeration must exercise both outcomes, and many legal schedules.
  EXPECT_GE(legal, 40);
  EXPECT_GE(refused, 40);
  std::printf("legal schedules compiled: %d, illegal ones refused: %d\n", legal, refused);
}
