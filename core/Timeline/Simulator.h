//===- Simulator.h - a discrete-event model of a scheduled loop ---*- C++ -*-===//
//
// Predicts how a schedule runs on one SM of a Hopper GPU: every warp group
// of the CTA walks its units in body order over kernel iterations k, unit u
// running source iteration k - (stage(u) - the group's first stage), as the
// lowering emits them (docs/compiler.md). On the way it
//  - waits for a free ring slot before a load (the buffer of iteration
//    i - copies must have been released), and the load completes after the
//    TMA latency plus its bytes at this SM's share of the L2 bandwidth (one
//    transfer at a time per SM);
//  - waits for the full barriers of a dot's operands, issues its wgmma
//    groups to the SM's tensor cores (shared by the consumer warp groups,
//    first come first served) and goes on: wgmma is asynchronous;
//  - waits for a dot's group where a unit reads its result, retires every
//    group before a unit that writes a dot's accumulator input, keeps at
//    most `wait` groups of a dot that only feeds dots (MMA pipelining), and
//    retires carried dot results and ring-bound groups at the end of an
//    iteration; a load's buffer is released when every warp group reading
//    it has passed the wait that retires its reader;
//  - runs register math on the SM's CUDA cores (one warp group at a time).
// From a few CTAs' runs it derives the steady-state iteration time, what
// bounds it, and the whole launch (CTAs per SM from registers, shared memory
// and threads; waves; DRAM floor). docs/timeline.md describes the model and
// its calibration.
//
// MLIR-free: the app calls it on every drag with the graph, the schedule,
// its report and the costs extracted when the file was opened.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_SIMULATOR_H
#define STAGECRAFT_CORE_TIMELINE_SIMULATOR_H

#include "core/Schedule/Legality.h"
#include "core/Timeline/CostModel.h"
#include "core/Timeline/KernelCosts.h"
#include "core/Timeline/Timeline.h"

namespace stagecraft::timeline {

struct SimOptions {
  /// Registers per thread from ptxas when known (0: estimated from the
  /// schedule report, or the setmaxnreg split of a warp-specialized kernel).
  int64_t registersPerThread = 0;
  /// Dynamic shared memory of the compiled kernel when known (0: the
  /// report's buffers plus 1 KiB of alignment).
  int64_t dynamicSmemBytes = 0;
  /// Zones of the shown CTA are kept for source iterations below this
  /// (-1: all), and at most maxZones of them.
  int64_t displayIterations = -1;
  size_t maxZones = 50000;
  /// Iterations simulated per CTA before extrapolating at the steady-state
  /// rate (long loops).
  int64_t maxSimulatedIterations = 256;
  /// Predict the whole launch (every distinct trip count), not only the
  /// shown CTA.
  bool wholeLaunch = true;
};

struct ResourceUse {
  std::string name; // "tensor cores", "TMA loads", "CUDA cores"
  double busy = 0;  // fraction of the steady state
};

struct Prediction {
  bool ok = false;
  std::string error;

  /// The problem sizes it was predicted at (the kernel's, with overrides).
  std::vector<std::pair<std::string, int64_t>> sizes;

  /// One CTA (the longest-running kind), from its start.
  Timeline timeline;
  int64_t shownTrip = 0;

  /// Steady state.
  double iterationNs = 0;
  std::string bound;       // "tensor cores", "TMA loads", "CUDA cores", "latency"
  std::string boundDetail; // a sentence: what is busy, or what waits for what
  std::vector<ResourceUse> utilization;

  /// Launch.
  int64_t threadsPerCta = 0, registersPerThread = 0, smemPerCta = 0;
  int64_t ctasPerSM = 1;
  std::string occupancyLimit; // "registers", "shared memory", "threads", "CTA slots"
  int64_t ctas = 0;
  double waves = 0;
  double ctaNs = 0;   // the shown CTA alone on its SM (with its co-resident CTAs)
  double totalNs = 0; // the whole launch
  double flops = 0;   // the FLOPs tflops counts (KernelCosts::countedFlops)
  double executedFlops = 0; // the dots' FLOPs as executed (partial tiles padded)
  /// How many iterations ahead of their readers the loop's loads run (the
  /// most of any load), and its link bytes per tensor-core cycle of its dots
  /// (0 without loads or dots): the sharers' drift (CostModel.h,
  /// driftLeadIterations).
  int64_t loadLead = 0;
  double linkBytesPerTensorCycle = 0;
  double tflops = 0;
  /// The SM clock its cycles were converted at (GHz): the model's one clock,
  /// or the power clock's for this launch (CostModel.h, clockMaxGHz).
  double clockGHz = 0;
  /// The DRAM's traffic over the launch (TB/s): the loop's loads at the first
  /// wave's miss fractions, at least the launch's distinct bytes.
  double dramTBps = 0;
  /// Per load unit of the loop, the part of its bytes from DRAM (boxes no
  /// other CTA of the first wave loads), the rest L2 hits; and the part the
  /// SM beside it on its TPC loads too (LoadSharing.h). -1 when its boxes
  /// could not be evaluated (coordinates the model cannot compute).
  struct LoadSource {
    std::string unit;
    double dramFraction = -1;
    double tpcShared = -1;
  };
  std::vector<LoadSource> loadSources;
  std::vector<std::string> notes;
  /// Where the compiler would refuse the kernel: its error (a prediction of
  /// where time would go in a loop that cannot be built yet); else "".
  std::string compilerRefusal;

  /// "iteration 0.74 us (tensor cores: busy 93%), 744 TFLOP/s predicted".
  std::string summary() const;
  /// "from DRAM: loadA 48%, loadB 2% (...)" and on a line of its own "shared
  /// with the SM beside it on its TPC: loadA 0%, loadB 100% (...)", or "" for
  /// a loop without loads.
  std::string loadSourcesText() const;
  /// The bound's detail and, on a line of their own unless the detail has
  /// them (a DRAM bound), the load sources.
  std::string boundAndSourcesText() const;
};

/// Simulates a legal schedule. Never throws; an illegal schedule or costs
/// that do not match the graph give ok = false with the reason.
Prediction predict(const LoopGraph &graph, const Schedule &schedule,
                   const ScheduleReport &report, const KernelCosts &costs,
                   const HopperModel &model, const SimOptions &options = {});

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_SIMULATOR_H
