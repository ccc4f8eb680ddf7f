//===- SimPlan.cpp - what each unit and warp group does in the model ------===//
#include "core/Timeline/SimPlan.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::timeline;
using llvm::formatv;

std::string stagecraft::timeline::buildPlan(const LoopGraph &g, const Schedule &schedule, const ScheduleReport &report,
                      const KernelCosts &costs, const HopperModel &model, Plan &plan) {
  if (costs.units.size() != g.units.size())
    return formatv("the unit costs list {0} units, the loop has {1}", costs.units.size(),
                   g.units.size())
        .str();
  for (unsigned u = 0; u < g.units.size(); ++u)
    if (costs.units[u].name != g.units[u].name)
      return "the unit costs do not match the loop (" + costs.units[u].name + " vs " +
             g.units[u].name + ")";
  size_t n = g.units.size();
  plan.units.resize(n);
  std::map<int64_t, int64_t> minStage;
  for (unsigned u = 0; u < n; ++u) {
    OpSchedule s = effectiveSchedule(g, schedule, u);
    UnitPlan &p = plan.units[u];
    p.kind = g.units[u].kind;
    p.group = s.group;
    p.stage = s.stage;
    p.wait = s.wait;
    auto it = minStage.find(s.group);
    if (it == minStage.end() || s.stage < it->second)
      minStage[s.group] = s.stage;
  }
  for (unsigned u = 0; u < n; ++u)
    plan.units[u].offset = plan.units[u].stage - minStage[plan.units[u].group];

  // Groups, roles and warp groups.
  std::set<int64_t> groups;
  for (const UnitPlan &p : plan.units)
    groups.insert(p.group);
  bool specialized = groups.size() > 1;
  int consumerIndex = 0, producerIndex = 0;
  int producers = 0;
  for (int64_t grp : groups) {
    bool onlyLoads = true;
    for (const UnitPlan &p : plan.units)
      if (p.group == grp && p.kind != UnitKind::Load)
        onlyLoads = false;
    producers += specialized && onlyLoads;
  }
  for (int64_t grp : groups) {
    bool onlyLoads = true;
    for (const UnitPlan &p : plan.units)
      if (p.group == grp && p.kind != UnitKind::Load)
        onlyLoads = false;
    bool producer = specialized && onlyLoads;
    int64_t count = g.warpGroupsOf(grp);
    for (int64_t i = 0; i < count; ++i) {
      WarpGroupPlan w;
      w.group = grp;
      w.indexInGroup = static_cast<int>(i);
      w.groupSize = static_cast<int>(count);
      w.producer = producer;
      w.issuesLoads = i == 0;
      w.computes = !producer;
      if (producer)
        w.name = producers > 1 || count > 1 ? formatv("producer {0}", producerIndex++).str()
                                            : std::string("producer");
      else
        w.name = formatv("consumer {0}", consumerIndex++).str();
      for (unsigned u : report.bodyOrder)
        if (plan.units[u].group == grp) {
          w.units.push_back(u);
          w.span = std::max(w.span, plan.units[u].offset);
        }
      // Staggered: the two warp groups of the loop's math take turns over
      // the body's span from its first dot to its last (legality checked
      // there is exactly one such group of two).
      if (report.consumers == Consumers::Staggered && !producer && count == 2)
        for (size_t pos = 0; pos < w.units.size(); ++pos)
          if (plan.units[w.units[pos]].kind == UnitKind::Dot) {
            if (w.turnBegin < 0)
              w.turnBegin = static_cast<int>(pos);
            w.turnEnd = static_cast<int>(pos);
          }
      // Ping-pong: each warp group a team with whole tiles of its own
      // (legality checked there is exactly one such group of two).
      if (report.consumers == Consumers::PingPong && !producer && count > 1) {
        w.teams = static_cast<int>(count);
        plan.teams = w.teams;
      }
      plan.wgs.push_back(std::move(w));
    }
    plan.threads += 128 * count;
  }

  // Buffers.
  for (const LoadBuffers &b : report.buffers) {
    int u = g.findUnit(b.name);
    if (u >= 0)
      plan.units[u].copies = std::max<int64_t>(1, b.copies);
  }

  // Edges: who reads which buffer, which dot results each unit waits for.
  auto accumulatesOnto = [&](unsigned use, unsigned def) {
    const auto &names = costs.units[use].accumulatesOnto;
    return std::find(names.begin(), names.end(), g.units[def].name) != names.end();
  };
  for (const Edge &e : g.edges) {
    UnitPlan &def = plan.units[e.def];
    UnitPlan &use = plan.units[e.use];
    if (def.kind == UnitKind::Load) {
      if (e.def != e.use && !e.loopCarried) {
        if (std::find(def.readers.begin(), def.readers.end(), e.use) == def.readers.end())
          def.readers.push_back(e.use);
        if (std::find(use.loadInputs.begin(), use.loadInputs.end(), e.def) == use.loadInputs.end())
          use.loadInputs.push_back(e.def);
      }
      continue;
    }
    if (def.kind != UnitKind::Dot)
      continue;
    // A dot result crossing the kernel loop's back edge (carried to the
    // next source iteration, or read in a later stage) is retired by a wait
    // that closes the iteration, except a dot's own accumulator chain,
    // which wgmma orders in hardware.
    bool ownChain = e.def == e.use && e.loopCarried && accumulatesOnto(e.use, e.def);
    if (!ownChain && (e.loopCarried || use.stage > def.stage))
      def.carriedRetire = true;
    // A dot accumulating onto a dot result chains in registers: no wait.
    if (use.kind == UnitKind::Dot && accumulatesOnto(e.use, e.def))
      continue;
    UnitPlan::DotDep dep{e.def, e.loopCarried ? 1 : 0};
    bool have = false;
    for (const auto &d : use.dotDeps)
      have |= d.dot == dep.dot && d.back == dep.back;
    if (!have)
      use.dotDeps.push_back(dep);
  }
  // How many kernel iterations a dot's group may stay in flight: what its
  // rings have copies for beyond the stages between the load and the dot
  // (for a GEMM, the schedule's `wait`).
  for (unsigned u = 0; u < n; ++u) {
    UnitPlan &p = plan.units[u];
    if (p.kind != UnitKind::Dot)
      continue;
    for (unsigned l : p.loadInputs)
      p.ringLag = std::min(p.ringLag, std::max<int64_t>(
                                          0, plan.units[l].copies - 1 - (p.stage - plan.units[l].stage)));
  }

  // Costs per warp group.
  std::set<int64_t> chargedGroups;
  std::vector<MathWork> unitMath(n);
  for (unsigned u = 0; u < n; ++u) {
    UnitPlan &p = plan.units[u];
    const UnitWork &w = costs.units[u];
    // The warp groups that split this unit's work: a ping-pong team does
    // its tile whole.
    int64_t size = plan.teamGroup(p.group) ? 1 : g.warpGroupsOf(p.group);
    double share = 1.0 / static_cast<double>(size);
    p.bytes = static_cast<double>(w.loadBytes);
    p.boxes = std::max<int64_t>(1, w.loadBoxes);
    p.storeBytes = static_cast<double>(w.storeBytes) * share;
    p.writesAccumulator = w.writesAccumulator;
    for (const std::string &name : w.accumulatorOf)
      if (int d = g.findUnit(name); d >= 0)
        p.accumulatorOf.push_back(static_cast<unsigned>(d));
    for (const DotWork &d : w.dots) {
      p.dotCycles += model.dotCycles(d, share);
      p.wgmmaInstr += model.wgmmaInstructions(d, share);
      p.registerA |= d.aInRegisters;
    }
    MathWork math = w.math.scaled(share);
    // The loop's own instructions beside the counted ones, once an
    // iteration per warp group: on its first unit with register math.
    if (!math.empty() && model.mathIterationInstructions > 0 &&
        chargedGroups.insert(p.group).second)
      math.other += model.mathIterationInstructions * 128.0;
    p.mathCycles = model.mathCycles(math);
    unitMath[u] = math;
    if (p.kind == UnitKind::Load && p.bytes <= 0)
      p.bytes = static_cast<double>(g.units[u].bufferBytes);
    p.linkBytes = p.bytes;
    // A load the cluster's CTAs share (multicast) still brings all of its
    // bytes into this SM: its L2 reads are 1/cluster, but the H100's
    // clustered GEMM iterated as fast as the unclustered one (704 ns,
    // bench/results/cluster-h100-2026-11-25), so the model charges the
    // whole tile here as before.
  }
  // One instruction stream: register math units that follow each other in a
  // warp group's body with nothing to wait for between them (no loaded
  // tile, dot result or accumulator) issue as one stream, their pipes
  // overlapping (a softmax's exponentials on the MUFU beside its
  // subtractions on the FMA pipe), whatever the units: the lowering draws
  // no line between them. Each unit of such a run takes its share of the
  // run's time (the eighth sweep's B2: a softmax split into an op a unit
  // was predicted 1.5x slower, the same machine code).
  std::set<int64_t> streamedGroups;
  for (const WarpGroupPlan &w : plan.wgs) {
    if (!w.computes || !streamedGroups.insert(w.group).second)
      continue;
    // What a unit waits for, keyed by the kernel-relative iteration: a
    // loaded tile of its own source iteration, a dot's result of it (or of
    // the one before). A later unit of the run that reads what an earlier
    // one waited for waits for nothing (two halves of a softmax both reading
    // S: the eleventh sweep's B6, +25% for the same code).
    using Key = std::pair<unsigned, int64_t>;
    auto keysOf = [&](const UnitPlan &p) {
      std::set<Key> keys;
      for (unsigned l : p.loadInputs)
        keys.insert({l, p.stage});
      for (const UnitPlan::DotDep &d : p.dotDeps)
        keys.insert({d.dot, p.stage + d.back});
      return keys;
    };
    for (size_t a = 0; a < w.units.size();) {
      size_t b = a + 1;
      if (plan.units[w.units[a]].kind == UnitKind::Compute) {
        std::set<Key> waited = keysOf(plan.units[w.units[a]]);
        while (b < w.units.size() && plan.units[w.units[b]].kind == UnitKind::Compute &&
               !plan.units[w.units[b]].writesAccumulator &&
               llvm::all_of(keysOf(plan.units[w.units[b]]),
                            [&](const Key &k) { return waited.count(k) > 0; }))
          ++b;
      }
      if (b - a > 1) {
        MathWork run;
        double apart = 0;
        for (size_t k = a; k < b; ++k) {
          run += unitMath[w.units[k]];
          apart += plan.units[w.units[k]].mathCycles;
        }
        double together = model.mathCycles(run);
        if (apart > 0 && together < apart)
          for (size_t k = a; k < b; ++k)
            plan.units[w.units[k]].mathCycles *= together / apart;
      }
      a = b;
    }
  }
  // Values kept across kernel iterations. Op x of source iteration i runs
  // at body time (i + stage(x)) * L + its position in the body (as the
  // schedule's register estimate counts, Legality.cpp). A value living
  // longer than one body, from its def to its last use, needs more than one
  // set of registers at once; the lowering carries the sets in iter_args
  // that rotate at the back edge, every set after the first moved each
  // iteration. So S made by MMA0(i+1) before Softmax(i) reads S(i) is moved
  // whole each iteration (cp-dot0-s2), while a value whose readers all come
  // before its next definition in the body moves nothing: Triton's P, read
  // by MMA1(i-1) before Softmax(i) makes the next one (cp-dot1-s3), or
  // FlashAttention-3's (cp-mul-early). The H100's SASS of the attention
  // assets' steady loops has exactly these moves: 60 more than the default
  // schedule's at head dim 64 under cp-dot0-s2 (S: 64 a thread), none
  // under the other two (bench/results/carried-moves-sass-h100-2026-11-27).
  std::vector<int64_t> opPos(g.ops.size(), 0);
  int64_t bodyLength = 0;
  for (unsigned u : report.bodyOrder)
    for (unsigned op : g.units[u].ops)
      opPos[op] = bodyLength++;
  std::map<int64_t, double> moves; // group -> lane moves per iteration
  for (const LoopValue &v : g.values) {
    if (v.uses.empty() || bodyLength == 0)
      continue;
    const UnitPlan &def = plan.units[g.ops[v.defOp].unit];
    int64_t birth = def.stage * bodyLength + opPos[v.defOp], death = birth;
    for (const ValueUse &use : v.uses) {
      const UnitPlan &u = plan.units[g.ops[use.op].unit];
      death = std::max(death, (u.stage + (use.loopCarried ? 1 : 0)) * bodyLength + opPos[use.op]);
    }
    int64_t sets = (death - birth + bodyLength - 1) / bodyLength;
    if (sets > 1)
      moves[def.group] += static_cast<double>(sets - 1) * static_cast<double>(v.bytes) / 4.0;
  }
  for (WarpGroupPlan &w : plan.wgs)
    if (w.computes && moves.count(w.group)) {
      MathWork m;
      m.fma = moves[w.group] / (w.teams > 1 ? 1 : w.groupSize);
      w.carryCycles = model.mathCycles(m);
    }
  // The warp groups that share a tile's epilogue: every consumer, or a
  // ping-pong team alone.
  int64_t consumers = 0;
  for (const WarpGroupPlan &w : plan.wgs)
    consumers += w.computes;
  consumers /= plan.teams;
  double share = consumers ? 1.0 / consumers : 1.0;
  plan.epilogueMathCycles = model.mathCycles(costs.epilogueMath.scaled(share));
  plan.epilogueTileMathCycles = model.mathCycles(costs.epilogueMath);
  // An epilogue longer than the instruction cache: fetched by every CTA
  // (HopperModel::icacheInstructions). Its instructions a thread: the
  // counted operations of a warp group's share over its 128 threads.
  {
    const MathWork m = costs.epilogueMath.scaled(share);
    double perThread =
        (m.fma + m.mufu + m.convert / 2 + m.shuffle + m.generic + m.other + m.integer) / 128.0;
    // The warp groups run the same code: the SM fetches it once for all of
    // them, so each is charged its share of the fetch on the shared pipes.
    if (model.icacheInstructions > 0 && perThread > model.icacheInstructions) {
      double fetch = perThread * model.uncachedCyclesPerInstruction;
      plan.epilogueMathCycles = std::max(plan.epilogueMathCycles, fetch * share);
      plan.epilogueTileMathCycles = std::max(plan.epilogueTileMathCycles, fetch);
    }
  }
  plan.epilogueStoreBytes = static_cast<double>(costs.epilogueStoreBytes);
  for (int64_t b : costs.epiloguePanelBytes)
    plan.epiloguePanelBytes.push_back(static_cast<double>(b));
  if (plan.epiloguePanelBytes.empty() && costs.epilogueStoreBytes > 0)
    plan.epiloguePanelBytes.push_back(plan.epilogueStoreBytes);
  // The tiles only the epilogue reads: at the start with the others, or
  // after the loop where they would not fit otherwise (as the lowering).
  double epilogueLoads = static_cast<double>(costs.epilogueLoadBytes);
  plan.prologueLoadBytes = static_cast<double>(costs.prologueLoadBytes) +
                           (report.epilogueLoadsAfterLoop ? 0 : epilogueLoads);
  plan.epilogueLoadBytes = report.epilogueLoadsAfterLoop ? epilogueLoads : 0;
  return "";
}
