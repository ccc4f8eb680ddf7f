//===- BoardModel.cpp - what the board's rows and lines say ---------------===//
#include "app/BoardModel.h"

#include <algorithm>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

std::string num(int64_t x) { return std::to_string(x); }

enum class Role { Empty, Producer, Consumer };

Role roleOf(const ScheduleEditor &ed, int64_t group) {
  bool any = false, onlyLoads = true;
  for (unsigned u = 0; u < ed.graph().units.size(); ++u)
    if (ed.unitSchedule(u).group == group) {
      any = true;
      onlyLoads &= ed.graph().units[u].kind == UnitKind::Load;
    }
  return !any ? Role::Empty : onlyLoads ? Role::Producer : Role::Consumer;
}

std::string roleName(const ScheduleEditor &ed, Role role) {
  if (role == Role::Empty)
    return "empty";
  if (role == Role::Producer)
    return "producer";
  switch (ed.consumers()) {
  case Consumers::PingPong: return "ping-pong";
  case Consumers::Staggered: return "staggered";
  default: return "consumer";
  }
}

/// "MMA0 ... MMA1": the group's dots from the first to the last in body order.
std::string dotSpan(const ScheduleEditor &ed, int64_t group) {
  std::string first, last;
  for (unsigned u : ed.report().bodyOrder)
    if (ed.unitSchedule(u).group == group && ed.graph().units[u].kind == UnitKind::Dot) {
      if (first.empty())
        first = ed.graph().units[u].name;
      last = ed.graph().units[u].name;
    }
  if (first.empty())
    return "";
  return first == last ? first : first + " ... " + last;
}

/// Program 0's tiles that consumer `w` of `n` owns (every n-th from w).
std::string ownedTiles(const TileLoop &tiles, int w, int n) {
  std::string s;
  for (size_t k = w; k < tiles.firstT.size(); k += n)
    s += (s.empty() ? "" : ", ") + ("t = " + num(tiles.firstT[k]) + " " +
                                    TileLoop::formatTile(tiles.firstTiles[k]));
  return s;
}

std::string ordinalTiles(int w, int n) {
  if (n == 2)
    return w == 0 ? "tiles #0, #2, #4, ..." : "tiles #1, #3, #5, ...";
  return "tiles #" + num(w) + ", #" + num(w + n) + ", ...";
}

} // namespace

std::string stagecraft::app::groupSteadyState(const ScheduleEditor &ed, int64_t group) {
  const ScheduleReport &r = ed.report();
  std::string s;
  for (unsigned u : r.bodyOrder) {
    OpSchedule sc = ed.unitSchedule(u);
    if (sc.group != group)
      continue;
    int64_t ahead = (r.numStages - 1) - sc.stage;
    s += (s.empty() ? "" : " ") + ed.graph().units[u].name +
         (ahead > 0 ? "(i+" + num(ahead) + ")" : "(i)");
  }
  return s;
}

