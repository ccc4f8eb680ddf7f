//===- CompileJobs.cpp - background compiles, newest edit wins ------------===//
#include "app/CompileJobs.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

using namespace stagecraft;
using namespace stagecraft::app;
using Clock = std::chrono::steady_clock;

CompileBackend CompileBackend::driver() {
  CompileBackend b;
  b.compile = [](const std::string &source, const std::string &name,
                 const CompileOptions &options) {
    return stagecraft::compile(source, name, options);
  };
  b.writeBundle = [](const CompileResult &r, const std::string &dir) {
    if (llvm::Error e = stagecraft::writeBundle(r, dir))
      return llvm::toString(std::move(e));
    return std::string();
  };
  return b;
}

CompileJobs::CompileJobs(CompileBackend backend)
    : backend_(std::move(backend)), worker_([this] { workerLoop(); }) {}

CompileJobs::~CompileJobs() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queued_.reset();
    if (runningCancel_)
      runningCancel_->store(true);
  }
  wake_.notify_all();
  worker_.join();
}

uint64_t CompileJobs::submit(CompileRequest request) {
  Job job;
  job.request = std::move(request);
  job.cancel = std::make_shared<std::atomic<bool>>(false);
  job.request.options.cancel = job.cancel;
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    id = job.id = ++newest_;
    if (queued_)
      ++superseded_;
    if (runningCancel_ && !runningCancel_->load()) {
      runningCancel_->store(true);
      ++superseded_;
    }
    queued_ = std::move(job);
    // Results of older jobs still waiting to be taken are stale now.
    results_.clear();
  }
  wake_.notify_all();
  return id;
}

std::optional<CompileOutcome> CompileJobs::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!results_.empty()) {
    CompileOutcome o = std::move(results_.front());
    results_.pop_front();
    if (o.job == newest_)
      return o;
  }
  return std::nullopt;
}

bool CompileJobs::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queued_.has_value() || runningId_ != 0;
}

uint64_t CompileJobs::newest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return newest_;
}

double CompileJobs::runningSeconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!runningId_)
    return 0;
  return std::chrono::duration<double>(Clock::now() - runningSince_).count();
}

uint64_t CompileJobs::supersededCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return superseded_;
}

void CompileJobs::publish(CompileOutcome outcome) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (outcome.job == newest_) {
    results_.push_back(std::move(outcome));
    return;
  }
  // A newer job exists: this result is stale, and so is its bundle.
  lock.unlock();
  if (!outcome.bundleDir.empty())
    llvm::sys::fs::remove_directories(outcome.bundleDir);
}

void CompileJobs::workerLoop() {
  while (true) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || queued_.has_value(); });
      if (stopping_)
        return;
      job = std::move(*queued_);
      queued_.reset();
      runningId_ = job.id;
      runningCancel_ = job.cancel;
      runningSince_ = Clock::now();
    }

    // One compile; its callbacks publish the first two phases as they come.
    auto jobStart = Clock::now();
    auto outcome = [&](CompileOutcome::Phase phase, CompileResult result) {
      CompileOutcome o;
      o.job = job.id;
      o.phase = phase;
      o.result = std::move(result);
      o.seconds = std::chrono::duration<double>(Clock::now() - jobStart).count();
      return o;
    };
    bool checkedPublished = false;
    CompileOptions options = job.request.options;
    options.scheduleOnly = job.request.scheduleOnly;
    options.onScheduleChecked = [&](const CompileResult &r) {
      checkedPublished = true;
      publish(outcome(CompileOutcome::Phase::ScheduleChecked, r));
    };
    options.onPtx = [&](const CompileResult &r) {
      publish(outcome(CompileOutcome::Phase::Ptx, r));
    };
    CompileResult result =
        backend_.compile(job.request.source, job.request.sourceName, options);
    // A compile that stopped at the schedule (as asked, or on an illegal
    // schedule) never called onScheduleChecked: its result is that phase.
    bool stoppedAtCheck = false;
    if (!checkedPublished && result.status != CompileResult::Status::Cancelled) {
      stoppedAtCheck =
          job.request.scheduleOnly || result.status == CompileResult::Status::Error;
      publish(outcome(CompileOutcome::Phase::ScheduleChecked, result));
    }
    if (!stoppedAtCheck) {
      CompileOutcome full = outcome(CompileOutcome::Phase::Full, std::move(result));
      if (full.result.ok() && !job.request.bundleDir.empty() && backend_.writeBundle &&
          !job.cancel->load()) {
        full.bundleError = backend_.writeBundle(full.result, job.request.bundleDir);
        if (full.bundleError.empty())
          full.bundleDir = job.request.bundleDir;
        full.seconds = std::chrono::duration<double>(Clock::now() - jobStart).count();
      }
      publish(std::move(full));
    }

    std::lock_guard<std::mutex> lock(mutex_);
    runningId_ = 0;
    runningCancel_.reset();
  }
}
