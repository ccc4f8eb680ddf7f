// Bundles carried in requests (profiler/upload.h), and the real stagecraft-run receiving them:
// "check" requests and --dry-run need no GPU, so the whole upload path runs here.
#include "json.h"
#include "protocol.h"
#include "upload.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace stagecraft::profiler;
namespace json = stagecraft::json;

namespace {

std::string base64(const std::string &bytes) {
  static const char *abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t n = uint8_t(bytes[i]) << 16 | uint8_t(bytes[i + 1]) << 8 | uint8_t(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) out += abc[(n >> (6 * k)) & 63];
  }
  if (i + 1 == bytes.size()) {
    uint32_t n = uint8_t(bytes[i]) << 16;
    out += abc[n >> 18];
    out += abc[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    uint32_t n = uint8_t(bytes[i]) << 16 | uint8_t(bytes[i + 1]) << 8;
    out += abc[n >> 18];
    out += abc[(n >> 12) & 63];
    out += abc[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string uploadError(const std::string &uploadJson) {
  try {
    decodeUpload(json::parse(uploadJson));
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "";
}

std::string tempDir() {
  char tmpl[] = "/tmp/stagecraft-upload-test-XXXXXX";
  EXPECT_NE(mkdtemp(tmpl), nullptr);
  return tmpl;
}

std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
  }
  return names;
}

const char *kManifest = R"({"format": "stagecraft-bundle", "version": 1, "kernel": "k",
  "grid": [4, 1, 1], "block": [32, 1, 1], "dynamic_smem_bytes": 0, "flops": 64,
  "tensors": [{"name": "A", "dtype": "f32", "shape": [32], "role": "input",
               "init": {"kind": "uniform", "low": -1, "high": 1, "seed": 1}},
              {"name": "C", "dtype": "f32", "shape": [32], "role": "output"}],
  "params": [{"kind": "pointer", "tensor": "A"}, {"kind": "pointer", "tensor": "C"}],
  "reference": {"kind": "none"}})";

TEST(Base64, DecodesStrictly) {
  std::string out;
  for (std::string s : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\x00\xff\x7f" "ELF", 6)}) {
    ASSERT_TRUE(base64Decode(base64(s), &out)) << s;
    EXPECT_EQ(out, s);
  }
  EXPECT_FALSE(base64Decode("abc", &out));      // length
  EXPECT_FALSE(base64Decode("ab=c", &out));     // data after padding
  EXPECT_FALSE(base64Decode("a===", &out));     // too much padding
  EXPECT_FALSE(base64Decode("ab\ncd==", &out)); // whitespace
  EXPECT_FALSE(base64Decode("ab*d", &out));
  EXPECT_FALSE(base64Decode("YQ==YQ==", &out)); // padding in the middle
}

TEST(Upload, OnlyTheFilesTheRunnerReadsWithinTheirLimits) {
  std::string m = base64(kManifest), p = base64("// ptx");
  auto files = decodeUpload(json::parse(R"({"manifest.json": ")" + m + R"(", "kernel.ptx": ")" + p + "\"}"));
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].data, kManifest);
  EXPECT_EQ(files[1].name, "kernel.ptx");
  for (const char *bad : {"../kernel.ptx", "/etc/passwd", "ir/00-input.mlir", ".manifest.json",
                          "schedule.json", "kernel.cubin/..", ""})
    EXPECT_NE(uploadError(std::string(R"({"manifest.json": ")") + m + R"(", ")" + bad + R"(": "AAAA"})")
                  .find("is not one the runner reads (manifest.json, kernel.cubin, kernel.ptx, reference.ptx, "
                        "timeline.cubin, timeline.ptx)"),
              std::string::npos)
        << bad;
  EXPECT_EQ(uploadError(R"({"kernel.ptx": "AAAA"})"), "request field \"upload\": no manifest.json");
  EXPECT_EQ(uploadError(R"({"manifest.json": ")" + m + "\"}"),
            "request field \"upload\": neither kernel.cubin nor kernel.ptx");
  // The instrumented kernel travels too (for a trace), but is not the kernel.
  auto traced = decodeUpload(json::parse(R"({"manifest.json": ")" + m + R"(", "kernel.ptx": ")" + p +
                                         R"(", "timeline.ptx": ")" + p + "\"}"));
  EXPECT_EQ(traced.size(), 3u);
  EXPECT_EQ(uploadError(R"({"manifest.json": ")" + m + R"(", "timeline.ptx": ")" + p + "\"}"),
            "request field \"upload\": neither kernel.cubin nor kernel.ptx");
  EXPECT_EQ(uploadError(R"({"manifest.json": "@@@@", "kernel.ptx": "AAAA"})"),
            "request field \"upload\": \"manifest.json\" is not valid base64");
  EXPECT_EQ(uploadError(R"({"manifest.json": 3})"),
            "request field \"upload\": \"manifest.json\": expected a base64 string");
  EXPECT_EQ(uploadError(R"(["manifest.json"])"),
            "request field \"upload\": expected an object of file name: base64 contents");
  std::string big(23u << 20, 'A');  // 17.25 MiB decoded: refused before decoding
  EXPECT_EQ(uploadError(R"({"manifest.json": ")" + big + R"(", "kernel.ptx": "AAAA"})"),
            "request field \"upload\": \"manifest.json\" is larger than 16 MiB");
}

