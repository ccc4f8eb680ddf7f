//===- Legality.cpp - schedule legality, resources, steady state ----------===//
#include "core/Schedule/Legality.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

using namespace stagecraft;
using llvm::formatv;

const char *stagecraft::unitKindName(UnitKind kind) {
  switch (kind) {
  case UnitKind::Load: return "load";
  case UnitKind::Dot: return "dot";
  case UnitKind::Compute: return "compute";
  }
  return "?";
}

const char *stagecraft::ruleName(Rule rule) {
  switch (rule) {
  case Rule::UnknownUnit: return "unknown-unit";
  case Rule::OutOfRange: return "out-of-range";
  case Rule::SameIterationStage: return "same-iteration-stage";
  case Rule::SameIterationOrder: return "same-iteration-order";
  case Rule::LoopCarriedDistance: return "loop-carried-distance";
  case Rule::LoopCarriedOrder: return "loop-carried-order";
  case Rule::LoopCarriedLate: return "loop-carried-late";
  case Rule::CrossGroupRegister: return "cross-group-register";
  case Rule::WaitOnNonDot: return "wait-on-non-dot";
  case Rule::SharedMemory: return "shared-memory";
  case Rule::Registers: return "registers";
  case Rule::PingPong: return "pingpong";
  case Rule::Cluster: return "cluster";
  case Rule::Groups: return "groups";
  }
  return "?";
}

int LoopGraph::findUnit(llvm::StringRef name) const {
  for (unsigned i = 0; i < units.size(); ++i)
    if (units[i].name == name)
      return i;
  return -1;
}

std::string LoopGraph::epilogueUnitName() const {
  return findUnit("epilogue") < 0 ? "epilogue" : "epilogue (after the loop)";
}

OpSchedule stagecraft::effectiveSchedule(const LoopGraph &graph,
                                         const Schedule &schedule,
                                         unsigned unit) {
  const std::string &name = graph.units[unit].name;
  if (const OpSchedule *s = schedule.find(name))
    return *s;
  if (const OpSchedule *s = graph.initialSchedule.find(name))
    return *s;
  return {};
}

static std::string kib(int64_t bytes) {
  if (bytes % 1024 == 0)
    return formatv("{0} KiB", bytes / 1024).str();
  return formatv("{0:F1} KiB", bytes / 1024.0).str();
}

namespace {
/// The pieces every check needs: the effective schedule of each unit and
/// each unit's position in the steady-state body.
struct Placed {
  std::vector<OpSchedule> sched;
  std::vector<unsigned> bodyOrder; // units sorted by (order, first op)
  std::vector<unsigned> position;  // unit -> index in bodyOrder
  int64_t minStage = 0, maxStage = 0;

  Placed(const LoopGraph &g, const Schedule &s) {
    for (unsigned u = 0; u < g.units.size(); ++u) {
      sched.push_back(effectiveSchedule(g, s, u));
      bodyOrder.push_back(u);
    }
    auto firstOp = [&](unsigned u) {
      return g.units[u].ops.empty() ? 0u : g.units[u].ops.front();
    };
    std::stable_sort(bodyOrder.begin(), bodyOrder.end(),
                     [&](unsigned a, unsigned b) {
                       if (sched[a].order != sched[b].order)
                         return sched[a].order < sched[b].order;
                       return firstOp(a) < firstOp(b);
                     });
    position.resize(g.units.size());
    for (unsigned i = 0; i < bodyOrder.size(); ++i)
      position[bodyOrder[i]] = i;
    if (!sched.empty()) {
      minStage = maxStage = sched[0].stage;
      for (const OpSchedule &o : sched) {
        minStage = std::min(minStage, o.stage);
        maxStage = std::max(maxStage, o.stage);
      }
    }
  }
};
} // namespace

static void checkEdges(const LoopGraph &g, const Placed &p,
                       std::vector<Violation> &out) {
  std::set<std::tuple<unsigned, unsigned, bool>> reported;
  std::set<std::pair<unsigned, unsigned>> crossReported;
  for (const Edge &e : g.edges) {
    if (e.def == e.use)
      continue;
    if (!reported.insert({e.def, e.use, e.loopCarried}).second)
      continue;
    const std::string &d = g.units[e.def].name, &u = g.units[e.use].name;
    const OpSchedule &sd = p.sched[e.def], &su = p.sched[e.use];
    const std::string &loc = g.ops[e.useOp].location;

    if (sd.group != su.group && !e.viaSharedMemory &&
        crossReported.insert({e.def, e.use}).second) {
      out.push_back({Rule::CrossGroupRegister, d, u, loc,
                     formatv("{0} (warp group {1}) uses {2} from {3} (warp "
                             "group {4}): only tiles loaded to shared memory "
                             "by TMA can pass between warp groups, a value in "
                             "registers cannot. Put {0} and {3} in the same "
                             "warp group.",
                             u, su.group, e.value, d, sd.group)
                         .str()});
    }

    if (!e.loopCarried) {
      if (su.stage < sd.stage) {
        out.push_back({Rule::SameIterationStage, d, u, loc,
                       formatv("{0} (stage {1}) uses {2} from {3} (stage {4}) "
                               "in the same iteration, but a value must be "
                               "produced in the same stage as its use or an "
                               "earlier one: put {3} in stage {1} or earlier, "
                               "or {0} in stage {4} or later.",
                               u, su.stage, e.value, d, sd.stage)
                           .str()});
      } else if (su.stage == sd.stage && p.position[e.use] < p.position[e.def]) {
        out.push_back({Rule::SameIterationOrder, d, u, loc,
                       formatv("{0} uses {1} from {2} in the same iteration and "
                               "both are in stage {3}, so {2} must come first "
                               "in the loop body; it comes after {0} (order {4} "
                               "vs {5}).",
                               u, e.value, d, su.stage, sd.order, su.order)
                           .str()});
      }
      continue;
    }

    // Loop-carried: d on source iteration i feeds u on source iteration i+1.
    if (sd.stage - su.stage > 1) {
      out.push_back({Rule::LoopCarriedDistance, d, u, loc,
                     formatv("{0} (stage {1}) uses {2} that {3} (stage {4}) "
                             "produced in the previous iteration; {3} runs {5} "
                             "stages later, so the value would not exist yet "
                             "when {0} needs it. {3} may be at most one stage "
                             "later than {0}.",
                             u, su.stage, e.value, d, sd.stage,
                             sd.stage - su.stage)
                         .str()});
    } else if (sd.stage - su.stage == 1 &&
               p.position[e.def] > p.position[e.use]) {
      out.push_back({Rule::LoopCarriedOrder, d, u, loc,
                     formatv("{0} (stage {1}) uses {2} that {3} (stage {4}) "
                             "produced in the previous iteration. Because {3} "
                             "is one stage later, that value is produced in "
                             "the same pass over the loop body, so {3} must "
                             "come before {0} in the body; it comes after "
                             "(order {5} vs {6}).",
                             u, su.stage, e.value, d, sd.stage, sd.order,
                             su.order)
                         .str()});
    } else if (su.stage > sd.stage) {
      out.push_back({Rule::LoopCarriedLate, d, u, loc,
                     formatv("{0} (stage {1}) uses {2} that {3} (stage {4}) "
                             "produced in the previous iteration; with {0} in "
                             "a later stage than {3}, {3} would already have "
                             "overwritten it by then. Put {0} in stage {5}.",
                             u, su.stage, e.value, d, sd.stage,
                             sd.stage > 0 ? formatv("{0} or {1}", sd.stage, sd.stage - 1).str()
                                          : std::string("0"))
                         .str()});
    }
  }
}

