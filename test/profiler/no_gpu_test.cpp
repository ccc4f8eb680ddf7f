// Runs the real stagecraft-run binary as a child process: on a machine without a GPU it must
// start (libcuda is dlopen()ed, not linked), print one JSON error and exit non-zero.
#include "json.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace json = stagecraft::json;

namespace {

struct ProcessResult {
  int exitCode = -1;
  std::string out;
};

ProcessResult runShell(const std::string &command) {
  ProcessResult r;
  FILE *p = popen(command.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::vector<json::Value> jsonLines(const std::string &out) {
  std::vector<json::Value> lines;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (end > start) lines.push_back(json::parse(out.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

bool machineHasGpu() {
  struct stat st;
  return stat("/dev/nvidia0", &st) == 0 || stat("/dev/nvidiactl", &st) == 0;
}

class NoGpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (machineHasGpu()) GTEST_SKIP() << "this machine has an NVIDIA device; the no-GPU path cannot be tested here";
    char tmpl[] = "/tmp/stagecraft-nogpu-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    std::ofstream(dir_ + "/manifest.json") << R"({"format": "stagecraft-bundle", "version": 1, "kernel": "k",
      "grid": [1, 1, 1], "block": [32, 1, 1], "dynamic_smem_bytes": 0, "flops": 64,
      "tensors": [{"name": "A", "dtype": "f32", "shape": [32], "role": "input",
                   "init": {"kind": "uniform", "low": -1, "high": 1, "seed": 1}},
                  {"name": "C", "dtype": "f32", "shape": [32], "role": "output"}],
      "params": [{"kind": "pointer", "tensor": "A"}, {"kind": "pointer", "tensor": "C"}],
      "reference": {"kind": "none"}})";
    std::ofstream(dir_ + "/kernel.ptx") << "// not needed: the run stops before loading it\n";
  }
  void TearDown() override {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  std::string dir_;
};

const std::string kRunner = STAGECRAFT_RUN_PATH;

TEST_F(NoGpu, RunPrintsNoDeviceErrorAndFails) {
  // Without libcuda.so.1 on the search path at all.
  ProcessResult r = runShell("env LD_LIBRARY_PATH=/nonexistent '" + kRunner + "' '" + dir_ + "' 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  auto lines = jsonLines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].find("status")->asString(), "error");
  const std::string err = lines[0].find("error")->asString();
  EXPECT_EQ(err.rfind("no CUDA device: ", 0), 0u) << err;
  EXPECT_NE(err.find("libcuda.so.1"), std::string::npos) << err;
  EXPECT_FALSE(lines[0].find("verified")->asBool());
  EXPECT_TRUE(lines[0].find("tflops")->isNull());
}

TEST_F(NoGpu, TheBundlesWarningsComeWithTheNoDeviceError) {
  // An unknown manifest field is a warning of the bundle's check: kept in the no-GPU result.
  std::string text;
  {
    std::ifstream in(dir_ + "/manifest.json");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  text.insert(text.find('{') + 1, "\"colour\": 1, ");
  std::ofstream(dir_ + "/manifest.json") << text;
  ProcessResult r = runShell("env LD_LIBRARY_PATH=/nonexistent '" + kRunner + "' '" + dir_ + "' 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  auto lines = jsonLines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  const json::Value *warnings = lines[0].find("warnings");
  ASSERT_TRUE(warnings && warnings->isArray()) << r.out;
  ASSERT_EQ(warnings->items().size(), 1u) << r.out;
  EXPECT_EQ(warnings->items()[0].asString(), "colour: unknown field, ignored");
}

TEST_F(NoGpu, StubDriverFailsInCuInit) {
  const std::string stub = STAGECRAFT_CUDA_STUB;
  struct stat st;
  if (stat(stub.c_str(), &st) != 0) GTEST_SKIP() << "no driver stub at " << stub;
  // The stub's file name is libcuda.so; the runner asks for libcuda.so.1.
  ASSERT_EQ(symlink(stub.c_str(), (dir_ + "/libcuda.so.1").c_str()), 0);
  ProcessResult r = runShell("env LD_LIBRARY_PATH='" + dir_ + "' '" + kRunner + "' '" + dir_ + "' 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  auto lines = jsonLines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].find("error")->asString().rfind("no CUDA device: cuInit: CUDA_ERROR_STUB_LIBRARY", 0), 0u)
      << lines[0].find("error")->asString();
}

TEST_F(NoGpu, BadBundleIsReportedBeforeLookingForAGpu) {
  std::ofstream(dir_ + "/manifest.json") << R"({"format": "stagecraft-bundle", "version": 1})";
  ProcessResult r = runShell("'" + kRunner + "' '" + dir_ + "' 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  auto lines = jsonLines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].find("error")->asString(), "manifest.json: kernel: missing (required)");
}

TEST_F(NoGpu, ServeAnswersEveryLineThenExitsNonZero) {
  std::ofstream(dir_ + "/requests") << "{\"id\": 1, \"bundle\": \"" << dir_ << "\"}\n"
                                    << "not json\n"
                                    << "\n"
                                    << "{\"id\": \"p\", \"cmd\": \"ping\"}\n";
  ProcessResult r = runShell("env LD_LIBRARY_PATH=/nonexistent '" + kRunner + "' --serve < '" + dir_ + "/requests' 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  auto lines = jsonLines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;  // the blank line is skipped
  EXPECT_EQ(lines[0].find("id")->asInt(), 1);
  EXPECT_EQ(lines[0].find("error")->asString().rfind("no CUDA device: ", 0), 0u);
  EXPECT_TRUE(lines[1].find("id")->isNull());
  EXPECT_EQ(lines[1].find("error")->asString().rfind("bad request: line 1, column 1", 0), 0u)
      << lines[1].find("error")->asString();
  EXPECT_EQ(lines[2].find("id")->asString(), "p");
  EXPECT_EQ(lines[2].find("status")->asString(), "error");
}

TEST(Cli, UsageErrorsAreJsonToo) {
  ProcessResult r = runShell("'" + kRunner + "' --reps 0 somewhere 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  auto lines = jsonLines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].find("error")->asString(), "usage: --reps: bad value \"0\"");
  r = runShell("'" + kRunner + "' 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  r = runShell("'" + kRunner + "' --frobnicate x 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.out.find("unknown option --frobnicate"), std::string::npos);
  // --untimed times nothing, so it takes no trace and no serve loop.
  r = runShell("'" + kRunner + "' --untimed --trace t.json somewhere 2>/dev/null");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.out.find("usage: --untimed takes one bundle and no --trace"), std::string::npos) << r.out;
  r = runShell("'" + kRunner + "' --serve --untimed 2>/dev/null </dev/null");
  EXPECT_EQ(r.exitCode, 2);
}

}  // namespace
