//===- SmRun.cpp - the event loop of one SM -------------------------------===//
//
// Every warp group is a little program with a current time. Events are
// taken in time order: a warp group's next step, or a shared pipe's next
// completion. A step that needs something not known yet (a load not issued,
// a buffer not released, a wgmma group or a math job not finished) blocks
// until it is; a step that must wait re-queues at the later time. The TMA
// engine serves loads first come first served; the tensor cores and the
// CUDA cores are shared in equal parts by the warp groups using them
// (SharedPipe.h).
//
//===----------------------------------------------------------------------===//
#include "core/Timeline/SmRun.h"
#include "core/Timeline/SharedPipe.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <queue>

using namespace stagecraft;
using namespace stagecraft::timeline;
using llvm::formatv;

namespace {

constexpr double kUnknown = -1;

class SmRun {
public:
  SmRun(const Plan &plan, const LoopGraph &g, const HopperModel &model, int64_t trip,
        int64_t tileTrip, int ctas, bool record, const SimOptions &options);
  RunResult run();

private:
  struct Group {
    unsigned unit;
    int64_t iter;    // -1: an empty group (the dot was predicated off)
    int64_t job;     // tensor job, -1 for an empty group
    double complete; // kUnknown until the job is done
  };
  struct WgRun {
    double now = 0;
    int64_t k = 0;  // kernel iteration
    size_t pos = 0; // next unit (units.size(): the end-of-iteration step)
    int phase = 0;
    double unitStart = 0;
    bool done = false;
    std::vector<Group> groups;
    size_t retired = 0;
    std::vector<std::vector<int64_t>> groupOf; // unit -> source iteration -> group index
    int64_t mathJob = -1;
    double waitStart = -1;
    std::string waitReason;
    bool turnHeld = false; // staggered: inside its turn of kernel iteration k; ping-pong: of its tile
    int64_t tile = 0;      // a persistent kernel's consumers: the tile (k counts within it)
  };
  struct LoadState {
    std::vector<double> ready, release, releaseMax;
    std::vector<int> pending;
    bool noReaders = false;
  };
  struct Cta {
    std::vector<WgRun> wgs;
    std::vector<LoadState> loads;
    /// Staggered consumers: turnGiven[j][k] is when warp group j of the
    /// math group was handed its turn of kernel iteration k (kUnknown until
    /// the other one hands it over).
    std::vector<std::vector<double>> turnGiven;
    /// Ping-pong teams: tileTurn[t] is when the team of tile t was handed
    /// its turn at the tensor cores (kUnknown until the other team hands it
    /// over).
    std::vector<double> tileTurn;
    /// The epilogue: the consumers that reached its panels, when the last
    /// did, when its last panel was issued and when its stores had read
    /// their staging (kUnknown until then).
    /// Per tile (a persistent kernel's consumers run one after each).
    std::vector<int> epilogueArrived;
    std::vector<double> epilogueReady, epilogueEnd, storesRead;
  };
  /// Something a blocked warp group waits for.
  struct Key {
    int kind; // 0: a load ready, 1: a buffer released, 2: a tensor job, 3: a math job,
              // 4: a staggered turn (a: warp group in its group, b: kernel iteration),
              // 5: the epilogue's panels stored, 6: a ping-pong team's turn (a: tile)
    int cta;
    int64_t a, b;
    bool operator<(const Key &o) const {
      return std::tie(kind, cta, a, b) < std::tie(o.kind, o.cta, o.a, o.b);
    }
  };
  struct Event {
    double time;
    uint64_t seq;
    int kind; // 0: a warp group step, 1: tensor pipe check, 2: math pipe check
    int cta, wg;
    uint64_t version;
    bool operator>(const Event &o) const {
      return time != o.time ? time > o.time : seq > o.seq;
    }
  };

  int owner(int cta, int wg) const { return cta * static_cast<int>(plan_.wgs.size()) + wg; }
  void push(int cta, int wg) {
    events_.push({ctas_[cta].wgs[wg].now, seq_++, 0, cta, wg, 0});
  }
  void schedulePipe(int kind) {
    SharedPipe &p = kind == 1 ? tensor_ : math_;
    uint64_t &scheduled = kind == 1 ? tensorScheduled_ : mathScheduled_;
    if (scheduled == p.version())
      return; // that check is already queued
    double t = p.nextCompletion();
    if (t != std::numeric_limits<double>::infinity()) {
      events_.push({t, seq_++, kind, -1, -1, p.version()});
      scheduled = p.version();
    }
  }
  void block(const Key &key, int cta, int wg, const std::string &reason) {
    WgRun &r = ctas_[cta].wgs[wg];
    if (r.waitStart < 0) {
      r.waitStart = r.now;
      r.waitReason = reason;
    }
    waiters_[key].push_back({cta, wg});
  }
  void resolve(const Key &key, double t) {
    auto it = waiters_.find(key);
    if (it == waiters_.end())
      return;
    for (auto [c, w] : it->second) {
      WgRun &r = ctas_[c].wgs[w];
      r.now = std::max(r.now, t);
      push(c, w);
    }
    waiters_.erase(it);
  }
  /// Moves a warp group's time forward for a wait, and remembers why.
  void waitUntil(int cta, int wg, double t, const std::string &reason) {
    WgRun &r = ctas_[cta].wgs[wg];
    if (r.waitStart < 0) {
      r.waitStart = r.now;
      r.waitReason = reason;
    }
    r.now = t;
    push(cta, wg);
  }
  void endWait(int cta, WgRun &r) {
    if (r.waitStart >= 0 && r.now > r.waitStart && cta == 0) {
      bool consumer = plan_.wgs[&r - ctas_[cta].wgs.data()].computes;
      result_.waits.push_back({r.waitStart, r.now, r.waitReason, consumer});
    }
    r.waitStart = -1;
  }