static void computeBuffers(const LoopGraph &g, const Placed &p,
                           const TargetLimits &limits, ScheduleReport &r) {
  int64_t ring = 0;
  for (unsigned l = 0; l < g.units.size(); ++l) {
    if (g.units[l].kind != UnitKind::Load)
      continue;
    int64_t lastUse = p.sched[l].stage;
    int64_t asyncWait = 0; // wgmma groups a reading dot keeps in flight
    std::string waitDot;
    for (const Edge &e : g.edges) {
      if (e.def != l || e.use == l)
        continue;
      lastUse = std::max(lastUse, p.sched[e.use].stage);
      // (A tile.dot_scaled reads its operands synchronously, upcasting them;
      // its wgmma reads the upcast B, its own local buffer, below. A dot
      // with A from registers retires within its kernel iteration: its wait
      // holds it under the math after it, not past the next load.)
      if (g.units[e.use].kind == UnitKind::Dot &&
          g.units[e.use].localReader != static_cast<int>(e.use) && !g.units[e.use].registerA &&
          p.sched[e.use].wait > asyncWait) {
        asyncWait = p.sched[e.use].wait;
        waitDot = g.units[e.use].name;
      }
    }
    LoadBuffers b;
    b.name = g.units[l].name;
    b.waitCopies = asyncWait;
    b.waitDot = waitDot;
    // One buffer per stage from the load to its last use, plus one per
    // wgmma group still reading when the next iteration's load is issued.
    b.copies = lastUse - p.sched[l].stage + 1 + asyncWait;
    b.bytesPerCopy = g.units[l].alignedBufferBytes ? g.units[l].alignedBufferBytes
                                                   : g.units[l].bufferBytes;
    ring += b.copies * b.bytesPerCopy;
    r.buffers.push_back(b);
  }
  // Upcast B tiles the consumers write for a dot: one copy per stage from
  // the writer to the dot, one the dot reads while the next is written, one
  // per wgmma group still reading it, and one more because the consumer
  // warp groups overwrite a copy only when all of them are past the dot
  // that read it (their barrier after the previous write).
  for (unsigned u = 0; u < g.units.size(); ++u) {
    int64_t local = g.units[u].localSmemBytes -
                    (limits.blockScaledMma ? g.units[u].scaledDotSmemBytes : 0);
    if (!local || g.units[u].localReader < 0)
      continue;
    const OpSchedule &rd = p.sched[g.units[u].localReader];
    LoadBuffers b;
    b.name = g.units[u].name + " (upcast B)";
    b.copies = std::max<int64_t>(rd.stage - p.sched[u].stage, 0) + 2 + rd.wait;
    // The dot's wait keeps its upcast B too (the eighth sweep's m1: the
    // third copy went unnamed).
    if (rd.wait > 0) {
      b.waitCopies = rd.wait;
      b.waitDot = g.units[g.units[u].localReader].name;
    }
    b.bytesPerCopy = local;
    ring += b.copies * b.bytesPerCopy;
    r.buffers.push_back(b);
  }
  // Ping-pong: each consumer warp group stores its own tiles through
  // staging of its own, while the other's main loop runs.
  int64_t epilogue = g.epilogueSmemBytes *
                     (r.consumers == Consumers::PingPong ? 2 : 1);
  // The lowering's layout: its barrier area (every ring's full and empty
  // barriers), the tiles loaded outside the loop, then the rings, which the
  // stores' staging overlays after the loop (beside them in a persistent
  // kernel); the tiles only the epilogue reads too, where they would not
  // fit otherwise (never in a persistent kernel: isEpilogueOnlyLoad).
  int64_t afterLoop = g.epilogueLoadSmemBytes + epilogue;
  // With rings of `ringBytes`; whether the epilogue's loads go after the loop.
  auto totalFor = [&](int64_t ringBytes, bool &loadsAfterLoop) {
    int64_t t = limits.barrierAreaBytes + g.fixedSmemBytes + g.epilogueLoadSmemBytes +
                (g.persistent ? ringBytes + epilogue : std::max(ringBytes, epilogue));
    loadsAfterLoop = t > limits.smemPerBlock && g.epilogueLoadSmemBytes > 0 && !g.persistent;
    if (loadsAfterLoop)
      t = limits.barrierAreaBytes + g.fixedSmemBytes + std::max(ringBytes, afterLoop);
    return t;
  };
  int64_t total = totalFor(ring, r.epilogueLoadsAfterLoop);
  r.smemBytes = total;
  r.smemLimit = limits.smemPerBlock;
  if (total > limits.smemPerBlock) {
    // Every part of the total, so that the figures add up.
    std::string parts;
    std::map<std::string, int64_t> waits; // dot -> the copies its wait keeps, most of any load
    for (const LoadBuffers &b : r.buffers) {
      parts += formatv("{0}{1} x {2} copies{3}", parts.empty() ? "" : ", ", b.name, b.copies,
                       b.waitCopies > 0 ? formatv(" ({0} for {1}'s wait)", b.waitCopies, b.waitDot).str()
                                        : std::string())
                   .str();
      if (b.waitCopies > 0)
        waits[b.waitDot] = std::max(waits[b.waitDot], b.waitCopies);
    }
    parts += formatv(", {0} of barriers", kib(limits.barrierAreaBytes)).str();
    if (g.fixedSmemBytes > 0)
      parts += formatv(", {0} of tiles loaded outside the loop (live throughout{1})",
                       kib(g.fixedSmemBytes),
                       g.keptByLoopStoresSmemBytes > 0
                           ? formatv("; {0} of them only the epilogue reads, kept because the loop "
                                     "stores a tile, whose staging is in use after it",
                                     kib(g.keptByLoopStoresSmemBytes))
                                 .str()
                           : std::string())
                   .str();
    std::string epilogueLoads =
        formatv("{0} of tiles only the epilogue reads ({1})", kib(g.epilogueLoadSmemBytes),
                llvm::join(g.epilogueLoadLocations, ", "))
            .str();
    if (g.epilogueLoadSmemBytes > 0 && g.persistent)
      parts += ", " + epilogueLoads + ", one buffer each, loaded after each tile's ring loads";
    else if (g.epilogueLoadSmemBytes > 0 && afterLoop <= ring)
      parts += ", none for the " + epilogueLoads + ", loaded after the loop where the rings were";
    if (epilogue > 0 && (g.persistent || afterLoop > ring))
      parts += formatv(", {0} of the stores' staging{1}", kib(epilogue),
                       g.persistent ? " (beside the rings in a persistent kernel)" : "")
                   .str();
    if (g.epilogueLoadSmemBytes > 0 && !g.persistent && afterLoop > ring)
      parts += ", " + epilogueLoads + ", loaded after the loop where the rings were";
    // Where what the code after the loop needs does not fit on its own, no
    // schedule helps.
    bool epilogueAlone = !g.persistent && g.epilogueLoadSmemBytes > 0 &&
                         limits.barrierAreaBytes + g.fixedSmemBytes + afterLoop > limits.smemPerBlock;
    std::string advice =
        epilogueAlone
            ? "No schedule fits this: the tiles only the epilogue reads and the stores' "
              "staging need that much on their own; read fewer or smaller tiles after the loop "
              "(16-bit rather than f32, a smaller output tile)."
            : "Each load keeps one copy per stage between it and its last use" +
                  std::string(waits.empty() ? "" : ", and one per wgmma group its dot keeps in flight") +
                  ": move loads closer to their uses" +
                  (waits.empty() ? std::string(".")
                                 : formatv(", or lower {0}'s wait (now {1})",
                                           waits.begin()->first, waits.begin()->second)
                                           .str() +
                                       ".");
    // How close: the most copies of each ring that fit (two at least: one
    // being read while the next loads), with what it would need.
    if (!epilogueAlone) {
      int64_t most = 0;
      for (const LoadBuffers &b : r.buffers)
        most = std::max(most, b.copies);
      for (int64_t c = most - 1; c >= 2; --c) {
        int64_t capped = 0;
        for (const LoadBuffers &b : r.buffers)
          capped += std::min(b.copies, c) * b.bytesPerCopy;
        bool unused;
        if (int64_t t = totalFor(capped, unused); t <= limits.smemPerBlock) {
          advice += formatv(" At most {0} copies of each would need {1}.", c, kib(t)).str();
          break;
        }
      }
    }
    r.violations.push_back(
        {Rule::SharedMemory, "", "", g.loopLocation,
         formatv("the buffers need {0} of shared memory ({1}), more than the "
                 "{2} a block can have on {3}. {4}",
                 kib(total), parts, kib(limits.smemPerBlock), limits.gpu, advice)
             .str()});
  }
}

