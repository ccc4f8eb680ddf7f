//===- ScreenshotTest.cpp - the real app under Xvfb writes a real picture -===//
#include "TestSupport.h"

#include <stb/stb_image.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

namespace {

bool onPath(const char *program) {
  std::string cmd = std::string("command -v ") + program + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

TEST(Screenshot, XvfbScreenshotIsNotBlank) {
  if (!onPath("xvfb-run"))
    GTEST_SKIP() << "xvfb-run is not installed (scripts/setup.sh installs it)";
  std::string dir = stagecraft::app::test::tempDir("screenshot");
  std::string png = dir + "/out.png";
  // Software GL: CI machines have no GPU. No runner: the picture must not
  // depend on one, and the app must start without it.
  std::string cmd = "cd '" + dir + "' && LIBGL_ALWAYS_SOFTWARE=1 STAGECRAFT_STATE_DIR='" + dir +
                    "/state' xvfb-run -a -s '-screen 0 1920x1200x24' '" STAGECRAFT_APP_EXE
                    "' --screenshot '" + png + "' --no-runner --size 1600x1000 > '" + dir +
                    "/log.txt' 2>&1";
  int rc = std::system(cmd.c_str());
  std::string log;
  std::string error;
  stagecraft::app::readFile(dir + "/log.txt", log, error);
  ASSERT_EQ(rc, 0) << log;
  ASSERT_TRUE(std::filesystem::exists(png)) << log;
  EXPECT_GT(std::filesystem::file_size(png), 10000u);
  int w = 0, h = 0, n = 0;
  unsigned char *pixels = stbi_load(png.c_str(), &w, &h, &n, 3);
  ASSERT_NE(pixels, nullptr);
  EXPECT_EQ(w, 1600);
  EXPECT_EQ(h, 1000);
  std::set<uint32_t> distinct;
  for (int i = 0; i < w * h; ++i)
    distinct.insert(pixels[3 * i] << 16 | pixels[3 * i + 1] << 8 | pixels[3 * i + 2]);
  stbi_image_free(pixels);
  // Text, cards in three kind colors, bars: a blank or failed render has a
  // handful of colors at most.
  EXPECT_GT(distinct.size(), 500u);
  // Screenshots never touch the user's autosave.
  EXPECT_FALSE(std::filesystem::exists(dir + "/state/autosave.json"));
}

/// Runs the app under Xvfb with `args` in a fresh directory; its exit
/// status, with its output in `log`.
int runApp(const std::string &dir, const std::string &args, std::string &log) {
  std::string cmd = "cd '" + dir + "' && LIBGL_ALWAYS_SOFTWARE=1 STAGECRAFT_STATE_DIR='" + dir +
                    "/state' xvfb-run -a -s '-screen 0 1920x1200x24' '" STAGECRAFT_APP_EXE
                    "' " + args + " > '" + dir + "/log.txt' 2>&1";
  int rc = std::system(cmd.c_str());
  std::string error;
  log.clear();
  stagecraft::app::readFile(dir + "/log.txt", log, error);
  return rc;
}

TEST(Screenshot, TheTimelinePanelWithAMeasuredTraceOrTheReasonThereIsNone) {
  if (!onPath("xvfb-run"))
    GTEST_SKIP() << "xvfb-run is not installed (scripts/setup.sh installs it)";
  std::string dir = stagecraft::app::test::tempDir("screenshot-trace");
  std::string gemm = stagecraft::app::test::assetPath("gemm.mlir");
  std::string trace = std::string(STAGECRAFT_TEST_INPUTS_DIR) + "/traces/gemm-ws-h100.trace.json";
  std::string log;
  // The trace of the kernel and schedule: the panel alone, with it.
  std::string png = dir + "/timeline.png";
  ASSERT_EQ(runApp(dir, "'" + gemm + "' --no-runner --trace '" + trace +
                            "' --panel timeline --size 1200x480 --screenshot '" + png + "'",
                   log),
            0)
      << log;
  int w = 0, h = 0, n = 0;
  unsigned char *pixels = stbi_load(png.c_str(), &w, &h, &n, 3);
  ASSERT_NE(pixels, nullptr) << log;
  EXPECT_EQ(w, 1200);
  EXPECT_EQ(h, 480);
  stbi_image_free(pixels);
  // Opened on the loop's last iterations and the epilogue after them.
  std::string end = dir + "/end.png";
  ASSERT_EQ(runApp(dir, "'" + gemm + "' --no-runner --trace '" + trace +
                            "' --panel timeline --timeline-iterations 127:128 --size 1200x480 "
                            "--screenshot '" + end + "'",
                   log),
            0)
      << log;
  EXPECT_TRUE(std::filesystem::exists(end)) << log;
  // A range that is none: the reason, a failing exit, no picture.
  std::string bad = dir + "/bad.png";
  EXPECT_NE(runApp(dir, "'" + gemm + "' --no-runner --timeline-iterations 9:3 --screenshot '" +
                            bad + "'",
                   log),
            0);
  EXPECT_NE(log.find("bad --timeline-iterations 9:3 (e.g. 60:64)"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(bad));
  // Another kernel's trace: no picture, the reason, a failing exit.
  std::string attention = stagecraft::app::test::assetPath("attention_fwd_d128.mlir");
  std::string refused = dir + "/refused.png";
  EXPECT_NE(runApp(dir, "'" + attention + "' --no-runner --trace '" + trace + "' --screenshot '" +
                            refused + "'",
                   log),
            0);
  EXPECT_NE(log.find("it was measured for kernel \"gemm\""), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(refused));
}

TEST(Screenshot, ARefusedFileIsPicturedWithItsErrorAndAFailingExit) {
  if (!onPath("xvfb-run"))
    GTEST_SKIP() << "xvfb-run is not installed (scripts/setup.sh installs it)";
  std::string dir = stagecraft::app::test::tempDir("screenshot-refused");
  std::string ir = std::string(STAGECRAFT_TEST_INPUTS_DIR) + "/unseen/index-iterarg.mlir";
  std::string png = dir + "/refused.png";
  std::string log;
  // The window shows why (the picture is written), and a script learns it.
  EXPECT_NE(runApp(dir, "'" + ir + "' --no-runner --no-restore --screenshot '" + png + "'", log), 0);
  EXPECT_TRUE(std::filesystem::exists(png)) << log;
  EXPECT_NE(log.find("index-iterarg.mlir:12:10: error: the pipelined loop carries value #1"),
            std::string::npos)
      << log;
  // The compiler's form: no dump of the op in generic form after the error.
  EXPECT_EQ(log.find("\"scf.for\"("), std::string::npos) << log;
}

} // namespace