  bool step(int cta, int wg);
  bool stepLoad(int cta, int wg, unsigned u, int64_t i);
  bool stepDot(int cta, int wg, unsigned u, int64_t i);
  bool stepCompute(int cta, int wg, unsigned u, int64_t i);
  bool stepEndOfIteration(int cta, int wg);
  bool stepEpilogue(int cta, int wg);
  void storePanels(int cta, int64_t tile);
  /// A persistent kernel's consumers run each tile's loop and epilogue in
  /// turn (k counts within the tile, source iterations run on over the
  /// tiles, as the rings count); the producer and staggered consumers run
  /// one loop over all of them.
  bool tiled(int wg) const {
    return (tileTrip_ < trip_ || plan_.wgs[wg].teams > 1) && plan_.wgs[wg].computes &&
           plan_.wgs[wg].turnBegin < 0;
  }
  int64_t tiles() const { return static_cast<int64_t>(ctas_.front().epilogueEnd.size()); }
  /// Ping-pong teams: waits for the team's turn at the tensor cores before
  /// its tile's loop; false while the other team has it.
  bool takeTeamTurn(int cta, int wg);
  /// ... and hands it to the team of the next tile once its loop's wgmma
  /// have retired (before its epilogue).
  void handOverTile(int cta, int wg);
  int64_t tileBase(const WgRun &r, int wg) const { return tiled(wg) ? r.tile * tileTrip_ : 0; }
  int64_t tileTrip(const WgRun &r, int wg) const {
    return tiled(wg) ? std::min(tileTrip_, trip_ - r.tile * tileTrip_) : trip_;
  }
  /// Staggered consumers: waits for this warp group's turn at the body's
  /// dots in its kernel iteration; false while the other has it.
  bool takeTurn(int cta, int wg);
  /// ... and hands it to the other warp group after its last dot.
  void handOver(int cta, int wg);
  bool retireThrough(int cta, int wg, int64_t index, const std::string &reason);
  /// Before a unit that writes a dot's accumulator: in the steady state
  /// (every unit runs) the latest group of each such dot, elsewhere every
  /// group, as the lowering waits (passes/Lowering/Expansion.cpp).
  bool retireAccumulators(int cta, int wg, unsigned u);
  /// Retires the groups of the dot results unit `p` reads in registers (not
  /// as its accumulator) at iteration `i`; false while one is in flight.
  bool retireDotInputs(int cta, int wg, const UnitPlan &p, int64_t i);
  void releaseReader(int cta, unsigned load, int64_t i, double t);
  void pipeDone(int kind);
  /// After an arrival or a completion at `t`: the pipes' rates and their
  /// next completion checks.
  void pipesChanged(double t);
  /// True when the warp group's math job is done (its time moved to the
  /// end); false when it blocked on it.
  /// Submits a unit's register math (`cycles` > 0) to the CUDA cores; its
  /// job is the warp group's mathJob until finishMath.
  void startMath(int cta, int wg, double cycles);
  bool finishMath(int cta, int wg);
  void zone(int cta, int row, unsigned unit, int64_t iter, double start, double end);
  void advanceUnit(WgRun &r) {
    r.phase = 0;
    ++r.pos;
  }

