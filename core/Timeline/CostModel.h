//===- CostModel.h - a Hopper latency/throughput model ------------*- C++ -*-===//
//
// The rates and latencies the timeline simulator charges, for one SM of an
// H100 SXM5. Two kinds of numbers:
//  - device facts (published: NVIDIA's H100 whitepaper, the CUDA C++
//    Programming Guide's throughput table, the PTX ISA), fixed;
//  - a handful of global parameters fitted once on the committed GPU results
//    (bench/timeline/calibrate.py; the values and the fit are in
//    docs/timeline.md). They are the same for every kernel and schedule.
//
// Plain data (LLVM Support for JSON only): the app and the CLIs share it, and
// calibration overrides fields from a JSON object of the same names.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_TIMELINE_COSTMODEL_H
#define STAGECRAFT_CORE_TIMELINE_COSTMODEL_H

#include "core/Timeline/KernelCosts.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <string>

namespace stagecraft::timeline {

struct HopperModel {
  // --- Device facts (H100 SXM5; docs/timeline.md cites each).
  std::string device = "H100 SXM5";
  int64_t sms = 132;
  /// Dense tensor-core rate per SM and clock for bf16/f16 inputs (fp8 twice,
  /// tf32 half): 989.4 TFLOP/s = 132 SMs x 4096 x 1.83 GHz.
  double tensorFlopsPerCycle = 4096;
  double fmaPerCycle = 128;     // FP32 FMA lanes per SM
  double mufuPerCycle = 16;     // special-function results per SM (ex2, rcp, ...)
  double convertPerCycle = 32;  // f32 -> bf16 results (16 cvt.bf16x2 per clock)
  double shufflePerCycle = 32;  // shuffle lane operations per SM
  double integerPerCycle = 64;  // INT32 lanes per SM (beside the FP32 pipe)
  double hbmBytesPerSecond = 3.35e12;
  /// The L2's capacity (bytes): a launch whose loads' distinct bytes fit in
  /// it reads them from DRAM once (l2HitLoadBytesPerCycle below).
  double l2Bytes = 50.0 * 1024 * 1024;
  /// The fraction of it the loop's L2 misses get (TMA boxes, many pages at
  /// once, beside the other CTAs' writes): the bound on the SMs' TMA rate.
  double dramEfficiency = 0.7688;
  /// Of a box both SMs of a TPC load at once, the part of the second copy
  /// the TPC's link does not carry again: measured, not fitted (bench/
  /// results/l2-sharing-h100-2026-11-26: two SMs of a TPC reading the same
  /// bytes took 1.75x the rate of two reading different ones; 2 - 2/1.75).
  double tpcCoalescing = 0.857;
  double stagingBytesPerCycle = 128; // registers -> shared memory (st.shared, per SM)
  int64_t smemPerSM = 233472;   // 228 KiB
  int64_t smemReservedPerCta = 1024;
  int64_t regsPerSM = 65536;
  int64_t threadsPerSM = 2048;
  int64_t ctasPerSM = 32;
  /// Thread-block clusters that fit on the GPU at once with one CTA per SM
  /// (a cluster's CTAs share a GPC): measured by the runner's
  /// cuOccupancyMaxActiveClusters on the H100 (bench/results/cluster-h100-
  /// 2026-11-25): 66 of 2 CTAs, 30 of 4. 0: every SM's slot (no cluster).
  int64_t residentClusters(int64_t cluster) const {
    return cluster == 2 ? 66 : cluster == 4 ? 30 : 0;
  }