std::string stagecraft::app::registerBudgetNote(const ScheduleReport &report, int64_t group,
                                                const TargetLimits &limits) {
  const GroupRegisters *gr = nullptr;
  int64_t producerThreads = 0, defaultShareThreads = 0, allThreads = 0, taken = 0;
  for (const GroupRegisters &r : report.registers) {
    if (r.group == group)
      gr = &r;
    allThreads += r.threads;
    if (r.chosen || r.producer)
      taken += r.threads * r.budget;
    else
      defaultShareThreads += r.threads;
    if (r.producer && !r.chosen)
      producerThreads += r.threads;
  }
  if (!gr)
    return "";
  std::string s = "Registers: about " + num(gr->regsPerThread) + " per thread" +
                  (gr->peakAt.empty() ? "" : " at the peak, around " + gr->peakAt) +
                  ", budget " + num(gr->budget) + (gr->chosen ? " (chosen)" : "") + ". ";
  if (gr->epilogueRegsPerThread > gr->regsPerThread)
    s += "After the loop about " + num(gr->epilogueRegsPerThread) +
         " (the loop's results with what the epilogue reads beside them)" +
         (gr->epilogueRegsPerThread > gr->budget ? ": over the budget, ptxas will spill there"
                                                 : "") +
         ". ";
  if (!report.warpSpecialized) {
    s += "One warp group set, no setmaxnreg: every thread gets the register file (" +
         num(limits.regsPerSM) + ") over " + num(allThreads) + " threads, at most " +
         num(limits.maxRegsPerThread) + ".";
  } else {
    int64_t limit = launchRegisterLimit(allThreads, limits);
    if (gr->chosen)
      s += std::string(gr->producer ? "setmaxnreg.dec" : "setmaxnreg.inc") + " to " +
           num(gr->budget) + ", chosen for this group (the schedule's \"registers\"); 0 "
           "gives the default back.";
    else if (gr->producer)
      s += "A producer (loads only) lowers its registers with setmaxnreg.dec to " +
           num(limits.producerRegs) + ", leaving the rest to the consumers.";
    else
      s += "setmaxnreg.inc to " + num(gr->budget) + ", the default share: the block's " +
           num(allThreads * limit) + " registers (" + num(allThreads) + " threads x " +
           num(limit) + ") minus " + num(taken) + " for " +
           (producerThreads && taken == producerThreads * limits.producerRegs
                ? num(producerThreads) + " producer threads x " + num(limits.producerRegs)
                : std::string("the other groups")) +
           ", over " + num(defaultShareThreads) +
           " threads, rounded down to a multiple of 8 (at most " +
           num(limits.maxRegsPerThread / 8 * 8) + ").";
    if (report.launchRegisters > 0)
      s += " Every warp starts with " + num(report.launchRegisters) +
           " registers per thread (" +
           (report.launchRegisters == limit
                ? num(limits.regsPerSM) + " / " + num(allThreads) + " threads, rounded down to 8" +
                      (limit == limits.maxRegsPerThread ? ", at most 255" : "")
                : std::string("the largest setmaxnreg.inc count")) +
           "): setmaxnreg.dec may only lower that, setmaxnreg.inc only raise it, and the "
           "block's " +
           num(allThreads * report.launchRegisters) + " registers are all they can share.";
    s += " Right-click the row's label to choose the budget.";
  }
  if (!gr->producer && report.consumers == Consumers::PingPong)
    s += " Ping-pong: each consumer warp group holds a whole tile, so the tile's values are "
         "spread over 128 threads, not over the group's " +
         num(gr->threads) + ".";
  return s;
}