Consumers stagecraft::effectiveConsumers(const LoopGraph &g, const Schedule &schedule) {
  return schedule.consumers.value_or(g.initialSchedule.consumers.value_or(Consumers::Cooperative));
}

int64_t stagecraft::effectiveCluster(const LoopGraph &g, const Schedule &schedule) {
  return schedule.cluster.value_or(g.initialSchedule.cluster.value_or(1));
}

/// Ping-pong: two consumer warp groups, each with every other tile of a
/// persistent kernel's tile loop, taking turns at the tensor cores.
static void checkPingPong(const LoopGraph &g, const Placed &p, std::vector<Violation> &out) {
  auto refuse = [&](std::string message) {
    out.push_back({Rule::PingPong, "", "", g.loopLocation, std::move(message)});
  };
  if (!g.persistent) {
    refuse("ping-pong consumers take every other tile of a tile loop: this kernel has none "
           "(make it persistent: a tile loop around the pipelined loop), or choose cooperative");
    return;
  }
  std::set<int64_t> consumerGroups;
  for (unsigned u = 0; u < g.units.size(); ++u)
    if (g.units[u].kind != UnitKind::Load)
      consumerGroups.insert(p.sched[u].group);
  if (consumerGroups.size() != 1) {
    refuse(formatv("ping-pong needs the loop's math in one schedule group (its two warp groups "
                   "take turns); it is in {0} groups",
                   consumerGroups.size())
               .str());
    return;
  }
  int64_t grp = *consumerGroups.begin();
  for (unsigned u = 0; u < g.units.size(); ++u)
    if (g.units[u].kind == UnitKind::Load && p.sched[u].group == grp) {
      out.push_back({Rule::PingPong, g.units[u].name, "", g.units[u].location,
                     formatv("ping-pong needs every load in a producer warp group (one stream "
                             "feeds both consumers' tiles); {0} is in the consumers' group {1}",
                             g.units[u].name, grp)
                         .str()});
      return;
    }
  if (g.warpGroupsOf(grp) != 2)
    refuse(formatv("ping-pong needs two consumer warp groups, but schedule group {0} has {1} "
                   "(tile.warpgroups)",
                   grp, g.warpGroupsOf(grp))
               .str());
  // What the lowering does not build for two teams (passes/Lowering/
  // Placement.cpp refuses the same, for IR that skipped this check).
  for (const LoopOp &op : g.ops)
    if (op.opName == "tile.store") {
      out.push_back({Rule::PingPong, g.units[op.unit].name, "", op.location,
                     "a tile.store in the loop of ping-pong consumers is not lowered: choose "
                     "cooperative, or store after the loop"});
      return;
    }
  for (const Unit &unit : g.units)
    if (unit.localSmemBytes > unit.scaledDotSmemBytes) {
      out.push_back({Rule::PingPong, unit.name, "", unit.location,
                     "ping-pong consumers with tiles upcast into shared memory are not lowered "
                     "yet: choose cooperative"});
      return;
    }
  if (!g.rowReductionLocation.empty())
    out.push_back({Rule::PingPong, "", "", g.rowReductionLocation,
                   "a reduction over rows (dim = 0) in ping-pong consumers is not lowered: "
                   "choose cooperative"});
}

