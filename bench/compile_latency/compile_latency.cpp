//===- compile_latency.cpp - drag -> PTX, in process ----------------------===//
//
//   stagecraft-compile-latency [--runs N] [--warmup W] IN.mlir[:SCHEDULE.json] ...
//
// Times stagecraft::compile in this process the way the app calls it after a
// drag (docs/benchmarks.md, "Compile latency"), for each kernel given:
//
//   check        the schedule-only compile (parse, legality, apply)
//   ptx          the app's compile until its onPtx callback: the kernel's PTX
//   ptx-cpu      the CPU time of the compiling thread until then: what `ptx`
//                reads on an idle machine (the path to the PTX is one thread),
//                less sensitive to other load on a shared machine
//   app-all      the same compile to its end (reference, IR text; no cubin,
//                which is ptxas's time and needs the CUDA toolkit)
//   cli-all      the command-line tool's options (ptxFirst off: the reference
//                and the IR text overlap the kernel's compile), no cubin
//   cli-noref    the same without the reference kernel
//
// Each figure: W warm-up compiles, then the median, min and max of N. The
// last lines split the median `ptx` compile: parse + schedule, the lowering
// passes, LLVM translation, LLVM -O3, NVPTX code generation. The load
// average before and after is printed: on a shared machine, compare figures
// taken side by side only.
//
//===----------------------------------------------------------------------===//
#include "passes/Driver/CompileDriver.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

using namespace stagecraft;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s;
  if (v.empty())
    return s;
  s.min = v.front();
  s.max = v.back();
  size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return s;
}

double millisSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// CPU time of the calling thread, in milliseconds.
double threadCpuMillis() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

struct Kernel {
  std::string path, schedulePath, source, schedule;
};

bool readFile(const std::string &path, std::string &out) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << path << ":1:1: error: cannot read: " << buffer.getError().message()
                 << "\n";
    return false;
  }
  out = (*buffer)->getBuffer().str();
  return true;
}

/// One timed compile; false (with the diagnostics printed) when it failed.
/// `ptx`, `ptxCpu`: wall and thread CPU time until onPtx.
bool timeOnce(const Kernel &k, CompileOptions options, double &total, double &ptx,
              double &ptxCpu, CompileResult *keep = nullptr) {
  options.scheduleJson = k.schedule;
  options.scheduleSource = k.schedulePath;
  auto start = Clock::now();
  double cpuStart = threadCpuMillis();
  ptx = ptxCpu = -1;
  options.onPtx = [&](const CompileResult &) {
    ptx = millisSince(start);
    ptxCpu = threadCpuMillis() - cpuStart;
  };
  CompileResult r = compile(k.source, k.path, options);
  total = millisSince(start);
  if (!r.ok()) {
    for (const std::string &d : r.diagnostics)
      llvm::errs() << d << "\n";
    return false;
  }
  if (keep)
    *keep = std::move(r);
  return true;
}

void row(const char *what, const Stats &s) {
  llvm::outs() << llvm::format("  %-9s median %7.1f ms   min %7.1f   max %7.1f\n", what,
                               s.median, s.min, s.max);
}

} // namespace

int main(int argc, char **argv) {
  int runs = 20, warmup = 2;
  std::vector<Kernel> kernels;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--runs" || a == "--warmup") && i + 1 < argc) {
      int v = std::atoi(argv[++i]);
      (a == "--runs" ? runs : warmup) = v;
      continue;
    }
    if (a.rfind("--", 0) == 0) {
      llvm::errs() << "usage: stagecraft-compile-latency [--runs N] [--warmup W] "
                      "IN.mlir[:SCHEDULE.json] ...\n";
      return 2;
    }
    Kernel k;
    size_t colon = a.find(':');
    k.path = a.substr(0, colon);
    if (colon != std::string::npos) {
      k.schedulePath = a.substr(colon + 1);
      if (!readFile(k.schedulePath, k.schedule))
        return 1;
    }
    if (!readFile(k.path, k.source))
      return 1;
    kernels.push_back(std::move(k));
  }
  if (kernels.empty() || runs < 1 || warmup < 0) {
    llvm::errs() << "usage: stagecraft-compile-latency [--runs N] [--warmup W] "
                    "IN.mlir[:SCHEDULE.json] ...\n";
    return 2;
  }

  CompileOptions check;
  check.scheduleOnly = true;
  CompileOptions app; // what app/CompileJobs asks for, but the cubin
  app.emitCubin = false;
  CompileOptions cli = app; // what stagecraft-compile --no-cubin asks for
  cli.ptxFirst = false;
  CompileOptions cliNoRef = cli;
  cliNoRef.emitReference = false;

  llvm::outs() << llvm::format("stagecraft-compile-latency: %d runs after %d warm-up; "
                               "load average %s\n",
                               runs, warmup, loadAverage().c_str());
  for (const Kernel &k : kernels) {
    llvm::outs() << k.path << (k.schedulePath.empty() ? "" : " + " + k.schedulePath) << "\n";
    std::vector<double> checkT, ptxT, ptxCpuT, appT, cliT, cliNoRefT;
    std::vector<CompileResult> appResults;
    // In turn, so that a change in the machine's load touches all alike.
    for (int i = 0; i < warmup + runs; ++i) {
      double total, ptx, ptxCpu;
      CompileResult r;
      if (!timeOnce(k, check, total, ptx, ptxCpu))
        return 1;
      if (i >= warmup)
        checkT.push_back(total);
      if (!timeOnce(k, app, total, ptx, ptxCpu, &r))
        return 1;
      if (i >= warmup) {
        appT.push_back(total);
        ptxT.push_back(ptx);
        ptxCpuT.push_back(ptxCpu);
        appResults.push_back(std::move(r));
      }
      if (!timeOnce(k, cli, total, ptx, ptxCpu))
        return 1;
      if (i >= warmup)
        cliT.push_back(total);
      if (!timeOnce(k, cliNoRef, total, ptx, ptxCpu))
        return 1;
      if (i >= warmup)
        cliNoRefT.push_back(total);
    }
    row("check", stats(checkT));
    Stats ptx = stats(ptxT);
    row("ptx", ptx);
    row("ptx-cpu", stats(ptxCpuT));
    row("app-all", stats(appT));
    row("cli-all", stats(cliT));
    row("cli-noref", stats(cliNoRefT));
    // The split of the compile whose PTX time is nearest the median.
    const CompileResult *m = &appResults.front();
    for (const CompileResult &r : appResults)
      if (std::abs(r.ptxReadyMillis - ptx.median) < std::abs(m->ptxReadyMillis - ptx.median))
        m = &r;
    llvm::outs() << llvm::format(
        "  median ptx compile: parse+schedule %.1f, passes %.1f, LLVM translate %.1f, "
        "-O3 %.1f, NVPTX %.1f; then IR text %.1f, reference %.1f (own thread)\n",
        m->parseMillis + m->checkMillis, m->passesMillis, m->llvmTranslateMillis,
        m->llvmOptimizeMillis, m->nvptxMillis, m->snapshotMillis, m->referenceMillis);
    llvm::outs() << "  its passes:";
    for (const PassSnapshot &p : m->passes)
      llvm::outs() << llvm::format(" %s %.1f", p.name.c_str(), p.millis);
    llvm::outs() << "\n";
  }
  llvm::outs() << "load average after: " << loadAverage() << "\n";
  return 0;
}