TEST(Upload, RequestFields) {
  std::string m = base64(kManifest), p = base64("// ptx");
  std::string upload = R"({"manifest.json": ")" + m + R"(", "kernel.ptx": ")" + p + "\"}";
  Request r = parseRequest(R"({"id": 1, "cmd": "check", "upload": )" + upload + "}", Request(), nullptr);
  EXPECT_TRUE(r.hasUpload);
  EXPECT_EQ(r.command, "check");
  EXPECT_EQ(r.upload.size(), 2u);
  auto error = [](const std::string &line) {
    try {
      parseRequest(line, Request(), nullptr);
    } catch (const std::invalid_argument &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(R"({"bundle": "/x", "upload": )" + upload + "}"),
            "request fields \"bundle\" and \"upload\": give one, not both");
  EXPECT_EQ(error(R"({"cmd": "ping", "upload": )" + upload + "}"),
            "request field \"upload\": a ping takes no bundle");
  EXPECT_EQ(error(R"({"cmd": "check"})"), "request field \"bundle\": missing (required, or \"upload\")");
  EXPECT_EQ(error(R"({"cmd": "ping", "probe": {"path": "/x"}})"),
            "request field \"probe\": expected {\"path\": string, \"token\": string}");
  EXPECT_EQ(error(R"({"bundle": "/x", "probe": {"path": "/x", "token": "t"}})"),
            "request field \"probe\": only a ping takes a probe");
  Request ping = parseRequest(R"({"cmd": "ping", "probe": {"path": "/p", "token": "t0k"}})", Request(), nullptr);
  EXPECT_TRUE(ping.hasProbe);
  EXPECT_EQ(ping.probePath, "/p");
  EXPECT_EQ(ping.probeToken, "t0k");
}