/// The arrangement the lowering builds (passes/Lowering/Placement.cpp): the
/// loop's math (every unit but loads) in one group, the loads outside it in
/// one producer group of one warp group, which issues every load.
static void checkGroups(const LoopGraph &g, const Placed &p, std::vector<Violation> &out) {
  // The first unit `in` takes, and the first after it in another group:
  // reported as `what`; false when there is one.
  auto oneGroup = [&](auto in, const char *what, int &first) {
    for (unsigned u = 0; u < g.units.size(); ++u) {
      if (!in(u))
        continue;
      if (first < 0) {
        first = static_cast<int>(u);
        continue;
      }
      if (p.sched[u].group == p.sched[first].group)
        continue;
      out.push_back({Rule::Groups, g.units[first].name, g.units[u].name, g.units[u].location,
                     formatv("{0} is in group {1} but {2} in group {3}: {4}", g.units[u].name,
                             p.sched[u].group, g.units[first].name, p.sched[first].group, what)
                         .str()});
      return false;
    }
    return true;
  };
  int consumer = -1, producer = -1;
  auto math = [&](unsigned u) { return g.units[u].kind != UnitKind::Load; };
  if (!oneGroup(math, "the loop's math (every unit but loads) runs in one group", consumer) ||
      consumer < 0)
    return;
  auto produced = [&](unsigned u) {
    return g.units[u].kind == UnitKind::Load && p.sched[u].group != p.sched[consumer].group;
  };
  if (!oneGroup(produced, "the loads outside the math's group share one producer group", producer))
    return;
  if (producer >= 0 && g.warpGroupsOf(p.sched[producer].group) != 1)
    out.push_back({Rule::Groups, g.units[producer].name, "", g.units[producer].location,
                   formatv("the producer group ({0}) has {1} warp groups in tile.warpgroups; one "
                           "TMA producer warp group issues every load: put the loads in a group "
                           "of one warp group",
                           p.sched[producer].group, g.warpGroupsOf(p.sched[producer].group))
                       .str()});
}

/// Clusters: the loads whose box is the same in every CTA of a cluster are
/// shared (each CTA loads 1/C of the rows and multicasts them), so the CTAs
/// must run the same iterations, and each shared box must split into parts
/// of whole 8-row swizzle atoms that a tensor map of its own can load.
static void checkCluster(const LoopGraph &g, int64_t cluster, ScheduleReport &r) {
  r.cluster = cluster;
  if (cluster == 1)
    return;
  auto refuse = [&](std::string unit, std::string location, std::string message) {
    r.violations.push_back({Rule::Cluster, std::move(unit), "", std::move(location),
                            std::move(message)});
  };
  if (cluster != 2 && cluster != 4) {
    refuse("", g.loopLocation,
           formatv("a cluster has 1, 2 or 4 CTAs here (got {0})", cluster).str());
    return;
  }
  std::vector<unsigned> shared;
  for (unsigned u = 0; u < g.units.size(); ++u)
    if (g.units[u].kind == UnitKind::Load && g.units[u].sameInCluster)
      shared.push_back(u);
  if (shared.empty())
    return; // nothing to share: the summary says so
  if (!g.clusterVaryingBound.empty()) {
    refuse("", g.clusterVaryingBoundLocation,
           formatv("in a cluster of {0} CTAs, {1} is the same in every CTA and is loaded once "
                   "for all of them, so they must run the same iterations; but {2} differs "
                   "between them (it depends on tile.cluster_rank or tile.program_id 0): "
                   "derive it from tile.cluster_id, tile.num_clusters and the sizes",
                   cluster, g.units[shared.front()].name, g.clusterVaryingBound)
               .str());
    return;
  }
  for (unsigned u : shared) {
    const Unit &unit = g.units[u];
    if (unit.boxRows % (8 * cluster) != 0) {
      refuse(unit.name, unit.location,
             formatv("{0} is shared by the cluster's {1} CTAs, each loading 1/{1} of its rows; "
                     "its {2} rows do not split into parts of a multiple of 8 rows",
                     unit.name, cluster, unit.boxRows)
                 .str());
      continue;
    }
    if (!unit.descriptorAlsoUsedAt.empty()) {
      refuse(unit.name, unit.descriptorAlsoUsedAt,
             formatv("{0} is shared by the cluster's {1} CTAs, each loading 1/{1} of its rows "
                     "(its tensor map's box is that part), but the op at {2} uses the same "
                     "descriptor: give {0} a descriptor of its own",
                     unit.name, cluster, unit.descriptorAlsoUsedAt)
                 .str());
      continue;
    }
    r.sharedLoads.push_back(unit.name);
  }
}