  // --- Fitted (bench/timeline/calibrate.py); global, never per kernel.
  /// The reference clock (GHz, not searched) the memory side's rates below
  /// are given in cycles of: the L2 and DRAM have their own clock (the
  /// H100's L2 at 1.707 GHz in every profiled kernel, whatever the SM's), so
  /// those rates are fixed in bytes a ns and atSmClock rescales them to the
  /// SM clock the power clock picks. With the power clock off (clockMaxGHz
  /// 0) every kernel runs at this clock.
  double clockGHz = 1.75;
  /// The power clock (measured, not fitted: Nsight Compute's SM clock of 50
  /// kernels, bench/timeline/ncu/power_clock.py over bench/results/ncu-*-
  /// h100-2026-11-27): under the 700 W cap the SM clock falls as the tensor
  /// pipe gets busier and as the DRAM moves more bytes, as if the power were
  /// f x (a + b u) + c D at a cap: min(clockMaxGHz, (1 - c D) / (a + b u))
  /// for a launch whose tensor pipe is busy u of the time while the DRAM
  /// moves D TB/s (clockDramPowerPerTBps is c). The curve: clockMaxGHz at
  /// u = tensorBusyAtClockMax without DRAM traffic, clockFullTensorGHz at u = 1.
  /// Measured: 1.79-1.81 GHz for attention at 22-66% busy and 0.1 TB/s,
  /// 1.50-1.58 for the GEMMs at 90-98% and 1.2-2.0 TB/s, 1.60-1.77 for
  /// GEMMs at 43-65% busy and 2.2-2.9 TB/s; the curve is within 0.024 GHz
  /// (rms) of them, 0.09 for the worst (the row-major persistent GEMM, 1.42).
  /// clockMaxGHz 0: one clock, clockGHz, for every kernel (the model until
  /// 2026-11-27; docs/timeline.md, the clock).
  double clockMaxGHz = 1.797;
  double clockFullTensorGHz = 1.608;
  double tensorBusyAtClockMax = 0.666;
  double clockDramPowerPerTBps = 0.0385;
  /// Achieved fraction of the peak wgmma rate.
  double tensorEfficiency = 0.9692;
  /// Per-SM share of the L2 -> shared memory bandwidth of TMA loads (bytes
  /// per cycle), when every SM streams at once, for bytes the SM beside it
  /// does not load too (LoadSharing.h; measured on the H100: 31.5 bytes an
  /// SM cycle, 58 B/ns, bulk copies; 62-65 B/ns, tensor copies of L2 hits
  /// with every SM streaming). In cycles of the reference clockGHz. Since
  /// the hits and misses have their own rates (below), the rate of loads
  /// whose boxes the model cannot evaluate, and the reference the larger
  /// shares of part-full launches (loadBytesPerCycleMax) are scaled from.
  double loadBytesPerCycle = 31.2;
  /// What one SM's TMA can take when fewer CTAs stream (a grid that leaves
  /// SMs idle or part full): the L2's bandwidth is shared by the CTAs that
  /// stream, each SM up to this limit (bytes per cycle).
  double loadBytesPerCycleMax = 66.32;
  /// TMA load latency beyond the transfer itself (cycles of the reference
  /// clock).
  double loadLatencyCycles = 850;
  /// The L2's hits and misses. A load whose boxes the model can evaluate
  /// (LoadSharing.h) streams at the L2's rate for its hits and a slower one
  /// for the bytes that miss and come from DRAM: an SM's share is
  /// 1 / ((1 - m) / l2HitLoadBytesPerCycle + m / l2MissLoadBytesPerCycle)
  /// for a miss fraction m of the loop's loaded bytes (the first wave's:
  /// of the CTAs loading a box at once one misses), where loadBytesPerCycle
  /// above is the rate of loads whose boxes are unknown and the reference
  /// of loadShare's larger shares (l2RateFactor). A launch whose loads'
  /// distinct bytes the L2 holds (l2Bytes) reads them from DRAM in its
  /// first round of CTAs; its later rounds' loads all hit (m = 0), and a
  /// last round of few CTAs, streaming alone, also lands its boxes after
  /// l2HitLatencyCycles (full rounds keep loadLatencyCycles: their queue;
  /// the 64x24 GEMM tiles' rings of two, 704 CTAs, wait as long for their
  /// hits). l2HitLoadBytesPerCycle is measured, not fitted: 62-65 B/ns an
  /// SM of L2 hits with every SM streaming tensor copies (bench/results/
  /// tma-issue-h100-2026-11-27); the 128x128 GEMM at K = 1024 (32 MB of
  /// operands) reads 1.37 bytes a kflop from DRAM, its operands once and its
  /// stores, and runs its 16-iteration CTAs at the rate of the 128-iteration
  /// ones at K = 8192 (bench/results/drift-k-h100-2026-11-28), which a
  /// model with one rate for all loads predicted 15.6% slow; the persistent
  /// ping-pong GEMM, whose first wave misses 10% of its bytes, streams 65 B/ns
  /// of link bytes an SM where the one rate gave it 58. l2MissLoadBytesPerCycle and
  /// l2HitLatencyCycles are fitted. l2MissLoadBytesPerCycle 0: every load at
  /// loadBytesPerCycle but the later rounds' hits; l2HitLoadBytesPerCycle 0:
  /// every load at loadBytesPerCycle.
  double l2HitLatencyCycles = 300;
  double l2HitLoadBytesPerCycle = 36.5;
  double l2MissLoadBytesPerCycle = 22.7;
  /// An mbarrier handoff: the arrive (or a TMA's complete_tx) until the
  /// waiting warp runs again (cycles).
  double syncLatencyCycles = 121.8;
  /// Register math issues at this fraction of the issue slots' rate
  /// (dependency chains, register moves, predication, address math), and a
  /// stream with cross-lane reductions runs its pipes at it too.
  double mathEfficiency = 0.681;
  /// Register math issued by the one warp group that computes on its SM (a
  /// single consumer, one CTA an SM) issues at this fraction of
  /// mathEfficiency: mathEfficiency is what two consumers' streams reach
  /// together, interleaved on each sub-partition, while one warp a
  /// sub-partition waits out its dependency chains alone (Nsight Compute,
  /// bench/results/ncu-consumers-h100-2026-11-27: a second consumer adds
  /// 12% of register-math throughput without a mask, 1.5% soft-capped,
  /// none causal; a consumer alone runs 0.35 instructions a cycle); a
  /// stream with reductions runs its pipes at that rate too, element-wise
  /// math its pipes bound keeps their rate (pipeEfficiency). Fitted: 0.8 (a
  /// scan of 0.7, 0.8, 0.89 with the rest held: 699, 701, 698 of 718
  /// one-schedule groups, the ranked groups unchanged; the one-consumer
  /// attention kernels 14-27% fast before, bench/results/heldout-variants-
  /// h100-2026-11-28 among them). 1: no difference.
  double loneMathRate = 0.8;
  /// Instructions a computing warp group's loop issues each kernel iteration
  /// beside the operations its units count (per thread): loop control,
  /// barrier waits and arrives, wgmma fences and descriptors, address and
  /// predicate math. Charged to the issue slots of its first unit with
  /// register math. The SASS of the attention kernels' steady loops has
  /// 80-100 such instructions beside the counted ones, and the mask's
  /// integer compares (bench/results/carried-moves-sass-h100-2026-11-27).
  /// Fitted: 100 (a scan of 60-320 with the rest held, 90 and 100 best;
  /// `math_efficiency` and the others held, their scans no better).
  /// 0: none.
  double mathIterationInstructions = 100;
  /// Straight-line code longer than the instruction cache (128 KiB of
  /// 16-byte instructions) is fetched again by every CTA: an epilogue whose
  /// instructions a thread exceed `icacheInstructions` takes at least
  /// `uncachedCyclesPerInstruction` SM cycles each, once for all its warp
  /// groups (they run the same code). From two epilogues, not the
  /// calibration (none of its kernels comes near): a GEMM whose epilogue
  /// inlined libdevice's sinf and cosf, about 11.4k PTX instructions a
  /// thread, spent 84 us in it a CTA (its trace, bench/results/
  /// panel-epilogue-h200-2026-11-28): 13.2 cycles each at 1.8 GHz; one
  /// summing 20 libdevice functions, 36.5k as the model counts them, about
  /// 295 us (bench/results/zoo-chunks-h200-2026-11-28): 14.5. The math
  /// alone would take 2-4. 0: no floor.
  double icacheInstructions = 8192;
  double uncachedCyclesPerInstruction = 14;
  /// Set on the model a plan is built with, not read from JSON: the plan's
  /// SM has one computing warp group (loneMathRate applies).
  bool loneWarpGroup = false;
  /// The fraction of its table throughput a pipe (FMA, MUFU, conversions)
  /// reaches in a stream without cross-lane reductions, element-wise math
  /// with independent work for every element (sigmoid attention's MUFU on
  /// the H100). 0: as mathEfficiency.
  double pipeEfficiency = 0.9394;
  /// While register math and wgmma run on the same SM at once, each slows
  /// down by this fraction (both use the register file: accumulators and
  /// register-sourced operands on one side, ALU operands on the other).
  double tensorMathInterference = 0.439;
  /// Per slot of the first wave: the launch, barrier init, setmaxnreg, the
  /// first waits (cycles). A CTA taking the slot of a finished one does not
  /// pay it (Simulator.cpp). Fitted (4258 until the stores below were read
  /// at their measured rate, which ends a CTA later: 3400 since).
  double ctaOverheadCycles = 3400.0;
  /// Floor per wgmma instruction, whatever its shape (cycles): small-N
  /// wgmma do not reach the peak rate.
  double wgmmaMinCycles = 16.0;
  /// Issuing one wgmma instruction group from a thread (cycles).
  double issueCycles = 8.0;
  /// Issuing one TMA box from a thread (cycles): the expect-tx, the box's
  /// coordinates, the copy and its elect loop. Measured, not fitted: 60-82
  /// SM cycles a box whether one SM or all of them stream, the issue never
  /// waiting for the transfers before it (bench/results/tma-issue-h100-
  /// 2026-11-27).
  double tmaIssueCycles = 70.0;
  /// From the tensor cores finishing a wgmma group to wgmma.wait_group
  /// returning in the warp group that waits for it (cycles): the async
  /// pipeline's drain. Hidden while another group is queued behind it (MMA
  /// pipelining), exposed by a wait for the group just issued.
  double wgmmaLatencyCycles = 43.03;
  /// wgmma instructions the tensor cores take ahead of the one running: a
  /// warp group issuing a group stays in its issue until everything issued
  /// before it, and all but this many of its own instructions, have started
  /// (the H100's traces: issuing a 4-instruction MMA0 takes 96-160 ns while
  /// the other consumer's MMA runs, not a few cycles). 0: the issue never
  /// waits.
  double wgmmaIssueQueue = 4.204;
  /// The epilogue, per stored panel (ConsumerLoop.cpp, emitStore): the
  /// consumers' two named barriers, the proxy fence and the TMA issue
  /// (cycles), besides writing the panel to shared memory at
  /// stagingBytesPerCycle. Measured from the epilogue zones of the H100's
  /// traces (docs/timeline.md, "The epilogue").
  double epiloguePanelCycles = 150;
  /// A TMA store reading its staged panel out of shared memory (bytes per
  /// cycle): a staging slot is free again, for the panel two later, when
  /// its store has read it. Measured from the 128x256 tiles' epilogue zones,
  /// whose third and fourth panels wait for the first two stores (about
  /// 680 cycles a 16 KB panel: 42 bytes a ns an SM, 5.5 TB/s with every SM
  /// storing, the L2's write rate; the 64- and 128-column tiles' two panels
  /// never wait). It was 64, with the tile's math all before its panels.
  double storeBytesPerCycle = 24;
  /// Shared memory's bandwidth (bytes per cycle) for what the main loop
  /// moves through it: the wgmma's operand reads (each m64 instruction reads
  /// its A rows and all of B) and the TMA loads' writes. 0: not a limit.
  /// When their demand in the steady state exceeds it, each gets its share
  /// in proportion to its demand (Simulator.cpp, a second run), below.
  double smemBytesPerCycle = 0;
  /// The rate the wgmma read their shared-memory operands at (bytes per
  /// cycle; 0: no limit): a group takes at least its operand bytes over it
  /// (bench/results/smem-tiles-h100-2026-11-27: the traced GEMMs' wgmma read
  /// 114-122 bytes a ns whatever their tile and loads). The second run above
  /// lowers it to its share of smem_bytes_per_cycle when that is set.
  double wgmmaSmemBytesPerCycle = 0;
  /// CTAs that share boxes drift apart, and their copies no longer meet in
  /// the L2, when the copies bound the loop and its loads run this many
  /// iterations ahead of their readers or more (0: never). Measured
  /// (bench/results/tma-issue-h100-2026-11-27): streams of the GEMMs' boxes
  /// whose copies are the limit keep a TPC's two CTAs within 32 ns of each
  /// other with three stages in flight (96 and 144 KB) and let them drift
  /// 0.3-0.5 us apart with four (128 and 192 KB), 6-20% slower, 17-21% with
  /// five; with consumers slower than the copies nothing drifts at any
  /// depth; the generated 128x128 GEMM loses 20% with its loads four ahead
  /// and nothing three ahead. The copies are the limit when the loop's link
  /// bytes per tensor cycle reach driftLinkBytesPerTensorCycle: the L2's
  /// measured 64 B/ns an SM with every SM streaming over the GEMMs'
  /// sustained 1.5 GHz (42.7), not this model's fitted link rate and clock,
  /// which have the 128x256 GEMMs bound by their loads where the measurement
  /// has their consumers bound them. A second run then charges every box in
  /// full on the link from the launch's third round of CTAs on
  /// (Simulator.cpp, predict).
  double driftLeadIterations = 4;
  double driftLinkBytesPerTensorCycle = 42.7;
  /// Drift takes a CTA's time to develop: only a CTA of this many loop
  /// iterations or more comes apart from its sharers (0: any). Measured
  /// (bench/results/drift-k-h100-2026-11-28): the 128x128 GEMM with its
  /// loads four ahead reads 1.6-1.8x the DRAM bytes of the in-step launch
  /// with 128 iterations a CTA (K = 8192), and the in-step bytes with 64 or
  /// fewer (one launch of three at 64 a little over: 4.77 against 4.21 bytes
  /// a kflop), then runs faster than its loads three ahead; so between 64 and
  /// 128.
  double driftMinIterations = 96;
  /// Set by that second run, not read from JSON: shared memory's bandwidth
  /// left to the TMA's writes (0: no limit).
  double tmaSmemBytesPerCycle = 0;