TEST(Upload, PrivateDirectoryRemovedAfterwards) {
  std::string root = tempDir();
  std::string path;
  {
    auto dir = UploadDir::create({{"manifest.json", kManifest}, {"kernel.ptx", "// ptx"}}, root);
    path = dir->path();
    EXPECT_EQ(path.rfind(root + "/stagecraft-upload-" + std::to_string(getpid()) + "-", 0), 0u) << path;
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    ASSERT_EQ(stat((path + "/kernel.ptx").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    std::ifstream in(path + "/manifest.json");
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(), kManifest);
    ASSERT_EQ(dir->files().size(), 2u);
    EXPECT_EQ(dir->files()[1].second, 6);
  }
  EXPECT_TRUE(entries(root).empty());
  // removeLiveUploads (the watchdog's way out) removes those still alive.
  auto dir = UploadDir::create({{"manifest.json", kManifest}, {"kernel.ptx", "x"}}, root);
  EXPECT_EQ(entries(root).size(), 1u);
  removeLiveUploads();
  EXPECT_TRUE(entries(root).empty());
  dir.reset();
  rmdir(root.c_str());
}

TEST(Upload, StaleDirectoriesOfDeadRunnersAreSwept) {
  std::string root = tempDir();
  // A process that has exited: its pid is free (or reused by someone alive: then kept).
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  std::string dead = root + "/stagecraft-upload-" + std::to_string(child) + "-abc123";
  std::string alive = root + "/stagecraft-upload-" + std::to_string(getppid()) + "-def456";
  std::string other = root + "/stagecraft-upload-notapid-xyz";
  for (const std::string &d : {dead, alive, other}) {
    ASSERT_EQ(mkdir(d.c_str(), 0700), 0);
    std::ofstream(d + "/manifest.json") << "{}";
  }
  EXPECT_EQ(sweepStaleUploads(root), 1);
  auto left = entries(root);
  EXPECT_EQ(left.size(), 2u);
  for (const std::string &n : left) EXPECT_NE(root + "/" + n, dead);
  std::system(("rm -rf '" + root + "'").c_str());
}

TEST(Upload, ProbeAnswersOnlyForTheRightToken) {
  std::string root = tempDir();
  std::ofstream(root + "/probe") << "  a1b2c3\n";
  EXPECT_TRUE(probeMatches(root + "/probe", "a1b2c3"));
  EXPECT_FALSE(probeMatches(root + "/probe", "a1b2c4"));
  EXPECT_FALSE(probeMatches(root + "/missing", "a1b2c3"));
  EXPECT_FALSE(probeMatches(root, "a1b2c3")); // a directory
  std::ofstream(root + "/big") << std::string(300, 'x');
  EXPECT_FALSE(probeMatches(root + "/big", std::string(300, 'x')));
  std::system(("rm -rf '" + root + "'").c_str());
}

// --- The real binary -------------------------------------------------------------------------

const std::string kRunner = STAGECRAFT_RUN_PATH;

struct Served {
  int exitCode = -1;
  std::vector<json::Value> answers;
};

/// Runs `stagecraft-run --serve ARGS` with TMPDIR=tmp, the lines on stdin, from cwd.
Served serve(const std::vector<std::string> &lines, const std::string &tmp, const std::string &args = "",
             const std::string &cwd = "/") {
  std::string in = tmp + "/requests.jsonl";
  {
    std::ofstream f(in);
    for (const std::string &l : lines) f << l << "\n";
  }
  std::string cmd = "cd '" + cwd + "' && TMPDIR='" + tmp + "' LD_LIBRARY_PATH=/nonexistent '" + kRunner +
                    "' --serve " + args + " < '" + in + "' 2>/dev/null";
  Served s;
  FILE *p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  s.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream lines_(out);
  std::string line;
  while (std::getline(lines_, line))
    if (!line.empty()) s.answers.push_back(json::parse(line));
  unlink(in.c_str());
  return s;
}

std::string uploadRequest(int id, const char *cmd, const std::string &manifest, const std::string &module,
                          const std::string &moduleName = "kernel.ptx") {
  return std::string(R"({"id": )") + std::to_string(id) + R"(, "cmd": ")" + cmd + R"(", "upload": {"manifest.json": ")" +
         base64(manifest) + R"(", ")" + moduleName + R"(": ")" + base64(module) + "\"}}";
}

TEST(UploadServe, CheckReceivesValidatesAndRemovesTheBundle) {
  std::string tmp = tempDir();
  std::string cubin = std::string("\x7f" "ELF", 4) + std::string(1000, '\x01');
  Served s = serve({uploadRequest(1, "check", kManifest, cubin, "kernel.cubin"),
                    uploadRequest(2, "check", "{\"format\": 1}", "// ptx"),
                    uploadRequest(3, "check", kManifest, "not an elf", "kernel.cubin"),
                    R"({"id": 4, "cmd": "check", "upload": {"manifest.json": "AAAA", "../../etc/x": "AAAA"}})"},
                   tmp);
  ASSERT_EQ(s.answers.size(), 4u);
  const json::Value &ok = s.answers[0];
  EXPECT_EQ(ok.find("status")->asString(), "ok") << json::write(ok);
  EXPECT_EQ(ok.find("kernel")->asString(), "k");
  EXPECT_EQ(ok.find("module")->asString(), "cubin");
  EXPECT_EQ(ok.find("grid")->items()[0].asInt(), 4);
  EXPECT_FALSE(ok.find("verified")->asBool());
  const std::string &where = ok.find("bundle")->asString();
  EXPECT_EQ(where.rfind(tmp + "/stagecraft-upload-", 0), 0u) << where;
  const auto &received = ok.find("received")->items();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].find("name")->asString(), "manifest.json");
  EXPECT_EQ(received[1].find("bytes")->asInt(), 1004);
  EXPECT_EQ(s.answers[1].find("status")->asString(), "error");
  EXPECT_NE(s.answers[1].find("error")->asString().find("manifest.json"), std::string::npos);
  EXPECT_NE(s.answers[2].find("error")->asString().find("kernel.cubin is not an ELF file"), std::string::npos);
  EXPECT_NE(s.answers[3].find("error")->asString().find("bad request: request field \"upload\": file "
                                                         "\"../../etc/x\" is not one the runner reads"),
            std::string::npos);
  // Every upload directory is gone, and nothing else was written.
  EXPECT_TRUE(entries(tmp).empty());
  rmdir(tmp.c_str());
}