/// Staggered: the two consumer warp groups of one tile take turns issuing
/// the loop's dots.
static void checkStaggered(const LoopGraph &g, const Placed &p, std::vector<Violation> &out) {
  auto refuse = [&](std::string message) {
    out.push_back({Rule::PingPong, "", "", g.loopLocation, std::move(message)});
  };
  std::set<int64_t> consumerGroups;
  bool anyDot = false;
  for (unsigned u = 0; u < g.units.size(); ++u)
    if (g.units[u].kind != UnitKind::Load) {
      consumerGroups.insert(p.sched[u].group);
      anyDot |= g.units[u].kind == UnitKind::Dot;
    }
  if (!anyDot) {
    refuse("staggered consumers take turns at the loop's dots: this loop has none");
    return;
  }
  if (consumerGroups.size() != 1) {
    refuse(formatv("staggered consumers need the loop's math in one schedule group; it is in "
                   "{0} groups",
                   consumerGroups.size())
               .str());
    return;
  }
  int64_t grp = *consumerGroups.begin();
  if (g.warpGroupsOf(grp) != 2)
    refuse(formatv("staggered consumers are two warp groups taking turns (tile.warpgroups gives "
                   "group {0} {1})",
                   grp, g.warpGroupsOf(grp))
               .str());
  // A warp group's turn spans the body's dots, first to last. A unit the
  // lowering runs with a barrier over both consumer warp groups (a store's
  // staging, a reduction over rows, an upcast into shared memory) waits
  // inside a turn for the warp group that waits for the turn: a random
  // schedule with a store there hung on the H200 (the twelfth sweep's l06);
  // a reduction or an upcast there hangs as well (the sixteenth sweep).
  int first = -1, last = -1;
  for (unsigned i = 0; i < p.bodyOrder.size(); ++i)
    if (g.units[p.bodyOrder[i]].kind == UnitKind::Dot) {
      first = first < 0 ? static_cast<int>(i) : first;
      last = static_cast<int>(i);
    }
  for (int i = first; i >= 0 && i <= last; ++i) {
    const Unit &u = g.units[p.bodyOrder[i]];
    if (u.consumerBarrier.empty())
      continue;
    std::string firstName = g.units[p.bodyOrder[first]].name,
                lastName = g.units[p.bodyOrder[last]].name;
    out.push_back({Rule::PingPong, u.name, u.name, g.loopLocation,
                   formatv("staggered consumers: {0} {1} (with both consumer warp groups at one "
                           "barrier) {2}, while the other warp group waits for its turn: neither "
                           "would go on. {3}, or choose cooperative",
                           u.name, u.consumerBarrier,
                           first == last ? "inside the turn at its dot"
                                         : "between " + firstName + " and " + lastName +
                                               ", the dots of one warp group's turn",
                           u.kind == UnitKind::Dot
                               ? std::string("Give the turn no such dot")
                               : "Order " + u.name + " before " + firstName + " or after " +
                                     lastName)
                       .str()});
  }
}

int64_t stagecraft::launchRegisterLimit(int64_t threads, const TargetLimits &limits) {
  int64_t perThread = limits.regsPerSM / std::max<int64_t>(threads, 1);
  return std::min(limits.maxRegsPerThread, perThread / limits.regGranularity * limits.regGranularity);
}

std::vector<int64_t> stagecraft::effectiveRegisters(const LoopGraph &g, const Schedule &schedule) {
  if (schedule.registers)
    return trimRegisterBudgets(*schedule.registers);
  return trimRegisterBudgets(g.initialSchedule.registers.value_or(std::vector<int64_t>{}));
}

/// The register budget of every schedule group the loop uses, and the
/// violations of the budgets' own rules (setmaxnreg's counts, the launch
/// count, the block's registers). Without warp specialization there is no
/// setmaxnreg: a group gets what the register file allows per thread. With
/// it, a load-only group (producer) lowers its count with setmaxnreg.dec,
/// by default to `producerRegs`, and the others (consumers) raise theirs
/// with setmaxnreg.inc, by default to an equal share of what is left of the
/// block's registers. `chosen` overrides the default of a group (0: none).
static std::vector<GroupRegisters> assignBudgets(const LoopGraph &g, const Placed &p,
                                                 const std::vector<int64_t> &chosen,
                                                 const TargetLimits &limits, ScheduleReport &r) {
  std::set<int64_t> groups;
  for (const OpSchedule &s : p.sched)
    groups.insert(s.group);
  r.warpSpecialized = groups.size() > 1;
  auto refuse = [&](std::vector<int64_t> about, std::string message) {
    r.violations.push_back({Rule::Registers, "", "", g.loopLocation, std::move(message),
                            std::move(about)});
  };
  auto chosenOf = [&](int64_t grp) {
    return grp >= 0 && grp < static_cast<int64_t>(chosen.size()) ? chosen[grp] : 0;
  };
  auto floorTo = [&](int64_t x) {
    return x >= 0 ? x / limits.regGranularity * limits.regGranularity
                  : -((-x + limits.regGranularity - 1) / limits.regGranularity *
                      limits.regGranularity);
  };

  std::vector<GroupRegisters> out;
  int64_t allThreads = 0;
  for (int64_t grp : groups) {
    GroupRegisters gr;
    gr.group = grp;
    gr.threads = 128 * g.warpGroupsOf(grp);
    bool onlyLoads = true;
    for (unsigned u = 0; u < g.units.size(); ++u)
      if (p.sched[u].group == grp && g.units[u].kind != UnitKind::Load)
        onlyLoads = false;
    gr.producer = r.warpSpecialized && onlyLoads;
    allThreads += gr.threads;
    out.push_back(gr);
  }

  // Budgets that can apply to nothing: a group that runs no unit, or a loop
  // that is not warp-specialized (no setmaxnreg in its kernel).
  for (int64_t grp = 0; grp < static_cast<int64_t>(chosen.size()); ++grp) {
    int64_t n = chosen[grp];
    if (n == 0)
      continue;
    if (!groups.count(grp))
      refuse({grp}, formatv("warp group {0} has a register budget of {1}, but no unit runs in "
                            "it: budgets apply to the loop's warp groups. Set it to 0 (the "
                            "default) or move units into warp group {0}.",
                            grp, n)
                        .str());
    else if (!r.warpSpecialized)
      refuse({grp},
             formatv("warp group {0} has a register budget of {1}, but the loop is not "
                     "warp-specialized (all its units run in warp group {0}): its kernel has "
                     "no setmaxnreg, every thread gets min({2}, {3} / {4} threads) registers. "
                     "Set the budget to 0 (the default), or move the loads to a producer warp "
                     "group.",
                     grp, n, limits.maxRegsPerThread, limits.regsPerSM, allThreads)
                 .str());
  }

  if (!r.warpSpecialized) {
    for (GroupRegisters &gr : out)
      gr.budget = std::min(limits.maxRegsPerThread,
                           limits.regsPerSM / std::max<int64_t>(allThreads, 1));
    return out;
  }

  // Chosen budgets must be setmaxnreg counts.
  bool countsOk = true;
  for (GroupRegisters &gr : out) {
    int64_t n = chosenOf(gr.group);
    if (n == 0)
      continue;
    gr.budget = n;
    gr.chosen = true;
    if (n % limits.regGranularity || n < limits.minSetMaxNReg || n > limits.maxSetMaxNReg) {
      countsOk = false;
      refuse({gr.group},
             formatv("warp group {0} has a register budget of {1}, which setmaxnreg cannot "
                     "ask for: a count is a multiple of {2} from {3} to {4}.",
                     gr.group, n, limits.regGranularity, limits.minSetMaxNReg,
                     limits.maxSetMaxNReg)
                 .str());
    }
  }

  // Defaults: producers `producerRegs`, consumers an equal share of what is
  // left of the block's registers at launch (at most 255 rounded down to 8).
  int64_t limit = launchRegisterLimit(allThreads, limits);
  int64_t block = allThreads * limit, taken = 0, sharingThreads = 0;
  for (GroupRegisters &gr : out) {
    if (gr.chosen)
      taken += gr.threads * gr.budget;
    else if (gr.producer)
      taken += gr.threads * (gr.budget = limits.producerRegs);
    else
      sharingThreads += gr.threads;
  }
  int64_t share = 0;
  if (sharingThreads > 0)
    share = std::min(floorTo(limits.maxRegsPerThread), floorTo((block - taken) / sharingThreads));
  for (GroupRegisters &gr : out)
    if (!gr.chosen && !gr.producer) {
      gr.budget = share;
      if (share < limits.minSetMaxNReg && countsOk) {
        countsOk = false;
        refuse({gr.group},
               formatv("warp group {0} takes the default share of the registers the chosen "
                       "budgets leave: ({1} - {2}) / {3} threads = {4} per thread, below "
                       "setmaxnreg's minimum of {5}. Lower the chosen budgets, or choose one "
                       "for warp group {0}.",
                       gr.group, block, taken, sharingThreads, share, limits.minSetMaxNReg)
                   .str());
      }
    }
  if (!countsOk)
    return out;

  // The launch count: ptxas starts every warp at the largest count the
  // consumers raise to, capped by the launch bounds.
  int64_t largest = 0;
  for (const GroupRegisters &gr : out)
    if (!gr.producer)
      largest = std::max(largest, gr.budget);
  if (largest == 0) // no consumer (a loop that only loads)
    for (const GroupRegisters &gr : out)
      largest = std::max(largest, gr.budget);
  int64_t launch = std::min(limit, largest);
  r.launchRegisters = launch;
  std::string why =
      launch == limit
          ? formatv("{0} / {1} threads, rounded down to a multiple of {2}{3}", limits.regsPerSM,
                    allThreads, limits.regGranularity,
                    limit == limits.maxRegsPerThread ? ", at most 255" : "")
                .str()
          : formatv("the largest setmaxnreg.inc count, below the {0} the launch bounds allow",
                    limit)
                .str();
  for (const GroupRegisters &gr : out) {
    if (gr.producer && gr.budget > launch)
      refuse({gr.group},
             formatv("warp group {0} (producer) has a register budget of {1}, more than the "
                     "{2} registers per thread the block launches with ({3}): setmaxnreg.dec "
                     "can only lower a warp group's count. Give it {2} or fewer.",
                     gr.group, gr.budget, launch, why)
                 .str());
    if (!gr.producer && gr.budget < launch)
      refuse({gr.group},
             formatv("warp group {0} has a register budget of {1}, fewer than the {2} "
                     "registers per thread the block launches with ({3}): setmaxnreg.inc can "
                     "only raise a warp group's count. Give it {2} or more.",
                     gr.group, gr.budget, launch, why)
                 .str());
  }

  // Every setmaxnreg.inc waits until the block's pool has the registers it
  // asks for; the pool is what the block launched with. Asking for more
  // than that never returns: the kernel hangs.
  int64_t need = 0;
  std::string parts;
  std::vector<int64_t> all;
  for (const GroupRegisters &gr : out) {
    need += gr.threads * gr.budget;
    parts += formatv("{0}warp group {1}: {2} threads x {3}", parts.empty() ? "" : ", ", gr.group,
                     gr.threads, gr.budget)
                 .str();
    all.push_back(gr.group);
  }
  int64_t pool = allThreads * launch;
  if (need > pool)
    refuse(all, formatv("the register budgets need {0} registers ({1}), {2} more than the {3} "
                        "the block holds ({4} threads x {5} at launch, of an SM's {6}): "
                        "setmaxnreg.inc would wait forever for registers no warp group gives "
                        "back, and the kernel would hang. Lower a budget.",
                        need, parts, need - pool, pool, allThreads, launch, limits.regsPerSM)
                    .str());
  return out;
}

