//===- KernelCosts.h - the work of each unit of a loop, as plain data -*- C++ -*-===//
//
// What the timeline model needs to know about a kernel beyond its LoopGraph:
// the work of one execution of each unit (bytes loaded, dot shapes, element
// operations by the pipe that runs them), the work before and after the
// loop, and how many iterations each CTA runs. Extracted once from the IR
// (UnitCosts.h: extractKernelCosts) and kept with the graph, so the app
// re-simulates on every drag without touching MLIR.
//
// Counts are for the whole CTA (every warp group of the unit's schedule
// group together); the simulator divides them among the warp groups.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_KERNELCOSTS_H
#define STAGECRAFT_CORE_TIMELINE_KERNELCOSTS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::timeline {

/// Element operations of register math, by the pipe that executes them.
struct MathWork {
  double fma = 0;     // FP32 add/mul/fma, min/max, compare, select (FMA pipe)
  double mufu = 0;    // exp2, log2, rcp, rsqrt, sqrt, tanh, sin, cos (MUFU)
  double convert = 0; // float conversions between f32 and bf16/f16/fp8
  double shuffle = 0; // warp-shuffle lane operations (cross-thread reductions)
  double generic = 0; // ops of no known class (costed as 2 FMA-pipe ops each)
  double other = 0;   // instructions beside the counted operations (issue slots only)
  double integer = 0; // 32-bit integer ops: an issue slot each, the INT32 pipe (half rate)

  MathWork &operator+=(const MathWork &o) {
    fma += o.fma;
    mufu += o.mufu;
    convert += o.convert;
    shuffle += o.shuffle;
    generic += o.generic;
    other += o.other;
    integer += o.integer;
    return *this;
  }
  MathWork scaled(double f) const {
    return {fma * f, mufu * f, convert * f, shuffle * f, generic * f, other * f, integer * f};
  }
  bool empty() const {
    return fma == 0 && mufu == 0 && convert == 0 && shuffle == 0 && generic == 0 &&
           other == 0 && integer == 0;
  }
};

/// One tile.dot: result M x N, reduction K.
struct DotWork {
  int64_t m = 0, n = 0, k = 0;
  std::string inputType = "bf16"; // "bf16", "f16", "f8", "tf32", or another name
  bool aInRegisters = false;      // A from registers (wgmma RS), not shared memory
  double flops() const { return 2.0 * m * n * k; }
};

/// Where one TMA load of a unit reads, CTA by CTA: the CTAs resident at once
/// that load the same box share one trip to DRAM and hit in the L2 after it
/// (Simulator.cpp: the miss fraction of a load).
struct LoadFootprint {
  int64_t bytes = 0;
  /// A hash of (tensor, box coordinates) at the loops' first iterations for
  /// each of the first CTAs in launch order (blockIdx.x fastest); empty when
  /// the coordinates could not be evaluated.
  std::vector<uint64_t> boxPerCta;
};

/// One execution of a unit (one source iteration), for the whole CTA.
struct UnitWork {
  std::string name;
  int64_t loadBytes = 0; // TMA loads into shared memory
  int64_t loadBoxes = 0; // TMA instructions (a tile wider than 128 bytes is several boxes)
  int64_t storeBytes = 0;
  std::vector<LoadFootprint> footprints; // one per TMA load
  std::vector<DotWork> dots;
  MathWork math;
  /// Ops that got the generic cost (not a known class), for the notes.
  std::vector<std::string> genericOps;
  /// Dots: the units whose result is this dot's accumulator input (the
  /// hardware chains wgmma on one accumulator: no wait between them).
  std::vector<std::string> accumulatesOnto;
  /// The unit's result is a dot's accumulator input (those dots' units): in
  /// the steady state the lowering waits for those dots' latest groups, in
  /// the predicated kernel iterations for every group (ptxas would serialize
  /// wgmma otherwise; passes/Lowering/Expansion.cpp).
  bool writesAccumulator = false;
  std::vector<std::string> accumulatorOf;

  double dotFlops() const {
    double f = 0;
    for (const DotWork &d : dots)
      f += d.flops();
    return f;
  }
};

/// `count` consecutive CTAs (in linear order, blockIdx.x fastest) that run
/// the pipelined loop `passes` times with `trip` iterations each.
struct CtaRun {
  int64_t passes = 1;
  int64_t trip = 0;
  int64_t count = 1;
};

struct KernelCosts {
  std::string kernel;
  /// Parallel to LoopGraph::units.
  std::vector<UnitWork> units;
  /// Before the loop (tiles loaded once, e.g. Q) and after it (the output).
  int64_t prologueLoadBytes = 0;
  MathWork prologueMath;
  /// Tiles only the epilogue reads (a residual, isEpilogueOnlyLoad): loaded
  /// with the others before the loop, or after it where they would not fit
  /// otherwise (ScheduleReport::epilogueLoadsAfterLoop).
  int64_t epilogueLoadBytes = 0;
  int64_t epilogueStoreBytes = 0;
  /// The stores' panels in store order (bytes each): the lowering stages
  /// and stores one 128-byte-wide column panel at a time (ConsumerLoop.cpp,
  /// emitStore). Empty: one panel of epilogueStoreBytes.
  std::vector<int64_t> epiloguePanelBytes;
  MathWork epilogueMath;
  /// Bytes of the global tensors the kernel reads and writes (each once):
  /// a floor on the whole run through DRAM bandwidth.
  double dramBytes = 0;
  /// Of those, the bytes of the tensors the kernel stores (each written once).
  double storedBytes = 0;
  std::vector<int64_t> grid{1, 1, 1};
  std::vector<CtaRun> ctas;
  std::vector<std::pair<std::string, int64_t>> sizes;
  /// What the extraction had to assume ("the trip count of ... could not be
  /// evaluated: assumed 64").
  std::vector<std::string> notes;

  int64_t numCtas() const {
    int64_t n = 0;
    for (const CtaRun &r : ctas)
      n += r.count;
    return n;
  }
  /// The FLOPs a predicted TFLOP/s counts, set by whoever knows the
  /// kernel's manifest (passes/Driver/PredictionCosts.h): the same count as
  /// the runner's measured TFLOP/s, exact problem sizes rather than padded
  /// tiles. 0: dotFlops().
  double flops = 0;
  double countedFlops() const { return flops > 0 ? flops : dotFlops(); }
  /// Floating-point operations of the dots over the whole launch, as
  /// executed (partial tiles padded).
  double dotFlops() const {
    double perIteration = 0;
    for (const UnitWork &u : units)
      perIteration += u.dotFlops();
    double iterations = 0;
    for (const CtaRun &r : ctas)
      iterations += double(r.passes) * r.trip * r.count;
    return perIteration * iterations;
  }
};

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_KERNELCOSTS_H
