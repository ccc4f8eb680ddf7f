//===- RunnerClient.cpp - the runner process, supervised ------------------===//
#include "app/RunnerClient.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace stagecraft::app;

const char *stagecraft::app::runnerStateName(RunnerState s) {
  switch (s) {
  case RunnerState::Stopped: return "stopped";
  case RunnerState::Starting: return "starting";
  case RunnerState::Ready: return "ready";
  case RunnerState::Unavailable: return "unavailable";
  }
  return "?";
}

const char *stagecraft::app::uploadModeName(UploadMode m) {
  switch (m) {
  case UploadMode::Auto: return "auto";
  case UploadMode::Always: return "always";
  case UploadMode::Never: return "never";
  }
  return "?";
}

bool stagecraft::app::parseUploadMode(const std::string &text, UploadMode &mode) {
  for (UploadMode m : {UploadMode::Auto, UploadMode::Always, UploadMode::Never})
    if (text == uploadModeName(m)) {
      mode = m;
      return true;
    }
  return false;
}

namespace {
constexpr size_t kStderrLines = 40;

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
      .count();
}

std::string describeWaitStatus(int status) {
  if (WIFEXITED(status))
    return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return std::string("was killed by signal ") +
           std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  return "stopped";
}
} // namespace

RunnerClient::RunnerClient(RunnerOptions options)
    : options_(std::move(options)) {
  // A write to a runner that just died must fail with EPIPE, not kill the
  // app with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
}

RunnerClient::~RunnerClient() {
  stop();
  removeProbe();
  // Children killed with SIGKILL die promptly; reap what is left so none
  // outlives us as a zombie of a long-running test process.
  for (pid_t z : zombies_)
    waitpid(z, nullptr, 0);
}

void RunnerClient::setCommand(const std::string &command) {
  if (command == options_.command)
    return;
  options_.command = command;
  if (state_ != RunnerState::Stopped)
    restart();
}

bool RunnerClient::spawn() {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0)
    return false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]); close(in[1]);
    return false;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(in[0]); close(in[1]); close(out[0]); close(out[1]);
    return false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
      close(fd);
    return false;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec. Its own process group,
    // so a kill reaches what the shell started (ssh, the runner).
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execl("/bin/sh", "sh", "-c", options_.command.c_str(), (char *)nullptr);
    _exit(127);
  }
  setpgid(pid, pid); // also here: no race with the kill below
  close(in[0]);
  close(out[1]);
  close(err[1]);
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  pid_ = pid;
  inFd_ = in[1];
  {
    std::lock_guard<std::mutex> lock(linesMutex_);
    outLines_.clear();
    errLines_.clear();
  }
  stopReader_ = false;
  reader_ = std::thread([this, o = out[0], e = err[0]] { readerLoop(o, e); });
  return true;
}

void RunnerClient::readerLoop(int outFd, int errFd) {
  std::string partial[2];
  int fds[2] = {outFd, errFd};
  bool open[2] = {true, true};
  char buf[65536];
  while (!stopReader_ && (open[0] || open[1])) {
    pollfd p[2];
    int n = 0;
    int which[2];
    for (int i = 0; i < 2; ++i)
      if (open[i]) {
        p[n] = {fds[i], POLLIN, 0};
        which[n++] = i;
      }
    // A timeout, so that stop() can always join this thread.
    int r = ::poll(p, n, 50);
    if (r < 0 && errno != EINTR)
      break;
    for (int k = 0; k < n && r > 0; ++k) {
      if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      int i = which[k];
      ssize_t got = read(fds[i], buf, sizeof buf);
      if (got <= 0) {
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
          continue;
        open[i] = false;
        if (!partial[i].empty()) {
          std::lock_guard<std::mutex> lock(linesMutex_);
          (i == 0 ? outLines_ : errLines_).push_back(partial[i]);
          partial[i].clear();
        }
        continue;
      }
      partial[i].append(buf, got);
      size_t nl;
      std::lock_guard<std::mutex> lock(linesMutex_);
      while ((nl = partial[i].find('\n')) != std::string::npos) {
        std::string line = partial[i].substr(0, nl);
        if (!line.empty() && line.back() == '\r')
          line.pop_back();
        partial[i].erase(0, nl + 1);
        if (i == 0) {
          outLines_.push_back(std::move(line));
        } else {
          errLines_.push_back(std::move(line));
          while (errLines_.size() > kStderrLines)
            errLines_.pop_front();
        }
      }
    }
  }
  close(outFd);
  close(errFd);
}

void RunnerClient::setUploadMode(UploadMode mode) {
  if (mode == options_.upload)
    return;
  options_.upload = mode;
  if (state_ != RunnerState::Stopped)
    restart();
}

void RunnerClient::removeProbe() {
  if (!probeFile_.empty())
    unlink(probeFile_.c_str());
  probeFile_.clear();
}