BoardModel stagecraft::app::buildBoardModel(const ScheduleEditor &ed, const TileLoop &tiles,
                                            const TargetLimits &limits) {
  BoardModel m;
  const LoopGraph &g = ed.graph();
  const ScheduleReport &r = ed.report();
  Consumers arrangement = r.consumers;

  for (int64_t grp = 0; grp < ed.numGroups(); ++grp) {
    Role role = roleOf(ed, grp);
    int64_t wgs = g.warpGroupsOf(grp);
    bool split = role == Role::Consumer && wgs > 1 &&
                 (arrangement == Consumers::PingPong || arrangement == Consumers::Staggered);
    // What every row of the group shares in its tooltip.
    std::string common =
        role == Role::Empty
            ? "Warp group " + num(grp) + ": empty (no op in it), so not launched: drag a card "
                                          "here to give it " + num(wgs) + " warp group" +
                  (wgs > 1 ? "s" : "") + " (" + num(128 * wgs) + " threads)."
            : "Warp group " + num(grp) + ": " + roleName(ed, role) + ", " + num(wgs) +
                  " warp group" + (wgs > 1 ? "s" : "") + " (" + num(128 * wgs) + " threads).";
    if (std::string regs = registerBudgetNote(r, grp, limits); !regs.empty())
      common += "\n" + regs;
    bool bad = false;
    for (const Violation &v : r.violations) {
      bool mine = (v.rule == Rule::Registers &&
                   std::find(v.groups.begin(), v.groups.end(), grp) != v.groups.end()) ||
                  (v.rule == Rule::PingPong && role == Role::Consumer);
      if (mine) {
        common += "\nIllegal (" + std::string(ruleName(v.rule)) + "): " + v.message;
        bad = true;
      }
    }
    std::string ss = groupSteadyState(ed, grp);
    if (!split) {
      BoardRow row;
      row.group = grp;
      row.title = "WG " + num(grp);
      // An empty group is not launched: its threads are not the block's (a
      // loop all in group 1 showed "WG 0 empty, 128 thr" for a block of 256).
      row.role = role == Role::Empty ? "empty: not launched"
                                     : roleName(ed, role) + ", " + num(wgs * 128) + " thr";
      row.tooltip = common;
      if (role == Role::Consumer && wgs > 1)
        row.tooltip += "\nCooperative: its " + num(wgs) +
                       " warp groups split every tile by rows and run this row together.";
      row.bad = bad;
      m.rows.push_back(row);
      if (!ss.empty())
        m.steadyStates.push_back("WG " + num(grp) + " (" + roleName(ed, role) + "): " + ss);
      continue;
    }
    std::string dots = dotSpan(ed, grp);
    int n = static_cast<int>(wgs);
    for (int w = 0; w < n; ++w) {
      BoardRow row;
      row.group = grp;
      row.consumer = w;
      row.consumers = n;
      row.title = "consumer " + num(w);
      row.role = "WG " + num(grp) + ", " + roleName(ed, role);
      row.bad = bad;
      int next = (w + 1) % n, prev = (w + n - 1) % n;
      std::string turn;
      if (arrangement == Consumers::PingPong) {
        std::string own = ownedTiles(tiles, w, n);
        row.differs = ordinalTiles(w, n) + " of its program" +
                      (own.empty() ? "" : " (program 0: " + own + ")") + "; turn " +
                      num(w + 1) + " of " + num(n) + " at the tensor cores";
        turn = "Ping-pong: this warp group owns " + ordinalTiles(w, n) +
               " of its program's tile loop and runs the whole tile (main loop and "
               "epilogue) alone. Named-barrier turn order: " +
               (w == 0 ? std::string("it goes first (consumer ") + num(next) +
                             " arrives on its turn barrier at the start)"
                       : "it waits (bar.sync) until consumer " + num(prev) +
                             " has issued its tile's last wgmma") +
               ", runs its main loop, then hands the turn to consumer " + num(next) +
               " (bar.arrive) and stores its tile while consumer " + num(next) +
               "'s main loop runs.";
        m.steadyStates.push_back(
            w == 0 ? "consumer 0 (WG " + num(grp) + "): " + ss + " on " + ordinalTiles(w, n)
                   : "consumer " + num(w) + ": same, on " + ordinalTiles(w, n) +
                         ", its main loop while consumer " + num(prev) + " stores");
      } else {
        row.differs = "turn " + num(w + 1) + " of " + num(n) + " at the dots each iteration" +
                      (dots.empty() ? "" : " (" + dots + ")") +
                      (w == 0 ? "" : ", after consumer " + num(prev) + "'s");
        turn = "Staggered: the " + num(n) +
               " warp groups split every tile by rows and take turns issuing the loop's "
               "dots each iteration (" +
               dots + "). Named-barrier turn order: " +
               (w == 0 ? std::string("it goes first (consumer ") + num(next) +
                             " arrives on its turn barrier at the start)"
                       : "it waits (bar.sync) until consumer " + num(prev) + " has issued " +
                             dots) +
               ", then hands the turn to consumer " + num(next) +
               " (bar.arrive): its softmax overlaps the other's tensor-core work.";
        m.steadyStates.push_back(w == 0 ? "consumer 0 (WG " + num(grp) + "): " + ss
                                        : "consumer " + num(w) +
                                              ": same, half an iteration later (its " + dots +
                                              " after consumer " + num(prev) + "'s)");
      }
      row.tooltip = common + "\n" + turn +
                    "\nIt runs the same units as the other consumers: drag a card in any "
                    "consumer's row to move it for all.";
      m.rows.push_back(row);
    }
  }

  m.tileLoopLine = tiles.summary();
  if (tiles.persistent) {
    std::string t = "The tile loop as the IR writes it";
    if (!tiles.location.empty())
      t += " (" + tiles.location + ")";
    t += ", evaluated at the kernel's default sizes. The order comes from the IR's own index "
         "arithmetic";
    if (!tiles.storeLocation.empty())
      t += " (the coordinates of the store at " + tiles.storeLocation + ")";
    t += "; the tile-order control above sets it (rewriting the IR's arithmetic).";
    if (!tiles.firstT.empty()) {
      t += "\nProgram 0's first tiles: ";
      for (size_t k = 0; k < tiles.firstT.size(); ++k)
        t += (k ? ", " : "") + ("t = " + num(tiles.firstT[k]) + " " +
                                TileLoop::formatTile(tiles.firstTiles[k]));
      t += ".";
    }
    if (!tiles.note.empty())
      t += "\n" + tiles.note + ".";
    m.tileLoopTooltip = t;
  }
  return m;
}