/// Register pressure by liveness over the steady-state body. Op x on source
/// iteration i runs at time (i + s(x)) * L + P(x), P its body position and L
/// the body length. A value lives from its def to its last use (half-open,
/// so an op may reuse its operand's registers for its result); the pressure
/// at body position p counts every live instance of every value.
static void computeRegisters(const LoopGraph &g, const Placed &p,
                             const std::vector<int64_t> &chosen,
                             const TargetLimits &limits, ScheduleReport &r) {
  std::vector<int64_t> opPos(g.ops.size());
  int64_t L = 0;
  for (unsigned u : p.bodyOrder)
    for (unsigned op : g.units[u].ops)
      opPos[op] = L++;
  if (L == 0)
    return;
  auto time = [&](unsigned op, bool nextIter) {
    const OpSchedule &s = p.sched[g.ops[op].unit];
    return (s.stage + (nextIter ? 1 : 0)) * L + opPos[op];
  };
  auto ceilDiv = [](int64_t a, int64_t b) {
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
  };

  // Per group and body position: bytes shared out over the group's threads,
  // and registers every thread holds (column vectors).
  struct Pressure {
    std::vector<int64_t> bytes, threadRegs;
  };
  std::map<int64_t, Pressure> pressure;
  auto of = [&](int64_t group) -> Pressure & {
    Pressure &pr = pressure[group];
    pr.bytes.resize(L, 0);
    pr.threadRegs.resize(L, 0);
    return pr;
  };
  for (const LoopValue &v : g.values) {
    if (v.uses.empty())
      continue;
    Pressure &pr = of(p.sched[g.ops[v.defOp].unit].group);
    int64_t birth = time(v.defOp, false), death = birth;
    for (const ValueUse &use : v.uses)
      death = std::max(death, time(use.op, use.loopCarried));
    for (int64_t pos = 0; pos < L; ++pos) {
      int64_t copies = ceilDiv(death - pos, L) - ceilDiv(birth - pos, L);
      pr.bytes[pos] += copies * v.bytes;
      pr.threadRegs[pos] += copies * v.threadRegs;
    }
  }
  // What a unit holds only while it runs (a block-scaled dot's upcast A on
  // sm_90a; sm_100a's tcgen05.mma reads the FP8 tiles as loaded).
  if (!limits.blockScaledMma)
    for (unsigned u = 0; u < g.units.size(); ++u)
      if (g.units[u].transientRegBytes > 0) {
        Pressure &pr = of(p.sched[u].group);
        for (unsigned op : g.units[u].ops)
          pr.bytes[opPos[op]] += g.units[u].transientRegBytes;
      }
  for (const InvariantValue &inv : g.invariantValues) {
    Pressure &pr = of(p.sched[inv.unit].group);
    for (int64_t pos = 0; pos < L; ++pos) {
      pr.bytes[pos] += inv.bytes;
      pr.threadRegs[pos] += inv.threadRegs;
    }
  }

  std::vector<GroupRegisters> budgets = assignBudgets(g, p, chosen, limits, r);
  for (GroupRegisters &gr : budgets) {
    int64_t grp = gr.group;
    // Cooperative consumers split each tile over their threads; ping-pong
    // consumers hold a whole tile per warp group.
    int64_t sharing = !gr.producer && r.consumers == Consumers::PingPong ? 128 : gr.threads;
    // The peak in registers a thread; `peak` the same in bytes of the group
    // (for the message).
    int64_t peakRegs = 0, peak = 0, peakPos = 0;
    auto it = pressure.find(grp);
    if (it != pressure.end())
      for (int64_t pos = 0; pos < L; ++pos) {
        int64_t regs =
            ceilDiv(it->second.bytes[pos], 4 * sharing) + it->second.threadRegs[pos];
        if (regs > peakRegs) {
          peakRegs = regs;
          peak = it->second.bytes[pos] + it->second.threadRegs[pos] * 4 * sharing;
          peakPos = pos;
        }
      }
    gr.regsPerThread = (gr.producer ? 0 : limits.regOverhead) + peakRegs;
    // Reported at the unit it names ("around Norm"), as stagecraft-opt's
    // verifier anchors it, not at the loop.
    std::string peakLocation;
    if (peak > 0)
      for (unsigned op = 0; op < g.ops.size(); ++op)
        if (opPos[op] == peakPos) {
          gr.peakAt = g.units[g.ops[op].unit].name;
          peakLocation = g.units[g.ops[op].unit].location;
        }
    if (gr.regsPerThread > gr.budget)
      r.violations.push_back(
          {Rule::Registers, gr.peakAt, "", peakLocation.empty() ? g.loopLocation : peakLocation,
           formatv("warp group {0} needs about {1} registers per thread "
                   "({2} of tiles live at once, around {3}), over its budget "
                   "of {4}{5}. Values kept across stages cost one register "
                   "copy per stage: bring producers closer to their uses, or "
                   "give the group more warp groups{6}.",
                   grp, gr.regsPerThread, kib(peak), gr.peakAt, gr.budget,
                   gr.chosen ? " (chosen)" : r.warpSpecialized ? " (setmaxnreg share)" : "",
                   gr.chosen ? " or a larger budget" : "")
               .str(),
           {grp}});
    // After the loop: the results the epilogue reads (whole), what it makes
    // whole, and a chunk of its element-local math.
    int64_t after = 0;
    for (auto [op, bytes] : g.resultsReadAfterLoop)
      if (p.sched[g.ops[op].unit].group == grp)
        after += bytes;
    if (after > 0 && !gr.producer) {
      if (p.sched[g.ops[g.resultsReadAfterLoop.front().first].unit].group == grp)
        after += g.epilogueWholeBytes;
      gr.epilogueRegsPerThread =
          limits.regOverhead + ceilDiv(after, 4 * sharing) + (g.epiloguePanelMath ? 32 : 0);
    }
    r.registers.push_back(gr);
  }

  // Each dot's wgmma must fit the registers a thread launches with.
  int64_t allThreads = 0;
  for (const GroupRegisters &gr : budgets)
    allThreads += gr.threads;
  int64_t launch = r.launchRegisters > 0 ? r.launchRegisters
                                         : launchRegisterLimit(allThreads, limits);
  if (limits.wgmmaOperandRegs > 0)
    for (const LoopValue &v : g.values) {
      const LoopOp &op = g.ops[v.defOp];
      if (op.opName != "tile.dot")
        continue;
      int64_t grp = p.sched[op.unit].group;
      auto gr = llvm::find_if(budgets, [&](const GroupRegisters &b) { return b.group == grp; });
      if (gr == budgets.end() || gr->producer)
        continue;
      int64_t sharing = r.consumers == Consumers::PingPong ? 128 : gr->threads;
      int64_t acc = ceilDiv(v.bytes, 4 * sharing), need = acc + limits.wgmmaOperandRegs;
      if (need <= launch)
        continue;
      const Unit &u = g.units[op.unit];
      // What would fit: more warp groups sharing the accumulator (fewer
      // registers each, though the block launches with fewer too), or the
      // other groups' threads fewer. Advice from the numbers, not a rule of
      // thumb (the seventh sweep's k35 got "more" from one check and "fewer"
      // from this one for the same kernel).
      std::string advice;
      if (r.consumers != Consumers::PingPong)
        for (int64_t more = gr->threads + 128; more <= 4 * 128 && advice.empty(); more += 128) {
          int64_t block = allThreads - gr->threads + more;
          int64_t acc2 = ceilDiv(v.bytes, 4 * more), launch2 = launchRegisterLimit(block, limits);
          if (block <= 1024 && acc2 + limits.wgmmaOperandRegs <= launch2)
            advice = formatv("give its schedule group {0} warp groups ({1} accumulator registers a "
                             "thread, within the {2} a block of {3} threads launches with)",
                             more / 128, acc2, launch2, block)
                         .str();
        }
      int64_t others = allThreads - gr->threads;
      if (advice.empty() && others > 0 &&
          need <= launchRegisterLimit(gr->threads + std::min<int64_t>(others, 128), limits))
        advice = "give the other schedule groups fewer warp groups";
      if (advice.empty())
        advice = "make the dot narrower";
      r.violations.push_back(
          {Rule::Registers, u.name, "", op.location.empty() ? u.location : op.location,
           formatv("{0}'s wgmma holds {1} accumulator registers a thread, about {2} with its "
                   "operands, but ptxas compiles it within the {3} registers a thread "
                   "launches with ({4} / {5} threads; a later setmaxnreg.inc does not count): "
                   "ptxas would fail (C7602, insufficient registers). To fit, {6}.",
                   u.name, acc, need, launch, limits.regsPerSM, allThreads, advice)
               .str(),
           {grp}});
    }
}

