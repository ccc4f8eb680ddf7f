//===- InputCheckTest.cpp - refusing absurd input before parsing ----------===//
#include "core/Support/InputCheck.h"

#include <gtest/gtest.h>

using namespace stagecraft;

TEST(InputCheck, AcceptsOrdinaryIR) {
  EXPECT_EQ(checkInputText("func.func @f() -> (i32) { return }\n", "a.mlir"), "");
}

TEST(InputCheck, RefusesEmptyAndBlankFiles) {
  EXPECT_EQ(checkInputText("", "a.mlir"),
            "a.mlir:1:1: error: file is empty: expected a module with a tile kernel");
  EXPECT_NE(checkInputText("  \n\n ", "a.mlir").find("file is empty"), std::string::npos);
}

TEST(InputCheck, RefusesBinaryWithPosition) {
  std::string text = "module {\n  x\0y\n}";
  text = std::string("module {\n  x\0y\n}", 15);
  EXPECT_EQ(checkInputText(text, "b.mlir").rfind("b.mlir:2:4: error: file contains a NUL byte", 0), 0u)
      << checkInputText(text, "b.mlir");
}

TEST(InputCheck, RefusesDeepNestingWithPosition) {
  std::string deep = "module {\n" + std::string(300, '[');
  std::string err = checkInputText(deep, "d.mlir");
  EXPECT_EQ(err.rfind("d.mlir:2:256: error: brackets nest deeper than 256 levels", 0), 0u) << err;
}

TEST(InputCheck, BracketsInStringsCommentsAndArrowsDoNotCount) {
  std::string text = "// " + std::string(400, '(') + "\n\"" + std::string(400, '{') +
                     "\"\n" + std::string(250, '(') + std::string(300, '>') +
                     " -> -> ->";
  // 250 open parens stay under the limit; '>' after '-' is an arrow.
  EXPECT_EQ(checkInputText(text, "s.mlir"), "");
}

TEST(InputCheck, RefusesHugeFiles) {
  InputLimits limits;
  limits.maxBytes = 1 << 20;
  std::string big((2 << 20), ' ');
  EXPECT_NE(checkInputText(big, "h.mlir", limits).find("MiB are refused"), std::string::npos);
}