  // --- Costs (cycles).
  /// Tensor-core time of `dot` for a warp group that computes `rowShare` of
  /// its rows (1/n with n consumer warp groups).
  double dotCycles(const DotWork &dot, double rowShare) const;
  /// wgmma instructions a warp group issues for its share of `dot`.
  int64_t wgmmaInstructions(const DotWork &dot, double rowShare) const;
  /// CUDA-core time of `math` (already divided among warp groups).
  double mathCycles(const MathWork &math) const;
  /// TMA transfer time of `bytes` at this SM's share of the bandwidth.
  double transferCycles(double bytes) const { return bytes / loadBytesPerCycle; }
  /// A load's transfer: `linkBytes` over the L2's link, `bytes` written into
  /// shared memory (at its share of it when that is a limit).
  double loadTransferCycles(double linkBytes, double bytes) const {
    double t = linkBytes / loadBytesPerCycle;
    return tmaSmemBytesPerCycle > 0 ? std::max(t, bytes / tmaSmemBytesPerCycle) : t;
  }
  /// Bytes the wgmma of a warp group computing `rowShare` of `dot` read from
  /// shared memory: A's rows unless A is in registers, B once per 64 rows.
  double dotSmemBytes(const DotWork &dot, double rowShare) const;
  /// One SM's share of the L2 bandwidth (bytes per cycle) while
  /// `activeCtas` CTAs stream, this SM holding `perSm` of them: all of the
  /// base share when every SM is as full, more (up to the per-SM limit) when
  /// the others hold fewer.
  double loadShare(int64_t activeCtas, int64_t perSm = 1) const;