void RunnerClient::start() {
  if (state_ == RunnerState::Starting || state_ == RunnerState::Ready)
    return;
  device_.clear();
  uploading_ = options_.upload == UploadMode::Always;
  if (options_.command.empty()) {
    state_ = RunnerState::Unavailable;
    reason_ = options_.noCommandReason.empty()
                  ? "no runner command (set one in the Runs panel, or --runner)"
                  : options_.noCommandReason;
    return;
  }
  if (!spawn()) {
    state_ = RunnerState::Unavailable;
    reason_ = std::string("cannot start the runner: ") + strerror(errno);
    return;
  }
  reason_.clear();
  state_ = RunnerState::Starting;
  startedAt_ = Clock::now();
  pingId_ = nextId_++;
  removeProbe();
  if (options_.upload == UploadMode::Auto && !options_.probeDir.empty()) {
    // A file only this app could have written: if the runner reads this
    // token, it sees the app's bundles under the same paths.
    std::random_device rd;
    char token[33];
    std::snprintf(token, sizeof token, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
    probeToken_ = token;
    std::error_code ec; // when it cannot be written, the runner cannot read it: uploads
    std::filesystem::create_directories(options_.probeDir, ec);
    std::string path = options_.probeDir + "/.runner-probe-" + std::to_string(getpid()) + "-" +
                       std::to_string(pingId_);
    std::ofstream(path) << probeToken_ << "\n";
    probeFile_ = path;
    writeBuffer_ = pingRequestLine(pingId_, path, probeToken_) + "\n";
  } else {
    writeBuffer_ = pingRequestLine(pingId_) + "\n";
  }
  flushWrites();
}

void RunnerClient::killChild(const std::string &why) {
  (void)why;
  removeProbe();
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    // Never waitpid() blocking here: a process stuck in the GPU driver can
    // take a while to die. Reap it later.
    zombies_.push_back(pid_);
    pid_ = -1;
  }
  if (inFd_ >= 0) {
    close(inFd_);
    inFd_ = -1;
  }
  writeBuffer_.clear();
  stopReader_ = true;
  if (reader_.joinable())
    reader_.join();
  reapZombies();
}

void RunnerClient::reapZombies() {
  for (size_t i = 0; i < zombies_.size();) {
    if (waitpid(zombies_[i], nullptr, WNOHANG) != 0)
      zombies_.erase(zombies_.begin() + i);
    else
      ++i;
  }
}

void RunnerClient::stop() {
  if (pid_ > 0) {
    // A polite end first (the runner exits on end of input), but never wait
    // long for it.
    if (inFd_ >= 0) {
      close(inFd_);
      inFd_ = -1;
    }
    for (int i = 0; i < 20; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      usleep(5000);
    }
  }
  killChild("stopped");
  state_ = RunnerState::Stopped;
  if (inFlight_) {
    queue_.push_front(*inFlight_);
    inFlight_.reset();
  }
}

void RunnerClient::restart() {
  stop();
  autoRestarts_ = 0;
  reason_.clear();
  start();
}

uint64_t RunnerClient::submit(const std::string &bundleDir) {
  Request r;
  r.id = nextId_++;
  r.bundleDir = bundleDir; // the request line is made when it is sent (path or upload)
  queue_.push_back(std::move(r));
  if (state_ == RunnerState::Stopped)
    start();
  return queue_.back().id;
}

