//===- SharedPipe.h - a pipe the warp groups share -------------*- C++ -*-===//
//
// The SM's tensor cores and CUDA cores as the model sees them: every warp
// group keeps its own queue of jobs (wgmma groups run in order within a warp
// group). On the CUDA cores the jobs at the heads of the queues progress
// together, each at 1/n of the pipe's rate when n are running: the
// sub-partition's ALUs alternate between the warps of two warp groups
// instruction by instruction. The tensor cores take wgmma groups in the order
// they were issued (FirstIssued): two groups issued together finish one after
// the other, so two consumer warp groups that start together drift half an
// MMA apart and one's softmax runs under the other's MMA, as the H100's
// measured timelines show (bench/results/timeline-measured-h100-2026-11-23-
// run3: the consumers of the attention kernel one MMA0 apart). Sharing in
// equal parts kept them in lock step for ever. (Internal to core/Timeline.)
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_SHAREDPIPE_H
#define STAGECRAFT_CORE_TIMELINE_SHAREDPIPE_H

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace stagecraft::timeline {

class SharedPipe {
public:
  enum class Order { Together, FirstIssued };
  explicit SharedPipe(Order order = Order::Together) : order_(order) {}

  struct Done {
    uint64_t id;
    int owner;
    double start; // when it reached the head of its queue (FirstIssued: began running)
    double end;
  };

  /// Queues `work` cycles for `owner` at time `t` (>= every earlier call).
  uint64_t submit(double t, int owner, double work) {
    advance(t);
    std::deque<Job> &q = queues_[owner];
    q.push_back({nextId_, work, q.empty() && order_ == Order::Together ? t : -1.0});
    ++version_;
    return nextId_++;
  }

  /// When the next head completes if nothing else arrives (infinity if idle).
  double nextCompletion() const {
    int n = active();
    if (n == 0)
      return std::numeric_limits<double>::infinity();
    if (order_ == Order::FirstIssued)
      return last_ + std::max(0.0, first()->remaining) / rate_;
    double least = std::numeric_limits<double>::infinity();
    for (const auto &[owner, q] : queues_)
      if (!q.empty())
        least = std::min(least, q.front().remaining);
    return last_ + std::max(0.0, least) * n / rate_;
  }

  /// From `t` on, the pipe runs at `rate` of its full speed (the other
  /// pipe's traffic slows it down).
  void setRate(double t, double rate) {
    advance(t);
    if (rate != rate_) {
      rate_ = rate;
      ++version_;
    }
  }

  /// Advances to `t` and takes every head that has finished by then.
  std::vector<Done> complete(double t) {
    advance(t);
    std::vector<Done> done;
    for (auto &[owner, q] : queues_) {
      while (!q.empty() && q.front().remaining <= kEpsilon) {
        // A job of no work never ran: it starts and ends now.
        done.push_back({q.front().id, owner, q.front().start < 0 ? t : q.front().start, t});
        q.pop_front();
        if (!q.empty() && order_ == Order::Together)
          q.front().start = t;
      }
    }
    if (!done.empty())
      ++version_;
    return done;
  }

  /// Work (cycles at full rate) still to run before job `id` starts: the
  /// remaining work of every job issued before it (FirstIssued), or of the
  /// jobs ahead of it in its owner's queue (Together).
  double workAhead(uint64_t id) const {
    double w = 0;
    for (const auto &[owner, q] : queues_) {
      bool ahead = order_ == Order::FirstIssued ||
                   std::any_of(q.begin(), q.end(), [&](const Job &j) { return j.id == id; });
      for (const Job &j : q)
        if (ahead && j.id < id)
          w += std::max(0.0, j.remaining);
    }
    return w;
  }
  double rate() const { return rate_; }

  int active() const {
    int n = 0;
    for (const auto &[owner, q] : queues_)
      n += !q.empty();
    return n;
  }
  /// Changes with every arrival and completion: a scheduled completion check
  /// of an older version is stale.
  uint64_t version() const { return version_; }
  /// Intervals with at least one job running.
  const std::vector<std::pair<double, double>> &busy() const { return busy_; }

private:
  static constexpr double kEpsilon = 1e-6;
  struct Job {
    uint64_t id;
    double remaining;
    double start;
  };
  /// The head issued first (ids rise with issue).
  const Job *first() const {
    const Job *f = nullptr;
    for (const auto &[owner, q] : queues_)
      if (!q.empty() && (!f || q.front().id < f->id))
        f = &q.front();
    return f;
  }
  void advance(double t) {
    int n = active();
    if (n > 0 && t > last_) {
      if (order_ == Order::FirstIssued) {
        Job *f = const_cast<Job *>(first());
        if (f->start < 0)
          f->start = last_; // it starts running now
        f->remaining -= (t - last_) * rate_;
      } else {
        double each = (t - last_) * rate_ / n;
        for (auto &[owner, q] : queues_)
          if (!q.empty())
            q.front().remaining -= each;
      }
      if (!busy_.empty() && busy_.back().second >= last_ - kEpsilon)
        busy_.back().second = t;
      else
        busy_.push_back({last_, t});
    }
    last_ = std::max(last_, t);
  }

  Order order_;
  std::map<int, std::deque<Job>> queues_;
  double last_ = 0;
  double rate_ = 1;
  uint64_t nextId_ = 0;
  uint64_t version_ = 0;
  std::vector<std::pair<double, double>> busy_;
};

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_SHAREDPIPE_H