ScheduleReport stagecraft::checkSchedule(const LoopGraph &g,
                                         const Schedule &schedule,
                                         const TargetLimits &limits) {
  ScheduleReport r;
  for (const ScheduleEntry &e : schedule.entries())
    if (g.findUnit(e.name) < 0) {
      std::string known;
      for (const Unit &u : g.units)
        known += (known.empty() ? "" : ", ") + u.name;
      r.violations.push_back(
          {Rule::UnknownUnit, e.name, "", g.loopLocation,
           formatv("the schedule names \"{0}\", but the loop has no op with "
                   "that name (it has: {1})",
                   e.name, known)
               .str()});
    }

  // The rules below compute with stages and orders: values no schedule
  // file or IR can hold (the app's moves can) stop here.
  bool inRange = true;
  for (unsigned u = 0; u < g.units.size(); ++u) {
    std::string range = describeOutOfRange(effectiveSchedule(g, schedule, u));
    if (range.empty())
      continue;
    inRange = false;
    r.violations.push_back({Rule::OutOfRange, g.units[u].name, "", g.units[u].location,
                            formatv("{0} has {1}", g.units[u].name, range).str()});
  }
  if (!inRange)
    return r;

  Placed p(g, schedule);
  r.consumers = effectiveConsumers(g, schedule);
  if (r.consumers == Consumers::PingPong)
    checkPingPong(g, p, r.violations);
  else if (r.consumers == Consumers::Staggered)
    checkStaggered(g, p, r.violations);
  for (unsigned u = 0; u < g.units.size(); ++u)
    if (p.sched[u].wait > 0 && g.units[u].kind != UnitKind::Dot)
      r.violations.push_back(
          {Rule::WaitOnNonDot, g.units[u].name, "", g.units[u].location,
           formatv("{0} has wait = {1}, but a wait depth applies to dots "
                   "(wgmma) only",
                   g.units[u].name, p.sched[u].wait)
               .str()});
  checkGroups(g, p, r.violations);
  checkCluster(g, effectiveCluster(g, schedule), r);
  checkEdges(g, p, r.violations);
  computeBuffers(g, p, limits, r);
  // Ping-pong asked of a kernel without a tile loop cannot run at all: its
  // registers are counted as the cooperative kernel it stays, not as two
  // whole tiles a warp group (which only added errors of no use).
  Consumers asked = r.consumers;
  if (asked == Consumers::PingPong && !g.persistent)
    r.consumers = Consumers::Cooperative;
  computeRegisters(g, p, effectiveRegisters(g, schedule), limits, r);
  r.consumers = asked;

  r.numStages = g.units.empty() ? 1 : p.maxStage - p.minStage + 1;
  r.bodyOrder = p.bodyOrder;
  for (unsigned u : p.bodyOrder) {
    int64_t ahead = p.maxStage - p.sched[u].stage;
    if (!r.steadyState.empty())
      r.steadyState += " ";
    r.steadyState += g.units[u].name +
                     (ahead ? formatv("(i+{0})", ahead).str() : "(i)");
  }
  return r;
}