  double nsPerCycle() const { return 1.0 / clockGHz; }

  /// Whether a launch loading `distinctBytes` (each tensor's bytes once)
  /// runs its later rounds out of the L2 (l2HitLoadBytesPerCycle).
  bool holdsInL2(double distinctBytes) const {
    return l2HitLoadBytesPerCycle > 0 && distinctBytes > 0 && distinctBytes <= l2Bytes;
  }
  /// An SM's share of the L2 for loads of which `missFraction` of the bytes
  /// miss, over its share at loadBytesPerCycle (1 with the two rates off).
  double l2RateFactor(double missFraction) const;
  /// This model for CTAs that stream `shareBytesPerCycle` (the SM's share
  /// of the L2 at loadBytesPerCycle) of loads that all hit in the L2: that
  /// share at the hits' rate, the boxes landing after the hit latency.
  HopperModel fromL2(double shareBytesPerCycle) const;

  /// The power clock's SM clock (GHz) for a launch whose tensor pipe is busy
  /// `tensorBusy` of the time while the DRAM moves `dramTBps` (clockGHz when
  /// the power clock is off).
  double powerClockGHz(double tensorBusy, double dramTBps = 0) const;
  /// This model with its SM clock at `smGHz`: clockGHz set to it, the
  /// memory side's rates and latency (the L2's loads and stores, the drift
  /// threshold) rescaled from clockGHz's cycles to its, the power clock off.
  HopperModel atSmClock(double smGHz) const;
  /// Tensor-core cycles of `flops` of `dot`'s input type at the achieved rate.
  double tensorCyclesOf(const DotWork &dot, double flops) const;

  /// The fitted parameters as a JSON object (the names above).
  std::string toJson() const;
  /// Overrides fields named in a JSON object; unknown names and non-numbers
  /// are errors naming the field and `sourceName`.
  llvm::Error applyJson(llvm::StringRef text, llvm::StringRef sourceName);
};

} // namespace stagecraft::timeline

#endif // STAGECRAFT_CORE_TIMELINE_COSTMODEL_H