void RunnerClient::flushWrites() {
  while (!writeBuffer_.empty() && inFd_ >= 0) {
    ssize_t n = write(inFd_, writeBuffer_.data(), writeBuffer_.size());
    if (n > 0) {
      writeBuffer_.erase(0, n);
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    break; // EAGAIN: the runner is busy reading; EPIPE: it died (poll sees it)
  }
}

std::string RunnerClient::lastStderrLine() const {
  std::lock_guard<std::mutex> lock(linesMutex_);
  for (auto it = errLines_.rbegin(); it != errLines_.rend(); ++it)
    if (it->find_first_not_of(" \t") != std::string::npos)
      return *it;
  return "";
}

std::vector<std::string> RunnerClient::stderrTail() const {
  std::lock_guard<std::mutex> lock(linesMutex_);
  return {errLines_.begin(), errLines_.end()};
}

std::string RunnerClient::stateText() const {
  switch (state_) {
  case RunnerState::Stopped: return "runner stopped";
  case RunnerState::Starting: return "runner starting";
  case RunnerState::Ready:
    return "runner ready" + (device_.empty() ? "" : ": " + device_) +
           (uploading_ ? " (bundles sent in the requests)" : "");
  case RunnerState::Unavailable: return "runner unavailable: " + reason_;
  }
  return "";
}

void RunnerClient::failQueued(const std::string &reason,
                              std::vector<RunnerEvent> &events) {
  for (const Request &r : queue_) {
    RunnerEvent e;
    e.kind = RunnerEvent::Kind::Failed;
    e.request = r.id;
    e.reason = reason;
    events.push_back(std::move(e));
  }
  queue_.clear();
}

void RunnerClient::handleLine(const std::string &line,
                              std::vector<RunnerEvent> &events) {
  RunnerReply reply;
  std::string error;
  if (!parseRunnerReply(line, reply, error))
    return; // not a result (a stray line): the protocol says stdout is JSON
  if (reply.id && *reply.id == pingId_) {
    if (!probeFile_.empty()) {
      // It says it cannot read the probe: send bundles. A runner that does
      // not answer probes does not take uploads either: send paths.
      uploading_ = reply.probe && !*reply.probe;
      removeProbe();
    }
    if (reply.status == "ok") {
      state_ = RunnerState::Ready;
      device_ = reply.deviceName;
      reason_.clear();
    } else {
      // E.g. "no CUDA device": the runner answers every request so. Say it
      // once, plainly, and do not send it work.
      state_ = RunnerState::Unavailable;
      reason_ = reply.error.empty() ? reply.status : reply.error;
      killChild("unavailable");
    }
    return;
  }
  if (inFlight_ && (!reply.id || *reply.id == inFlight_->id)) {
    RunnerEvent e;
    e.kind = RunnerEvent::Kind::Result;
    e.request = inFlight_->id;
    e.reply = std::move(reply);
    if (e.reply.deviceName.empty())
      e.reply.deviceName = device_;
    events.push_back(std::move(e));
    inFlight_.reset();
    autoRestarts_ = 0;
  }
}

void RunnerClient::handleExit(const std::string &how,
                              std::vector<RunnerEvent> &events) {
  std::string detail = lastStderrLine();
  std::string what = "the runner " + how + (detail.empty() ? "" : ": " + detail);
  bool wasStarting = state_ == RunnerState::Starting;
  killChild(what); // joins the reader, closes pipes
  if (inFlight_) {
    RunnerEvent e;
    e.kind = RunnerEvent::Kind::Failed;
    e.request = inFlight_->id;
    e.reason = "crashed: " + what;
    events.push_back(std::move(e));
    inFlight_.reset();
  }
  if (wasStarting || autoRestarts_ >= options_.maxAutoRestarts) {
    // Never answered (no GPU, not installed, ssh failed) or keeps dying:
    // wait for the user to restart it.
    state_ = RunnerState::Unavailable;
    reason_ = wasStarting ? what : what + " (" +
                                       std::to_string(autoRestarts_) +
                                       " restarts in a row; press Restart)";
    return;
  }
  // A runner exits on purpose after a kernel fault (its CUDA context is
  // dead), or crashed: restart it for the next request.
  ++autoRestarts_;
  ++totalRestarts_;
  state_ = RunnerState::Stopped;
  start();
}

std::vector<RunnerEvent> RunnerClient::poll() {
  std::vector<RunnerEvent> events;
  reapZombies();

  std::deque<std::string> lines;
  {
    std::lock_guard<std::mutex> lock(linesMutex_);
    lines.swap(outLines_);
  }
  for (const std::string &line : lines)
    handleLine(line, events);

  if (pid_ > 0) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      // Lines written just before the exit may still be in the pipe.
      stopReader_ = true;
      if (reader_.joinable())
        reader_.join();
      {
        std::lock_guard<std::mutex> lock(linesMutex_);
        lines.swap(outLines_);
        outLines_.clear();
      }
      for (const std::string &line : lines)
        handleLine(line, events);
      if (state_ == RunnerState::Unavailable) // told us why, then exited
        killChild("exited");
      else
        handleExit(describeWaitStatus(status) +
                       (WIFEXITED(status) && WEXITSTATUS(status) == 127
                            ? " (command not found)"
                            : ""),
                   events);
    }
  }

  if (state_ == RunnerState::Starting &&
      secondsSince(startedAt_) > options_.startTimeoutSeconds) {
    killChild("no answer");
    state_ = RunnerState::Unavailable;
    reason_ = "the runner did not answer within " +
              std::to_string(static_cast<int>(options_.startTimeoutSeconds)) +
              " s (killed)";
  }
  if (inFlight_ &&
      secondsSince(inFlight_->sent) > options_.requestTimeoutSeconds) {
    RunnerEvent e;
    e.kind = RunnerEvent::Kind::Failed;
    e.request = inFlight_->id;
    e.reason = "hung: no answer within " +
               std::to_string(static_cast<int>(options_.requestTimeoutSeconds)) +
               " s; the runner was killed and restarted";
    events.push_back(std::move(e));
    inFlight_.reset();
    killChild("hung");
    state_ = RunnerState::Stopped;
    ++totalRestarts_;
    start();
  }

  if (state_ == RunnerState::Unavailable)
    failQueued("not run: " + stateText(), events);
  while (state_ == RunnerState::Ready && !inFlight_ && !queue_.empty() &&
         writeBuffer_.empty()) {
    Request next = std::move(queue_.front());
    queue_.pop_front();
    std::string line = runRequestLine(next.id, next.bundleDir, options_.trace), error;
    if (uploading_ && !uploadRunRequestLine(next.id, next.bundleDir, line, error, options_.trace)) {
      RunnerEvent e;
      e.kind = RunnerEvent::Kind::Failed;
      e.request = next.id;
      e.reason = error;
      events.push_back(std::move(e));
      continue;
    }
    inFlight_ = std::move(next);
    inFlight_->sent = Clock::now();
    writeBuffer_ = line + "\n";
  }
  flushWrites();
  return events;
}
