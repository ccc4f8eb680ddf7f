// stagecraft-run: runs a kernel bundle on the local GPU and prints one JSON result
// (docs/runner-protocol.md).
//
//   stagecraft-run DIR [--warmup N] [--reps N] [--no-verify] [--watchdog SECONDS]
//   stagecraft-run --serve [--warmup N] [--reps N] [--watchdog SECONDS] [--dry-run]
//
// stdout carries JSON only (one object per line); logs go to stderr.
#include "bundle_check.h"
#include "manifest.h"
#include "protocol.h"
#include "runner.h"
#include "upload.h"
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
    "                          [--untimed]\n"
    "       stagecraft-run --serve [--warmup N] [--reps N] [--watchdog SECONDS] [--dry-run]\n"
    "Runs a kernel bundle on GPU 0, checks its output and times it; prints JSON on stdout.\n"
    "--serve reads one JSON request per line on stdin and answers one JSON line each.\n"
    "--dry-run (with --serve) uses no GPU: runs are answered by checking the bundle.\n"
    "--trace runs the bundle's instrumented kernel after timing and writes its events as Chrome\n"
    "trace-event JSON (Perfetto opens it); the overhead is in the result's \"trace\" object.\n"
    "--untimed checks the output, then launches the kernel warmup + reps times untimed and leaves\n"
    "CUPTI alone, for an external profiler (Nsight Compute: ncu ... stagecraft-run DIR --untimed).\n";

// Reads one line of at most `limit` bytes; a longer line is consumed to its end and reported
// with *tooLong (so a huge line costs no memory). False at the end of input.
bool readBoundedLine(std::istream &in, std::string &line, size_t limit, bool *tooLong) {
  line.clear();
  *tooLong = false;
  std::streambuf *buf = in.rdbuf();
  bool any = false;
  for (;;) {
    int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) return any;
    any = true;
    if (c == '\n') return true;
    if (line.size() < limit)
      line.push_back(char(c));
    else
      *tooLong = true;
  }
}

// A ping answered without a GPU (--dry-run).
Result dryPing(const Request &req) {
  Result r;
  r.id = req.id;
  r.status = Status::Ok;
  r.warnings.push_back("dry run: this runner checks bundles and launches nothing");
  return r;
}

// "check", and "run" under --dry-run: the bundle (a path or an upload) checked without a GPU.
Result checkRequest(Request req, bool dryRun) {
  std::unique_ptr<UploadDir> dir;
  if (req.hasUpload) {
    try {
      dir = UploadDir::create(req.upload);
    } catch (const std::exception &e) {
      Result r = checkBundle(req);
      r.status = Status::Error;
      r.error = e.what();
      return r;
    }
    req.bundle = dir->path();
  }
  Result r = checkBundle(req);
  if (dir) r.received = dir->files();
  if (dryRun && req.command == "run")
    r.warnings.push_back("dry run: the bundle was checked, not launched");
  return r;  // the upload directory goes here
}

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

