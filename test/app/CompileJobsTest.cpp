//===- CompileJobsTest.cpp - newest edit wins, stale results dropped ------===//
#include "app/CompileJobs.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

using namespace stagecraft;
using namespace stagecraft::app;
using namespace std::chrono_literals;

namespace {

/// A back end that calls back like the driver (the schedule checked, then
/// the PTX); its compiles of source "slow" run until cancelled after the
/// schedule check (the way the driver stops at the next pass boundary);
/// others finish at once. Source "illegal" fails its schedule check.
struct FakeDriver {
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> started; // "source/phase"
  std::atomic<int> cancelledSeen{0};

  CompileBackend backend() {
    CompileBackend b;
    b.compile = [this](const std::string &source, const std::string &,
                       const CompileOptions &o) {
      {
        std::lock_guard<std::mutex> lock(m);
        started.push_back(source + (o.scheduleOnly ? "/check" : "/full"));
      }
      cv.notify_all();
      CompileResult r;
      r.kernel = source;
      if (source == "illegal") {
        r.diagnostics.push_back("error: illegal schedule");
        r.status = CompileResult::Status::Error;
        return r;
      }
      r.status = CompileResult::Status::Ok;
      if (o.scheduleOnly)
        return r;
      if (o.onScheduleChecked)
        o.onScheduleChecked(r);
      if (source == "slow") {
        auto deadline = std::chrono::steady_clock::now() + 20s;
        while (!o.cancel->load() && std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(1ms);
        if (o.cancel->load()) {
          ++cancelledSeen;
          r.status = CompileResult::Status::Cancelled;
          return r;
        }
      }
      r.ptx = "ptx of " + source;
      if (o.onPtx)
        o.onPtx(r);
      r.cubin = "cubin of " + source;
      return r;
    };
    b.writeBundle = [](const CompileResult &, const std::string &) { return std::string(); };
    return b;
  }
  bool waitStarted(const std::string &what) {
    std::unique_lock<std::mutex> lock(m);
    return cv.wait_for(lock, 10s, [&] {
      return std::find(started.begin(), started.end(), what) != started.end();
    });
  }
};

CompileRequest request(const std::string &source) {
  CompileRequest r;
  r.source = source;
  r.sourceName = source + ".mlir";
  return r;
}

std::vector<CompileOutcome> drain(CompileJobs &jobs, double seconds = 10) {
  std::vector<CompileOutcome> out;
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    while (auto o = jobs.take())
      out.push_back(std::move(*o));
    if (!jobs.busy()) {
      while (auto o = jobs.take())
        out.push_back(std::move(*o));
      break;
    }
    std::this_thread::sleep_for(1ms);
  }
  return out;
}

TEST(CompileJobs, ThreePhasesForOneJobFromOneCompile) {
  FakeDriver d;
  CompileJobs jobs(d.backend());
  uint64_t id = jobs.submit(request("fast"));
  std::vector<CompileOutcome> out = drain(jobs);
  ASSERT_EQ(out.size(), 3u);
  for (const CompileOutcome &o : out)
    EXPECT_EQ(o.job, id);
  EXPECT_EQ(out[0].phase, CompileOutcome::Phase::ScheduleChecked);
  EXPECT_TRUE(out[0].result.ptx.empty());
  // The PTX comes out before the rest of the compile (here: the cubin).
  EXPECT_EQ(out[1].phase, CompileOutcome::Phase::Ptx);
  EXPECT_EQ(out[1].result.ptx, "ptx of fast");
  EXPECT_TRUE(out[1].result.cubin.empty());
  EXPECT_EQ(out[2].phase, CompileOutcome::Phase::Full);
  EXPECT_TRUE(out[2].result.ok());
  EXPECT_EQ(out[2].result.cubin, "cubin of fast");
  // Seconds count from the job's start.
  EXPECT_LE(out[0].seconds, out[1].seconds);
  EXPECT_LE(out[1].seconds, out[2].seconds);
  std::lock_guard<std::mutex> lock(d.m);
  EXPECT_EQ(d.started, std::vector<std::string>{"fast/full"}) << "one compile per job";
}

// With the real driver: the PTX first, its lowered IR text and the
// reference still to come; then all of it, and the bundle.
TEST(CompileJobs, TheDriverHandsOutThePtxBeforeTheReferenceAndTheCubin) {
  CompileJobs jobs(CompileBackend::driver());
  CompileRequest r;
  r.source = test::readAsset("gemm.mlir");
  r.sourceName = "gemm.mlir";
  r.bundleDir = test::tempDir("jobs-driver") + "/bundle";
  uint64_t id = jobs.submit(r);
  std::vector<CompileOutcome> out = drain(jobs, 120);
  ASSERT_EQ(out.size(), 3u);
  for (const CompileOutcome &o : out)
    EXPECT_EQ(o.job, id);
  ASSERT_EQ(out[1].phase, CompileOutcome::Phase::Ptx);
  const CompileResult &ptx = out[1].result;
  EXPECT_NE(ptx.ptx.find("wgmma.mma_async"), std::string::npos);
  EXPECT_TRUE(ptx.cubin.empty());
  EXPECT_TRUE(ptx.referencePtx.empty());
  ASSERT_GE(ptx.passes.size(), 3u);
  EXPECT_TRUE(ptx.passes.back().ir.empty());

  ASSERT_EQ(out[2].phase, CompileOutcome::Phase::Full);
  const CompileResult &full = out[2].result;
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full.ptx, ptx.ptx);
  EXPECT_FALSE(full.referencePtx.empty());
  for (const PassSnapshot &p : full.passes)
    EXPECT_FALSE(p.ir.empty()) << p.name;
  if (full.ptxas.ran)
    EXPECT_FALSE(full.cubin.empty());
  ASSERT_EQ(out[2].bundleDir, r.bundleDir) << out[2].bundleError;
  for (const char *f : {"kernel.ptx", "reference.ptx", "manifest.json", "kernel.ll"})
    EXPECT_TRUE(std::ifstream(r.bundleDir + "/" + f).good()) << f;
}

