// stagecraft-run: runs a kernel bundle on the local GPU and prints one JSON result
// (docs/runner-protocol.md).
//
//   stagecraft-run DIR [--warmup N] [--reps N] [--no-verify] [--watchdog SECONDS]
//   stagecraft-run --serve [--warmup N] [--reps N] [--watchdog SECONDS]
//
// stdout carries JSON only (one object per line); logs go to stderr.
#include "manifest.h"
#include "protocol.h"
#include "runner.h"
#include "watchdog.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

using namespace stagecraft::profiler;

namespace {

// Exit statuses (documented in docs/runner-protocol.md).
constexpr int kExitOk = 0;             // verified success (run mode); clean end of input (serve)
constexpr int kExitNotVerified = 1;    // verify_failed, or ok but not verified (--no-verify, reference none)
constexpr int kExitError = 2;          // bad usage, bad bundle, launch error, no GPU
constexpr int kExitFault = 3;          // the kernel faulted: the context is dead
// kExitTimeout (4) is in watchdog.h: the watchdog exits the process itself.

constexpr size_t kMaxRequestLine = 1 << 20;

const char *kUsage =
    "usage: stagecraft-run DIR [--warmup N] [--reps N] [--no-verify] [--watchdog SECONDS] [--trace FILE.json]\n"
    "       stagecraft-run --serve [--warmup N] [--reps N] [--watchdog SECONDS]\n"
    "Runs a kernel bundle on GPU 0, checks its output and times it; prints JSON on stdout.\n"
    "--serve reads one JSON request per line on stdin and answers one JSON line each.\n"
    "--trace runs the bundle's instrumented kernel after timing and writes its events as Chrome\n"
    "trace-event JSON (Perfetto opens it); the overhead is in the result's \"trace\" object.\n";

int exitCodeFor(const Result &r) {
  switch (r.status) {
  case Status::Ok: return r.verified ? kExitOk : kExitNotVerified;
  case Status::VerifyFailed: return kExitNotVerified;
  case Status::Fault: return kExitFault;
  case Status::Timeout: return kExitTimeout;
  case Status::Error: return kExitError;
  }
  return kExitError;
}

Result errorResult(const Request &req, const std::string &message) {
  Result r = newResult(req);
  r.status = Status::Error;
  r.error = message;
  return r;
}

bool parseNumberArg(const char *text, double *out) {
  char *end = nullptr;
  double v = std::strtod(text, &end);
  if (!end || *end != '\0' || end == text) return false;
  *out = v;
  return true;
}

int serve(const Request &defaults) {
  std::string setupError;
  std::unique_ptr<GpuSession> session = GpuSession::open(&setupError);
  if (!session)
    std::fprintf(stderr, "stagecraft-run: %s (answering every request with this error)\n", setupError.c_str());
  else
    std::fprintf(stderr, "stagecraft-run: serving on %s\n", session->device().name.c_str());

  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    stagecraft::json::Value id;
    Request req;
    try {
      if (line.size() > kMaxRequestLine) throw std::invalid_argument("request line longer than 1 MiB");
      req = parseRequest(line, defaults, &id);
    } catch (const std::exception &e) {
      Request bad = defaults;
      bad.id = id;
      writeStdoutLine(serializeResult(errorResult(bad, std::string("bad request: ") + e.what())));
      continue;
    }
    if (!session) {
      writeStdoutLine(serializeResult(errorResult(req, setupError)));
      continue;
    }
    if (req.command == "ping") {
      writeStdoutLine(serializeResult(session->ping(req)));
      continue;
    }
    Result r = session->run(req);
    writeStdoutLine(serializeResult(r));
    if (session->contextDead()) {
      std::fprintf(stderr, "stagecraft-run: the CUDA context is dead after a fault; exiting so the caller restarts the runner\n");
      std::fflush(stderr);
      // _exit: destructors would call into the dead context.
      std::_Exit(kExitFault);
    }
  }
  return session ? kExitOk : kExitError;
}

int runOnce(const Request &req) {
  // Check the bundle first: a bad manifest is reported the same with or without a GPU.
  try {
    loadManifest(req.bundle);
  } catch (const std::exception &e) {
    Result r = errorResult(req, e.what());
    writeStdoutLine(serializeResult(r));
    return kExitError;
  }
  std::string setupError;
  std::unique_ptr<GpuSession> session = GpuSession::open(&setupError);
  if (!session) {
    writeStdoutLine(serializeResult(errorResult(req, setupError)));
    return kExitError;
  }
  Result r = session->run(req);
  writeStdoutLine(serializeResult(r));
  int code = exitCodeFor(r);
  // --trace asked for a file: not writing it is an error, whatever the run's status.
  if (code == kExitOk && req.trace && r.traceFile.empty()) code = kExitError;
  if (session->contextDead()) std::_Exit(code);
  return code;
}

}  // namespace

int main(int argc, char **argv) {
  Request req;
  bool serveMode = false;
  std::string usageError;
  for (int i = 1; i < argc && usageError.empty(); ++i) {
    std::string a = argv[i];
    auto needValue = [&](double lo, double hi, double *out) {
      if (i + 1 >= argc) {
        usageError = a + " needs a value";
        return;
      }
      double v = 0;
      if (!parseNumberArg(argv[++i], &v) || !(v >= lo && v <= hi))
        usageError = a + ": bad value \"" + argv[i] + "\"";
      *out = v;
    };
    double v = 0;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stderr);
      return kExitOk;
    } else if (a == "--serve") {
      serveMode = true;
    } else if (a == "--warmup") {
      needValue(0, kMaxReps, &v);
      req.warmup = int(v);
      if (double(req.warmup) != v) usageError = "--warmup needs an integer";
    } else if (a == "--reps") {
      needValue(1, kMaxReps, &v);
      req.reps = int(v);
      if (double(req.reps) != v) usageError = "--reps needs an integer";
    } else if (a == "--watchdog") {
      needValue(0.001, 86400, &v);
      req.watchdogSeconds = v;
    } else if (a == "--trace") {
      if (i + 1 >= argc) {
        usageError = "--trace needs a file name";
      } else {
        req.trace = true;
        req.traceFile = argv[++i];
        if (req.traceFile.empty()) usageError = "--trace needs a file name";
      }
    } else if (a == "--no-verify") {
      req.verify = false;
    } else if (!a.empty() && a[0] == '-') {
      usageError = "unknown option " + a;
    } else if (req.bundle.empty()) {
      req.bundle = a;
    } else {
      usageError = "more than one bundle directory given";
    }
  }
  if (usageError.empty() && serveMode && !req.bundle.empty()) usageError = "--serve takes no bundle directory";
  if (usageError.empty() && serveMode && req.trace)
    usageError = "--trace takes one bundle; with --serve, ask for \"trace\": true in a request";
  if (usageError.empty() && !serveMode && req.bundle.empty()) usageError = "no bundle directory given";
  if (!usageError.empty()) {
    std::fprintf(stderr, "stagecraft-run: %s\n%s", usageError.c_str(), kUsage);
    writeStdoutLine(serializeResult(errorResult(req, "usage: " + usageError)));
    return kExitError;
  }
  return serveMode ? serve(req) : runOnce(req);
}