int serve(const Request &defaults, bool dryRun) {
  // Bundles uploaded to runners that were killed before they could remove them.
  if (int n = sweepStaleUploads())
    std::fprintf(stderr, "stagecraft-run: removed %d upload directories of runners no longer running\n", n);
  std::string setupError;
  std::unique_ptr<GpuSession> session;
  if (dryRun)
    std::fprintf(stderr, "stagecraft-run: dry run: checking bundles, launching nothing\n");
  else
    session = GpuSession::open(&setupError);
  if (!session && !dryRun)
    std::fprintf(stderr, "stagecraft-run: %s (answering every request with this error)\n", setupError.c_str());
  else if (session)
    std::fprintf(stderr, "stagecraft-run: serving on %s\n", session->device().name.c_str());

  std::string line;
  bool tooLong = false;
  while (readBoundedLine(std::cin, line, kMaxUploadLineBytes, &tooLong)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!tooLong && line.find_first_not_of(" \t") == std::string::npos) continue;
    stagecraft::json::Value id;
    Request req;
    try {
      if (tooLong)
        throw std::invalid_argument("request line longer than " +
                                    std::to_string(kMaxUploadLineBytes >> 20) + " MiB");
      req = parseRequest(line, defaults, &id);
      if (line.size() > kMaxRequestLine && !req.hasUpload)
        throw std::invalid_argument("request line longer than 1 MiB (only a request with an "
                                    "\"upload\" may be longer)");
    } catch (const std::exception &e) {
      Request bad = defaults;
      bad.id = id;
      writeStdoutLine(serializeResult(errorResult(bad, std::string("bad request: ") + e.what())));
      continue;
    }
    line.clear();
    line.shrink_to_fit();  // an upload's line can be large; its files are in req now
    if (req.command == "check" || (dryRun && req.command == "run")) {
      writeStdoutLine(serializeResult(checkRequest(std::move(req), dryRun)));
      continue;
    }
    if (req.command == "ping") {
      Result r = session ? session->ping(req) : dryRun ? dryPing(req) : errorResult(req, setupError);
      if (req.hasProbe) r.probe = probeMatches(req.probePath, req.probeToken);
      writeStdoutLine(serializeResult(r));
      continue;
    }
    if (!session) {
      writeStdoutLine(serializeResult(errorResult(req, setupError)));
      continue;
    }
    Result r;
    {
      // An uploaded bundle lives in a private directory for the length of this block: it is
      // removed before the answer is written, also before a faulted process exits below.
      std::unique_ptr<UploadDir> dir;
      if (req.hasUpload) {
        try {
          dir = UploadDir::create(req.upload);
          req.bundle = dir->path();
          req.upload.clear();
        } catch (const std::exception &e) {
          writeStdoutLine(serializeResult(errorResult(req, e.what())));
          continue;
        }
      }
      r = session->run(req);
      if (dir) r.received = dir->files();
    }
    writeStdoutLine(serializeResult(r));
    if (session->contextDead()) {
      std::fprintf(stderr, "stagecraft-run: the CUDA context is dead after a fault; exiting so the caller restarts the runner\n");
      std::fflush(stderr);
      // _exit: destructors would call into the dead context.
      std::_Exit(kExitFault);
    }
  }
  return session || dryRun ? kExitOk : kExitError;
}

int runOnce(const Request &req) {
  // Check the bundle first, as --serve's check does: a bad manifest or a
  // missing or broken kernel file is reported the same with or without a GPU.
  Result checked = checkBundle(req);
  if (checked.status == Status::Error) {
    writeStdoutLine(serializeResult(errorResult(req, checked.error)));
    return kExitError;
  }
  std::string setupError;
  std::unique_ptr<GpuSession> session = GpuSession::open(&setupError, /*timing=*/!req.untimed);
  if (!session) {
    // The bundle's own warnings (an unknown manifest field) still say what
    // the check found (they were dropped: the ninth sweep's M17).
    Result r = errorResult(req, setupError);
    r.warnings = checked.warnings;
    writeStdoutLine(serializeResult(r));
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
  bool dryRun = false;
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
    } else if (a == "--dry-run") {
      dryRun = true;
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
    } else if (a == "--untimed") {
      req.untimed = true;
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
  if (usageError.empty() && dryRun && !serveMode) usageError = "--dry-run goes with --serve";
  if (usageError.empty() && req.untimed && (serveMode || req.trace))
    usageError = "--untimed takes one bundle and no --trace (it times nothing)";
  if (usageError.empty() && !serveMode && req.bundle.empty()) usageError = "no bundle directory given";
  if (!usageError.empty()) {
    std::fprintf(stderr, "stagecraft-run: %s\n%s", usageError.c_str(), kUsage);
    writeStdoutLine(serializeResult(errorResult(req, "usage: " + usageError)));
    return kExitError;
  }
  return serveMode ? serve(req, dryRun) : runOnce(req);
}