  const Plan &plan_;
  const LoopGraph &g_;
  const HopperModel &m_;
  int64_t trip_;
  int64_t tileTrip_; // iterations per tile (trip_: one)
  bool record_;
  const SimOptions &options_;
  std::vector<Cta> ctas_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t seq_ = 0;
  std::map<Key, std::vector<std::pair<int, int>>> waiters_;
  SharedPipe tensor_{SharedPipe::Order::FirstIssued}, math_;
  uint64_t tensorScheduled_ = UINT64_MAX, mathScheduled_ = UINT64_MAX;
  std::map<uint64_t, std::pair<int, int>> tensorJobs_; // job -> (cta, wg)
  std::map<uint64_t, std::pair<unsigned, int64_t>> tensorJobUnit_;
  std::map<uint64_t, double> mathDone_;
  double tmaFree_ = 0;
  double storeFree_ = 0; // the SM's TMA stores read their panels in order
  int tmaRow_ = -1;
  int storeRow_ = -1; // when the tile is stored: after the TMA row
  std::vector<int> wgmmaRow_; // per warp group: its wgmma row, or -1
  RunResult result_;
};

SmRun::SmRun(const Plan &plan, const LoopGraph &g, const HopperModel &model, int64_t trip,
             int64_t tileTrip, int ctas, bool record, const SimOptions &options)
    : plan_(plan), g_(g), m_(model), trip_(trip),
      tileTrip_(tileTrip > 0 && tileTrip < trip ? tileTrip : trip), record_(record),
      options_(options) {
  ctas_.resize(ctas);
  int64_t tiles = std::max<int64_t>(1, tileTrip_ > 0 ? (trip_ + tileTrip_ - 1) / tileTrip_ : 1);
  for (Cta &c : ctas_) {
    c.epilogueArrived.assign(tiles, 0);
    c.epilogueReady.assign(tiles, 0);
    c.epilogueEnd.assign(tiles, kUnknown);
    c.storesRead.assign(tiles, kUnknown);
    c.wgs.resize(plan.wgs.size());
    for (WgRun &w : c.wgs)
      w.groupOf.assign(plan.units.size(), std::vector<int64_t>(trip, -1));
    c.loads.resize(plan.units.size());
    for (unsigned u = 0; u < plan.units.size(); ++u) {
      const UnitPlan &p = plan.units[u];
      if (p.kind != UnitKind::Load)
        continue;
      LoadState &l = c.loads[u];
      l.ready.assign(trip, kUnknown);
      l.release.assign(trip, kUnknown);
      l.releaseMax.assign(trip, 0);
      // Every warp group of a reader's group reads each buffer, except
      // ping-pong teams: only the team whose tile it is.
      int readers = 0;
      for (unsigned r : p.readers) {
        int64_t grp = plan.units[r].group;
        readers += plan.teamGroup(grp) ? 1 : static_cast<int>(g.warpGroupsOf(grp));
      }
      l.pending.assign(trip, readers);
      l.noReaders = readers == 0;
    }
    int64_t kernelIterations = trip;
    for (const WarpGroupPlan &w : plan.wgs)
      kernelIterations = std::max(kernelIterations, trip + w.span);
    // Warp group 0 has the first turn: warp group 1 arrives on its barrier
    // before the loop.
    c.turnGiven.assign(2, std::vector<double>(kernelIterations + 1, kUnknown));
    c.turnGiven[0][0] = 0;
    // Tile 0's team (team 0) has the first turn: team 1 arrives on its
    // barrier before the tile loop.
    c.tileTurn.assign(tiles, kUnknown);
    c.tileTurn[0] = 0;
    // Each team starts at its own first tile.
    for (size_t w = 0; w < plan.wgs.size(); ++w)
      if (plan.wgs[w].teams > 1)
        c.wgs[w].tile = plan.wgs[w].indexInGroup;
  }
}

bool SmRun::takeTeamTurn(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  double given = ctas_[cta].tileTurn[r.tile];
  std::string why = "its turn at the tensor cores (ping-pong teams)";
  if (given == kUnknown) {
    block({6, cta, r.tile, 0}, cta, wg, why);
    return false;
  }
  double t = r.tile == 0 ? given : given + m_.syncLatencyCycles;
  if (t > r.now) {
    waitUntil(cta, wg, t, why);
    return false;
  }
  endWait(cta, r);
  r.turnHeld = true;
  return true;
}

void SmRun::handOverTile(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  r.turnHeld = false;
  int64_t next = r.tile + 1;
  if (next >= tiles())
    return; // no team takes it: the lowering hands over only to a next tile
  ctas_[cta].tileTurn[next] = r.now;
  resolve({6, cta, next, 0}, r.now + m_.syncLatencyCycles);
}

bool SmRun::takeTurn(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  int j = plan_.wgs[wg].indexInGroup;
  double given = ctas_[cta].turnGiven[j][r.k];
  std::string why = "its turn at the tensor cores (staggered consumers)";
  if (given == kUnknown) {
    block({4, cta, j, r.k}, cta, wg, why);
    return false;
  }
  double t = j == 0 && r.k == 0 ? given : given + m_.syncLatencyCycles;
  if (t > r.now) {
    waitUntil(cta, wg, t, why);
    return false;
  }
  r.turnHeld = true;
  return true;
}

void SmRun::handOver(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  r.turnHeld = false;
  int j = plan_.wgs[wg].indexInGroup;
  // Warp group 0's turn of iteration k goes to warp group 1 in k; warp
  // group 1's to warp group 0 in k + 1.
  int other = 1 - j;
  int64_t k = j == 0 ? r.k : r.k + 1;
  std::vector<double> &given = ctas_[cta].turnGiven[other];
  if (k >= static_cast<int64_t>(given.size()))
    return;
  given[k] = r.now;
  resolve({4, cta, other, k}, r.now + m_.syncLatencyCycles);
}

void SmRun::zone(int cta, int row, unsigned unit, int64_t iter, double start, double end) {
  if (cta == 0 && row < static_cast<int>(plan_.wgs.size()) && plan_.wgs[row].computes &&
      unit < g_.units.size() && iter >= 0 && iter < trip_) // an epilogue is no iteration's
    result_.iterationEnd[iter] = std::max(result_.iterationEnd[iter], end);
  if (!record_ || cta != 0 || row < 0 || end < start)
    return;
  if (options_.displayIterations >= 0 && iter >= options_.displayIterations)
    return;
  if (result_.timeline.zones.size() >= options_.maxZones)
    return;
  Zone z;
  z.start = start * m_.nsPerCycle();
  z.end = end * m_.nsPerCycle();
  z.iteration = static_cast<int32_t>(iter);
  z.row = static_cast<uint16_t>(row);
  z.unit = static_cast<uint16_t>(unit);
  result_.timeline.zones.push_back(z);
}

void SmRun::releaseReader(int cta, unsigned load, int64_t i, double t) {
  if (i < 0 || i >= trip_)
    return;
  LoadState &l = ctas_[cta].loads[load];
  l.releaseMax[i] = std::max(l.releaseMax[i], t);
  if (--l.pending[i] == 0) {
    l.release[i] = l.releaseMax[i];
    resolve({1, cta, load, i}, l.release[i]);
  }
}

bool SmRun::retireDotInputs(int cta, int wg, const UnitPlan &p, int64_t i) {
  WgRun &r = ctas_[cta].wgs[wg];
  for (const auto &d : p.dotDeps) {
    int64_t src = i - d.back;
    if (src < 0)
      continue;
    int64_t idx = r.groupOf[d.dot][src];
    if (idx >= 0 && !retireThrough(cta, wg, idx, g_.units[d.dot].name + " result"))
      return false;
  }
  return true;
}

bool SmRun::retireAccumulators(int cta, int wg, unsigned u) {
  WgRun &r = ctas_[cta].wgs[wg];
  const UnitPlan &p = plan_.units[u];
  bool steady = r.k >= plan_.wgs[wg].span && r.k < tileTrip(r, wg) && !p.accumulatorOf.empty();
  if (!steady)
    return retireThrough(cta, wg, static_cast<int64_t>(r.groups.size()) - 1,
                         "every wgmma before " + g_.units[u].name + " (it writes an accumulator)");
  for (unsigned d : p.accumulatorOf)
    for (int64_t j = static_cast<int64_t>(r.groups.size()) - 1; j >= 0; --j)
      if (r.groups[j].unit == d) {
        if (!retireThrough(cta, wg, j, g_.units[d].name + " (" + g_.units[u].name +
                                           " writes its accumulator)"))
          return false;
        break;
      }
  return true;
}

bool SmRun::retireThrough(int cta, int wg, int64_t index, const std::string &reason) {
  WgRun &r = ctas_[cta].wgs[wg];
  if (index < static_cast<int64_t>(r.retired))
    return true;
  double t = r.now;
  for (int64_t j = r.retired; j <= index; ++j) {
    const Group &grp = r.groups[j];
    if (grp.complete == kUnknown) {
      block({2, cta, grp.job, 0}, cta, wg, reason);
      return false;
    }
    t = std::max(t, grp.complete);
  }
  if (t > r.now) {
    waitUntil(cta, wg, t, reason);
    return false;
  }
  // wgmma.wait_group returns: the buffers their readers used go back.
  for (int64_t j = r.retired; j <= index; ++j)
    if (r.groups[j].iter >= 0)
      for (unsigned l : plan_.units[r.groups[j].unit].loadInputs)
        releaseReader(cta, l, r.groups[j].iter, r.now);
  r.retired = static_cast<size_t>(index + 1);
  return true;
}

bool SmRun::stepLoad(int cta, int wg, unsigned u, int64_t i) {
  WgRun &r = ctas_[cta].wgs[wg];
  const UnitPlan &p = plan_.units[u];
  if (!plan_.wgs[wg].issuesLoads) {
    advanceUnit(r);
    return true;
  }
  LoadState &l = ctas_[cta].loads[u];
  if (r.phase == 0) {
    r.unitStart = r.now;
    r.phase = 1;
  }
  // A free slot: the buffer of iteration i - copies released.
  int64_t prev = i - p.copies;
  if (prev >= 0) {
    std::string why = "a free buffer of " + g_.units[u].name;
    if (l.release[prev] == kUnknown) {
      block({1, cta, u, prev}, cta, wg, why);
      return false;
    }
    double t = l.release[prev] + m_.syncLatencyCycles;
    if (t > r.now) {
      waitUntil(cta, wg, t, why);
      return false;
    }
  }
  endWait(cta, r);
  // expect-tx and one TMA per box; the transfer queues on the SM's share of
  // the L2 bandwidth, then the data lands after the latency.
  double issued = r.now + m_.tmaIssueCycles * p.boxes;
  double start = std::max(issued, tmaFree_);
  double transfer = m_.loadTransferCycles(p.linkBytes, p.bytes);
  tmaFree_ = start + transfer;
  result_.tma.spans.push_back({start, tmaFree_});
  l.ready[i] = tmaFree_ + m_.loadLatencyCycles;
  resolve({0, cta, u, i}, l.ready[i]);
  if (l.noReaders) {
    l.release[i] = l.ready[i];
    resolve({1, cta, u, i}, l.release[i]);
  }
  zone(cta, wg, u, i, r.unitStart, issued);
  zone(cta, tmaRow_, u, i, start, tmaFree_);
  r.now = issued;
  advanceUnit(r);
  push(cta, wg);
  return false;
}

bool SmRun::stepDot(int cta, int wg, unsigned u, int64_t i) {
  WgRun &r = ctas_[cta].wgs[wg];
  const UnitPlan &p = plan_.units[u];
  if (r.phase == 0) {
    r.unitStart = r.now;
    r.phase = 1;
  }
  if (r.phase == 1) {
    if (!retireDotInputs(cta, wg, p, i))
      return false;
    // The full barriers of its shared-memory operands.
    double t = r.now;
    std::string waitedFor;
    for (unsigned l : p.loadInputs) {
      double ready = ctas_[cta].loads[l].ready[i];
      if (ready == kUnknown) {
        block({0, cta, l, i}, cta, wg, g_.units[l].name + " data");
        return false;
      }
      if (ready + m_.syncLatencyCycles > t) {
        t = ready + m_.syncLatencyCycles;
        waitedFor = g_.units[l].name;
      }
    }
    if (t > r.now) {
      waitUntil(cta, wg, t, waitedFor + " data");
      return false;
    }
    endWait(cta, r);
    r.phase = 2;
    // Register math of the dot's unit (what feeds it: upcasts, scaling)
    // runs on the CUDA cores before the wgmma is issued.
    startMath(cta, wg, p.mathCycles);
  }
  if (r.phase == 2) {
    if (r.mathJob >= 0 && !finishMath(cta, wg))
      return false;
    // Issue the wgmma group: the tensor cores take it as soon as this warp
    // group's earlier groups are done, sharing with the other warp groups.
    uint64_t job = tensor_.submit(r.now, owner(cta, wg), p.dotCycles);
    tensorJobs_[job] = {cta, wg};
    tensorJobUnit_[job] = {u, i};
    r.groupOf[u][i] = static_cast<int64_t>(r.groups.size());
    r.groups.push_back({u, i, static_cast<int64_t>(job), kUnknown});
    pipesChanged(r.now);
    double issued = r.now + m_.issueCycles * std::max<int64_t>(1, p.wgmmaInstr / 4);
    if (m_.wgmmaIssueQueue > 0 && p.wgmmaInstr > 0 && tensor_.rate() > 0) {
      // The issue returns once all but wgmmaIssueQueue of its instructions
      // have started (CostModel.h).
      double perInstruction = p.dotCycles / static_cast<double>(p.wgmmaInstr);
      double before = tensor_.workAhead(job) + p.dotCycles - m_.wgmmaIssueQueue * perInstruction;
      double taken = r.now + before / tensor_.rate();
      if (before > 0 && taken > issued) {
        // A wait like the others: the bound's detail can name it.
        if (cta == 0)
          result_.waits.push_back({issued, taken, "the tensor cores to take " + g_.units[u].name,
                                   plan_.wgs[wg].computes});
        issued = taken;
      }
    }
    r.now = issued;
    r.phase = 3;
  }
  zone(cta, wg, u, i, r.unitStart, r.now);
  advanceUnit(r);
  push(cta, wg);
  return false;
}

void SmRun::startMath(int cta, int wg, double cycles) {
  if (cycles <= 0)
    return;
  WgRun &r = ctas_[cta].wgs[wg];
  r.mathJob = static_cast<int64_t>(math_.submit(r.now, owner(cta, wg), cycles));
  pipesChanged(r.now);
}

bool SmRun::stepCompute(int cta, int wg, unsigned u, int64_t i) {
  WgRun &r = ctas_[cta].wgs[wg];
  const UnitPlan &p = plan_.units[u];
  if (r.phase == 0) {
    r.unitStart = r.now;
    r.phase = 1;
  }
  if (r.phase == 1) {
    if (!retireDotInputs(cta, wg, p, i))
      return false;
    if (p.writesAccumulator && !r.groups.empty() && !retireAccumulators(cta, wg, u))
      return false;
    for (unsigned l : p.loadInputs) {
      double ready = ctas_[cta].loads[l].ready[i];
      if (ready == kUnknown) {
        block({0, cta, l, i}, cta, wg, g_.units[l].name + " data");
        return false;
      }
      if (ready + m_.syncLatencyCycles > r.now) {
        waitUntil(cta, wg, ready + m_.syncLatencyCycles, g_.units[l].name + " data");
        return false;
      }
    }
    endWait(cta, r);
    r.phase = 2;
    startMath(cta, wg, p.mathCycles);
  }
  if (r.phase == 2) {
    if (r.mathJob >= 0 && !finishMath(cta, wg))
      return false;
    if (p.storeBytes > 0) {
      double s = std::max(r.now, tmaFree_);
      tmaFree_ = s + m_.transferCycles(p.storeBytes);
      result_.tma.spans.push_back({s, tmaFree_});
    }
    for (unsigned l : p.loadInputs)
      releaseReader(cta, l, i, r.now);
    zone(cta, wg, u, i, r.unitStart, r.now);
    advanceUnit(r);
    push(cta, wg);
  }
  return false;
}

bool SmRun::stepEndOfIteration(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  for (unsigned u : plan_.wgs[wg].units) {
    const UnitPlan &p = plan_.units[u];
    if (p.kind != UnitKind::Dot)
      continue;
    int64_t local = r.k - p.offset, T = tileTrip(r, wg), base = tileBase(r, wg);
    int64_t i = base + local;
    // A carried result that register math reads next iteration is retired
    // before the back edge.
    if (p.carriedRetire && local >= 0 && local < T) {
      int64_t idx = r.groupOf[u][i];
      if (idx >= 0 && !retireThrough(cta, wg, idx, g_.units[u].name + " (carried result)"))
        return false;
    }
    // A register-A dot retires within its kernel iteration.
    if (p.registerA && local >= 0 && local < T) {
      int64_t idx = r.groupOf[u][i];
      if (idx >= 0 &&
          !retireThrough(cta, wg, idx, g_.units[u].name + " (A from registers, retired each iteration)"))
        return false;
    }
    // The rings get their buffers back in time: the group of `ringLag`
    // iterations ago retires by the end of this one (MMA pipelining: a
    // GEMM's `wait`).
    if (p.ringLag != kNoRing) {
      int64_t old = i - p.ringLag;
      if (old >= base && old < base + T) {
        int64_t idx = r.groupOf[u][old];
        if (idx >= 0 &&
            !retireThrough(cta, wg, idx,
                           g_.units[u].name + " in flight (" + std::to_string(p.ringLag) +
                               " group(s) allowed by its rings)"))
          return false;
      }
    }
  }
  endWait(cta, r);
  // The copies of values kept across stages move to the next iteration.
  double carry = plan_.wgs[wg].carryCycles;
  if (carry > 0 && r.phase == 0) {
    r.mathJob = static_cast<int64_t>(math_.submit(r.now, owner(cta, wg), carry));
    pipesChanged(r.now);
    r.phase = 1;
  }
  if (r.mathJob >= 0 && !finishMath(cta, wg))
    return false;
  ++r.k;
  r.pos = 0;
  r.phase = 0;
  return true;
}

bool SmRun::stepEpilogue(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  const WarpGroupPlan &w = plan_.wgs[wg];
  Cta &c = ctas_[cta];
  if (!w.computes) {
    r.done = true;
    return false;
  }
  int64_t t = tiled(wg) ? r.tile : tiles() - 1;
  int64_t nextTile = t + w.teams; // a team's next tile, or the next one
  bool last = nextTile >= tiles();
  if (r.phase == 0) {
    if (!r.groups.empty() &&
        !retireThrough(cta, wg, static_cast<int64_t>(r.groups.size()) - 1, "the last wgmma"))
      return false;
    endWait(cta, r);
    if (w.teams > 1 && r.turnHeld)
      handOverTile(cta, wg);
    r.phase = 1;
    r.unitStart = r.now;
    // With panels to store, the math is the panels' own (storePanels).
    if (plan_.epilogueMathCycles > 0 && plan_.epiloguePanelBytes.empty()) {
      r.mathJob = static_cast<int64_t>(math_.submit(r.now, owner(cta, wg), plan_.epilogueMathCycles));
      pipesChanged(r.now);
    }
  }
  if (r.mathJob >= 0 && !finishMath(cta, wg))
    return false;
  if (r.phase == 1) {
    // Every consumer stages every panel (named barriers over all of them):
    // the panels start when the last one has its values, and all of them
    // leave with the last panel's issue.
    r.phase = 2;
    c.epilogueReady[t] = std::max(c.epilogueReady[t], r.now);
    int consumers = 0;
    for (const WarpGroupPlan &x : plan_.wgs)
      consumers += x.computes;
    consumers /= plan_.teams; // a ping-pong team stores its tile alone
    if (++c.epilogueArrived[t] < consumers) {
      block({5, cta, t, 0}, cta, wg, "the other consumers' epilogue");
      return false;
    }
    if (plan_.epilogueLoadBytes > 0) {
      // The tiles only the epilogue reads: one thread loads them once
      // every consumer is past the loop (ConsumerLoop.cpp), all wait.
      double s = std::max(c.epilogueReady[t] + m_.syncLatencyCycles, tmaFree_);
      tmaFree_ = s + m_.transferCycles(plan_.epilogueLoadBytes);
      result_.tma.spans.push_back({s, tmaFree_});
      c.epilogueReady[t] = tmaFree_ + m_.loadLatencyCycles + m_.syncLatencyCycles;
    }
    storePanels(cta, t);
    resolve({5, cta, t, 0}, c.epilogueEnd[t]);
  }
  r.now = std::max(r.now, c.epilogueEnd[t]);
  endWait(cta, r);
  // The epilogue's zone: the unit after the loop's (Simulator.cpp names
  // it), at the source iteration after the tile's last, where the
  // instrumented kernel records it.
  int64_t after = tiled(wg) ? tileBase(r, wg) + tileTrip(r, wg) : trip_;
  zone(cta, wg, static_cast<unsigned>(g_.units.size()), after, r.unitStart, r.now);
  if (!last) {
    // The next tile: its loop from kernel iteration 0, its source
    // iterations after this one's.
    r.tile = nextTile;
    r.k = 0;
    r.pos = 0;
    r.phase = 0;
    return true;
  }
  // The storing thread (consumer 0's; each ping-pong team's own) waits for
  // the stores to have read their staging before the CTA exits
  // (cp.async.bulk.wait_group.read 0).
  if (w.teams > 1 || &w == &*std::find_if(plan_.wgs.begin(), plan_.wgs.end(),
                                          [](const WarpGroupPlan &x) { return x.computes; }))
    r.now = std::max(r.now, c.storesRead[t] + m_.syncLatencyCycles);
  r.done = true;
  return false;
}

void SmRun::storePanels(int cta, int64_t tile) {
  // Per panel (ConsumerLoop.cpp, emitStore): wait for the store two panels
  // back to have read its staging slot (two slots; a tile's first panel
  // waits for every store before it that its thread issued: a ping-pong
  // team's own, in slots of its own), the barriers, the staging write and
  // the fence, then one thread issues its TMA store, which reads the panel
  // while the next one is staged.
  Cta &c = ctas_[cta];
  const std::vector<double> &panels = plan_.epiloguePanelBytes;
  std::vector<double> read(panels.size(), 0);
  double t = c.epilogueReady[tile];
  if (tile >= plan_.teams)
    t = std::max(t, c.storesRead[tile - plan_.teams]);
  int64_t after = std::min(trip_, (tile + 1) * tileTrip_);
  // Each panel's values are converted as they are staged: the warps convert
  // a few registers and store them while converting the next (in the SASS a
  // later panel's F2FP come after the earlier panel's TMA store, between its
  // own STSM), so a panel takes its share of the tile's math or its staging,
  // whichever is longer. Timed on the epilogue zones of the H100's traces
  // (docs/timeline.md, "The epilogue"): the whole math before the first
  // panel had the 64- and 128-column tiles' epilogues 13-55% long and the
  // 256-column ones' 10-32% short. The math runs at the SM's pipe rates here,
  // beside nothing: a ping-pong team's epilogue beside the other team's loop
  // is longer on the H100 (bench/results/persistent-epilogue-h100-2026-11-27).
  double total = 0;
  for (double b : panels)
    total += b;
  for (size_t p = 0; p < panels.size(); ++p) {
    if (p >= 2)
      t = std::max(t, read[p - 2]);
    double math = total > 0 ? plan_.epilogueTileMathCycles * panels[p] / total : 0;
    t += m_.epiloguePanelCycles + std::max(panels[p] / m_.stagingBytesPerCycle, math);
    double s = std::max(t, storeFree_);
    read[p] = storeFree_ = s + panels[p] / m_.storeBytesPerCycle;
    // On a row of their own, not in the loads' busy time: the stores read
    // shared memory beside the loads' transfers (on the loads' row they
    // overlapped them, which a trace viewer nests wrongly).
    zone(cta, storeRow_, static_cast<unsigned>(g_.units.size()), after, s, read[p]);
  }
  c.epilogueEnd[tile] = t;
  c.storesRead[tile] = panels.empty() ? t : read.back();
}

bool SmRun::step(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  const WarpGroupPlan &w = plan_.wgs[wg];
  if (r.done)
    return false;
  if (r.k >= tileTrip(r, wg) + w.span || (!w.computes && !w.issuesLoads))
    return stepEpilogue(cta, wg);
  if (w.teams > 1 && !r.turnHeld && r.k == 0 && r.pos == 0 && r.phase == 0 &&
      !takeTeamTurn(cta, wg))
    return false;
  if (w.turnBegin >= 0) {
    // Staggered consumers: the turn spans the units from the first dot to
    // the last, predicated off or not (the barriers are not).
    if (r.turnHeld && r.pos == static_cast<size_t>(w.turnEnd) + 1)
      handOver(cta, wg);
    if (!r.turnHeld && r.pos == static_cast<size_t>(w.turnBegin) && r.phase == 0 &&
        !takeTurn(cta, wg))
      return false;
  }
  if (r.pos == w.units.size())
    return stepEndOfIteration(cta, wg);
  unsigned u = w.units[r.pos];
  const UnitPlan &p = plan_.units[u];
  int64_t local = r.k - p.offset;
  int64_t i = tileBase(r, wg) + local;
  if (local < 0 || local >= tileTrip(r, wg)) {
    // Predicated off: a dot still commits an (empty) group.
    if (p.kind == UnitKind::Dot)
      r.groups.push_back({u, -1, -1, r.now});
    advanceUnit(r);
    return true;
  }
  switch (p.kind) {
  case UnitKind::Load: return stepLoad(cta, wg, u, i);
  case UnitKind::Dot: return stepDot(cta, wg, u, i);
  case UnitKind::Compute: return stepCompute(cta, wg, u, i);
  }
  return false;
}

void SmRun::pipeDone(int kind) {
  SharedPipe &pipe = kind == 1 ? tensor_ : math_;
  double t = pipe.nextCompletion();
  for (const SharedPipe::Done &d : pipe.complete(t)) {
    if (kind == 1) {
      auto [cta, wg] = tensorJobs_[d.id];
      auto [unit, iter] = tensorJobUnit_[d.id];
      WgRun &r = ctas_[cta].wgs[wg];
      // The tensor cores are free for the next group at d.end; a wait for
      // this one returns after the pipeline's drain.
      double complete = d.end + m_.wgmmaLatencyCycles;
      for (Group &grp : r.groups)
        if (grp.job == static_cast<int64_t>(d.id)) {
          grp.complete = complete;
          break;
        }
      if (wg < static_cast<int>(wgmmaRow_.size()))
        zone(cta, wgmmaRow_[wg], unit, iter, d.start, d.end);
      tensorJobs_.erase(d.id);
      tensorJobUnit_.erase(d.id);
      resolve({2, cta, static_cast<int64_t>(d.id), 0}, complete);
    } else {
      int cta = d.owner / static_cast<int>(plan_.wgs.size());
      mathDone_[d.id] = d.end;
      resolve({3, cta, static_cast<int64_t>(d.id), 0}, d.end);
    }
  }
  pipesChanged(t);
}

void SmRun::pipesChanged(double t) {
  // Each pipe slows down while the other one is busy.
  double k = m_.tensorMathInterference;
  tensor_.setRate(t, 1.0 / (1.0 + k * (math_.active() > 0)));
  math_.setRate(t, 1.0 / (1.0 + k * (tensor_.active() > 0)));
  schedulePipe(1);
  schedulePipe(2);
}

bool SmRun::finishMath(int cta, int wg) {
  WgRun &r = ctas_[cta].wgs[wg];
  auto it = mathDone_.find(static_cast<uint64_t>(r.mathJob));
  if (it == mathDone_.end()) {
    block({3, cta, r.mathJob, 0}, cta, wg, "");
    return false;
  }
  r.now = std::max(r.now, it->second);
  mathDone_.erase(it);
  r.mathJob = -1;
  r.waitStart = -1; // it was running, not waiting
  return true;
}

RunResult SmRun::run() {
  result_.iterationEnd.assign(trip_, 0);
  // Rows: the warp groups, the TMA engine, and each consumer's wgmma groups.
  for (const WarpGroupPlan &w : plan_.wgs)
    result_.timeline.rows.push_back({w.name, w.producer ? RowKind::Producer : RowKind::Consumer,
                                     w.group, static_cast<int64_t>(&w - plan_.wgs.data())});
  tmaRow_ = static_cast<int>(result_.timeline.rows.size());
  result_.timeline.rows.push_back({"TMA", RowKind::LoadPipe, -1, -1});
  // The stores beside the loads, on a row of their own (below).
  if (!plan_.epiloguePanelBytes.empty()) {
    storeRow_ = static_cast<int>(result_.timeline.rows.size());
    result_.timeline.rows.push_back({"TMA stores", RowKind::LoadPipe, -1, -1});
  }
  int consumer = 0;
  for (const WarpGroupPlan &w : plan_.wgs) {
    bool dots = false;
    for (unsigned u : w.units)
      dots |= plan_.units[u].kind == UnitKind::Dot;
    int index = w.computes ? consumer++ : -1;
    if (w.computes && dots) {
      // The wgmma groups of consumer N: when the tensor cores run them.
      wgmmaRow_.push_back(static_cast<int>(result_.timeline.rows.size()));
      result_.timeline.rows.push_back({"wgmma " + std::to_string(index), RowKind::TensorCores,
                                       w.group, static_cast<int64_t>(&w - plan_.wgs.data())});
    } else {
      wgmmaRow_.push_back(-1);
    }
  }
  // Every CTA starts after its set-up; the consumers also wait for the
  // tiles loaded before the loop.
  double setup = m_.ctaOverheadCycles;
  for (size_t c = 0; c < ctas_.size(); ++c) {
    double prologueReady = setup;
    if (plan_.prologueLoadBytes > 0) {
      double s = std::max(setup, tmaFree_);
      tmaFree_ = s + m_.transferCycles(plan_.prologueLoadBytes);
      result_.tma.spans.push_back({s, tmaFree_});
      prologueReady = tmaFree_ + m_.loadLatencyCycles + m_.syncLatencyCycles;
    }
    for (size_t w = 0; w < plan_.wgs.size(); ++w) {
      WgRun &r = ctas_[c].wgs[w];
      r.now = plan_.wgs[w].computes ? prologueReady : setup;
      if (plan_.wgs[w].teams > 1 && r.tile >= tiles()) {
        r.done = true; // a team with no tile of its own
        continue;
      }
      push(static_cast<int>(c), static_cast<int>(w));
    }
  }
  // Bounded: every event advances a program or a pipe.
  uint64_t budget = 1024 + 64ull * static_cast<uint64_t>(trip_ + 8) * (plan_.units.size() + 2) *
                               plan_.wgs.size() * ctas_.size();
  while (!events_.empty() && budget-- > 0) {
    Event e = events_.top();
    events_.pop();
    if (e.kind != 0) {
      SharedPipe &p = e.kind == 1 ? tensor_ : math_;
      if (e.version == p.version())
        pipeDone(e.kind);
      continue;
    }
    WgRun &r = ctas_[e.cta].wgs[e.wg];
    if (r.done || e.time != r.now)
      continue; // stale
    while (step(e.cta, e.wg)) {
    }
  }
  for (size_t c = 0; c < ctas_.size() && !result_.deadlock; ++c)
    for (size_t w = 0; w < plan_.wgs.size(); ++w)
      if (!ctas_[c].wgs[w].done) {
        const WgRun &r = ctas_[c].wgs[w];
        result_.deadlock = true;
        std::string unit = r.pos < plan_.wgs[w].units.size()
                               ? g_.units[plan_.wgs[w].units[r.pos]].name
                               : std::string("the end of the iteration");
        result_.deadlockWhere = formatv("{0} stops at {1} in kernel iteration {2}{3}",
                                        plan_.wgs[w].name, unit, r.k,
                                        r.waitReason.empty() ? "" : ", waiting for " + r.waitReason)
                                    .str();
        break;
      }
  for (const WgRun &r : ctas_[0].wgs)
    result_.ctaEnd = std::max(result_.ctaEnd, r.now);
  result_.tensor.spans = tensor_.busy();
  result_.math.spans = math_.busy();
  result_.timeline.sortZones();
  return std::move(result_);
}

} // namespace

RunResult stagecraft::timeline::runSm(const Plan &plan, const LoopGraph &graph,
                                      const HopperModel &model, int64_t trip, int64_t tileTrip,
                                      int ctas, bool record, const SimOptions &options) {
  SmRun run(plan, graph, model, trip, tileTrip, ctas, record, options);
  return run.run();
}