TEST(UploadServe, DryRunAnswersRunsWithoutAGpuAndLongLinesNeedAnUpload) {
  std::string tmp = tempDir();
  std::string ptx(1500000, 'p'); // a 2 MB line: allowed with an upload only
  Served s = serve({R"({"id": 1, "cmd": "ping", "probe": {"path": ")" + tmp + R"(/nothere", "token": "t"}})",
                    uploadRequest(2, "run", kManifest, ptx),
                    R"({"id": 3, "bundle": ")" + std::string(2u << 20, 'x') + "\"}"},
                   tmp, "--dry-run");
  EXPECT_EQ(s.exitCode, 0);
  ASSERT_EQ(s.answers.size(), 3u);
  EXPECT_EQ(s.answers[0].find("status")->asString(), "ok");
  EXPECT_FALSE(s.answers[0].find("probe")->asBool());
  EXPECT_EQ(s.answers[1].find("status")->asString(), "ok") << json::write(s.answers[1]);
  EXPECT_EQ(s.answers[1].find("module")->asString(), "ptx");
  EXPECT_EQ(s.answers[1].find("received")->items()[1].find("bytes")->asInt(), 1500000);
  bool warned = false;
  for (const json::Value &w : s.answers[1].find("warnings")->items())
    warned |= w.asString() == "dry run: the bundle was checked, not launched";
  EXPECT_TRUE(warned);
  EXPECT_EQ(s.answers[2].find("error")->asString(),
            "bad request: request line longer than 1 MiB (only a request with an \"upload\" may be longer)");
  EXPECT_TRUE(entries(tmp).empty());
  rmdir(tmp.c_str());
}

TEST(UploadServe, ProbeSeesOnlyWhatTheRunnerCanRead) {
  std::string tmp = tempDir();
  std::ofstream(tmp + "/probe") << "secret-token\n";
  Served s = serve({R"({"id": 1, "cmd": "ping", "probe": {"path": ")" + tmp + R"(/probe", "token": "secret-token"}})",
                    R"({"id": 2, "cmd": "ping", "probe": {"path": ")" + tmp + R"(/probe", "token": "other"}})"},
                   tmp, "--dry-run");
  ASSERT_EQ(s.answers.size(), 2u);
  EXPECT_TRUE(s.answers[0].find("probe")->asBool());
  EXPECT_FALSE(s.answers[1].find("probe")->asBool());
  std::system(("rm -rf '" + tmp + "'").c_str());
}

TEST(UploadServe, RunWithoutAGpuWritesNothing) {
  std::string tmp = tempDir();
  Served s = serve({uploadRequest(1, "run", kManifest, "// ptx")}, tmp);
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_NE(s.answers[0].find("error")->asString().find("no CUDA device"), std::string::npos);
  EXPECT_TRUE(entries(tmp).empty());
  rmdir(tmp.c_str());
}

TEST(UploadServe, StartingSweepsDirectoriesOfKilledRunners) {
  std::string tmp = tempDir();
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  std::string dead = tmp + "/stagecraft-upload-" + std::to_string(child) + "-zzzzzz";
  ASSERT_EQ(mkdir(dead.c_str(), 0700), 0);
  std::ofstream(dead + "/kernel.cubin") << "x";
  serve({}, tmp, "--dry-run");
  EXPECT_TRUE(entries(tmp).empty());
  rmdir(tmp.c_str());
}

}  // namespace