TEST(CompileJobs, AnIllegalScheduleEndsTheJobAtTheCheck) {
  FakeDriver d;
  CompileJobs jobs(d.backend());
  jobs.submit(request("illegal"));
  std::vector<CompileOutcome> out = drain(jobs);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].phase, CompileOutcome::Phase::ScheduleChecked);
  EXPECT_EQ(out[0].result.status, CompileResult::Status::Error);
}

TEST(CompileJobs, AScheduleOnlyRequestStopsAtTheCheck) {
  FakeDriver d;
  CompileJobs jobs(d.backend());
  CompileRequest r = request("fast");
  r.scheduleOnly = true;
  jobs.submit(r);
  std::vector<CompileOutcome> out = drain(jobs);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].phase, CompileOutcome::Phase::ScheduleChecked);
  EXPECT_TRUE(out[0].result.ok());
  std::lock_guard<std::mutex> lock(d.m);
  EXPECT_EQ(d.started, std::vector<std::string>{"fast/check"});
}

TEST(CompileJobs, ANewerJobCancelsTheOlderAndOnlyItsResultIsApplied) {
  FakeDriver d;
  CompileJobs jobs(d.backend());
  uint64_t slow = jobs.submit(request("slow"));
  ASSERT_TRUE(d.waitStarted("slow/full"));
  // The schedule-check result of the slow job may be waiting: a newer
  // submit makes it stale.
  uint64_t fast = jobs.submit(request("fast"));
  EXPECT_GT(fast, slow);
  std::vector<CompileOutcome> out = drain(jobs);
  EXPECT_EQ(d.cancelledSeen.load(), 1); // the older job saw its cancel flag
  ASSERT_FALSE(out.empty());
  for (const CompileOutcome &o : out) {
    EXPECT_EQ(o.job, fast) << "a stale result was handed out";
    EXPECT_EQ(o.result.kernel, "fast");
  }
  EXPECT_EQ(out.back().phase, CompileOutcome::Phase::Full);
  EXPECT_GE(jobs.supersededCount(), 1u);
}

TEST(CompileJobs, QueuedJobsAreReplacedNotRunInTurn) {
  FakeDriver d;
  CompileJobs jobs(d.backend());
  jobs.submit(request("slow"));
  ASSERT_TRUE(d.waitStarted("slow/full"));
  jobs.submit(request("middle"));
  uint64_t last = jobs.submit(request("last"));
  std::vector<CompileOutcome> out = drain(jobs);
  for (const CompileOutcome &o : out)
    EXPECT_EQ(o.job, last);
  std::lock_guard<std::mutex> lock(d.m);
  for (const std::string &s : d.started)
    EXPECT_EQ(s.find("middle"), std::string::npos) << "a superseded queued job ran";
}

TEST(CompileJobs, SubmitNeverWaitsForTheRunningCompile) {
  FakeDriver d;
  CompileJobs jobs(d.backend());
  jobs.submit(request("slow"));
  ASSERT_TRUE(d.waitStarted("slow/full"));
  auto t = std::chrono::steady_clock::now();
  jobs.submit(request("fast"));
  EXPECT_FALSE(jobs.take().has_value() && false);
  EXPECT_LT(std::chrono::steady_clock::now() - t, 50ms);
  drain(jobs);
}

TEST(CompileJobs, DestructionCancelsARunningJob) {
  FakeDriver d;
  auto t = std::chrono::steady_clock::now();
  {
    CompileJobs jobs(d.backend());
    jobs.submit(request("slow"));
    ASSERT_TRUE(d.waitStarted("slow/full"));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t, 5s);
  EXPECT_EQ(d.cancelledSeen.load(), 1);
}

} // namespace