std::string ScheduleReport::summary() const {
  std::string s = formatv("stages: {0}\n", numStages).str();
  s += "steady state: " + steadyState + "\n";
  for (const LoadBuffers &b : buffers)
    s += formatv("buffer {0}: {1} x {2}\n", b.name, b.copies,
                 kib(b.bytesPerCopy))
             .str();
  s += formatv("shared memory: {0} of {1}\n", kib(smemBytes), kib(smemLimit))
           .str();
  for (const GroupRegisters &g : registers)
    s += formatv("warp group {0}{1}: {2} threads, ~{3} registers/thread{6} "
                 "(budget {4}{5}{7})\n",
                 g.group, g.producer ? " (producer)" : "", g.threads,
                 g.regsPerThread, g.budget, g.chosen ? ", chosen" : "",
                 g.epilogueRegsPerThread > g.regsPerThread
                     ? formatv(" in the loop, ~{0} after it", g.epilogueRegsPerThread).str()
                     : std::string(),
                 // The after-loop figure reads like an overflow where it
                 // passes the budget; the epilogue runs in chunks and is
                 // not held to it (the twelfth sweep's M1).
                 g.epilogueRegsPerThread > g.budget ? "; after the loop an estimate, not checked"
                                                    : "")
             .str();
  s += warpSpecialized ? "warp specialized: yes\n" : "warp specialized: no\n";
  if (cluster > 1) {
    std::string loads;
    for (const std::string &l : sharedLoads)
      loads += (loads.empty() ? "" : ", ") + l;
    s += formatv("cluster: {0} CTAs, {1}\n", cluster,
                 loads.empty() ? std::string("no load shared")
                               : "sharing " + loads + " (multicast)")
             .str();
  }
  return s;
}

std::string stagecraft::explainMove(const LoopGraph &g,
                                    const Schedule &schedule,
                                    llvm::StringRef unit, const OpSchedule &to,
                                    const TargetLimits &limits) {
  int u = g.findUnit(unit);
  if (u < 0)
    return formatv("there is no op named \"{0}\" in this loop", unit).str();
  OpSchedule from = effectiveSchedule(g, schedule, u);
  Schedule moved = schedule;
  moved.set(unit, to);
  ScheduleReport before = checkSchedule(g, schedule, limits);
  ScheduleReport after = checkSchedule(g, moved, limits);
  if (after.legal())
    return "";
  std::string where;
  if (to.stage != from.stage)
    where = formatv("stage {0}", to.stage).str();
  if (to.group != from.group)
    where += (where.empty() ? "" : ", ") +
             formatv("warp group {0}", to.group).str();
  if (where.empty())
    where = "that position";
  // Prefer a violation that names the moved unit and that the move caused.
  auto isNew = [&](const Violation &v) {
    for (const Violation &b : before.violations)
      if (b.rule == v.rule && b.def == v.def && b.use == v.use)
        return false;
    return true;
  };
  const Violation *pick = nullptr;
  for (const Violation &v : after.violations)
    if (isNew(v) && (v.def == unit || v.use == unit)) {
      pick = &v;
      break;
    }
  if (!pick)
    for (const Violation &v : after.violations)
      if (isNew(v)) {
        pick = &v;
        break;
      }
  if (!pick)
    pick = &after.violations.front();
  return formatv("{0} cannot move to {1}: {2}", unit, where, pick->message)
      .str();
}
