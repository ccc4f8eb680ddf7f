// What a TMA load costs the thread that issues it, and how long it takes to land, when every
// SM streams. The timeline model (core/Timeline/SmRun.cpp, stepLoad) has an issue return at
// once and the transfer queue on the SM's share of the L2 bandwidth, then land after a fixed
// latency; the H100's traces have the producers' load units last 190-540 ns an issue. This
// measures the issue and the landing directly.
//
// One CTA per SM (GRID of them), a producer warp and a consumer warp, as the generated
// kernels have them: the producer's one thread issues, per step, a 16 KB box of A (64 bf16 x
// 128 rows) and a 32 KB box of B (64 x 256 rows) with cp.async.bulk.tensor (a tensor map with
// 128-byte swizzle, as the lowering's) into a ring of STAGES stages of 48 KB, each after
// waiting for the stage to be free; the consumer's thread waits for each stage to be full,
// stamps it and frees it at once (no math: the loads are the only limit), or after HOLD cycles
// (the consumers' MMA of a stage: about 1200 cycles for the 128x256 tile's). clock64 around
// each issue (the expect-tx and the copy instruction) and at each landing, per copy.
//
// Operands as the GEMM's at 8192^3 (the 128x256 tile): A and B 8192 x 8192 bf16 (128 MB each,
// beyond the 50 MB L2), K walked in steps of 64, 128 steps a tile, 8 tiles a CTA:
//   pattern "gemm":     CTA c reads A rows of tile row c % 64 and B rows of tile column c / 64
//                       (consecutive CTAs share B's box, as the generated GEMM's launch does)
//   pattern "distinct": every CTA its own A and B boxes at each step (nobody shares)
//   pattern "l2":       boxes of a 4 MB slice of A and B (all L2 hits; CTAs 16 apart share)
// Prints, per (pattern, grid, stages): bytes per ns per SM, the issue's median and 90th
// percentile (cycles, A and B apart), issue to landing (median, 90th percentile, ns), the SM
// clock (clock64 against %globaltimer).
//
// `tma_issue rounds`: the same streams as non-persistent GEMMs launch them, one tile a CTA,
// 4096 (128x128) or 2048 (128x256) CTAs in rounds of 132, the consumers free at once or at
// the tile's tensor pace: the launch's time, as TFLOP/s of the 8192^3 GEMM it stands for.
//
// `tma_issue share`: an SM's rate against the number of SMs streaming (L2 hits, DRAM), and a
// stage's issue-to-landing time on one SM right after the L2 was flushed (DRAM misses) and
// again (L2 hits).
//
// `tma_issue depth` instead has every SM stream a GEMM tile's boxes (B 256 or 128 rows: the
// 128x256 and 128x128 tiles) with the ring from 2 stages to as many as fit in 192 KB, the
// consumers freeing a stage at once or after the tile's tensor time at 1.5 GHz, in the
// generated GEMM's tile order (gemm: consecutive CTAs share B's box) and row-major order
// (gemm-rows: they share A's), and prints how far apart in time (%globaltimer) CTAs issue
// the same step: a TPC's two CTAs, the next TPC's, and the CTA 64 on (A's sharer in gemm).
//
// `tma_issue chain`: the single-group kernels' order (a stage's loads issued by the thread that
// works on the stages, after it has the data of `lead` steps before) against a producer's, in
// the copy engine alone, as launches of rounds and with every SM streaming.
//
//   nvcc -arch=sm_90a -O3 -o tma_issue tma_issue.cu -lcuda && ./tma_issue [depth|rounds|share|chain]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <string>
#include <vector>

constexpr int kBoxA = 16 * 1024, kRing = 4 * 48 * 1024, kMaxStages = 6;
constexpr int kDim = 8192, kSteps = 1024; // per CTA: 8 tiles' K loops of 128 steps

enum Pattern { Gemm, Distinct, L2Slice, GemmRows };
const char *kNames[] = {"gemm", "distinct", "l2", "gemm-rows"};

struct Stamp {
  long long issueA0, issueA1, issueB0, issueB1, landed, issued; // issued: %globaltimer (ns)
};

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;\n}"
               ::"r"(smem(bar)), "r"(parity) : "memory");
}
__device__ __forceinline__ long long clk() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
  return c;
}
__device__ __forceinline__ long long gtime() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}
__device__ __forceinline__ void load(const CUtensorMap *map, uint32_t dst, uint64_t *bar, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];"
               ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(smem(bar)) : "memory");
}

__global__ void __launch_bounds__(64) stream(const __grid_constant__ CUtensorMap mapA,
                                             const __grid_constant__ CUtensorMap mapB, int boxB,
                                             int pattern, int stages, int hold, int steps,
                                             Stamp *stamps, long long *clocks, int lead = 0) {
  extern __shared__ __align__(1024) char ring[];
  __shared__ __align__(8) uint64_t full[kMaxStages], empty[kMaxStages];
  int pid = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&full[s])));
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&empty[s])));
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint32_t base = (smem(ring) + 1023) & ~1023u;
  Stamp *mine = stamps + (size_t)pid * steps;
  // Issues step i's two boxes into its stage (the caller has made sure the stage is free).
  auto issue = [&](int i) {
    int s = i % stages, tile = i / 128, k = (i % 128) * 64, stage = kBoxA + boxB * 128;
    int columns = kDim / boxB; // tile columns
    int rowA, rowB;
    switch (pattern) {
    case Gemm: // tiles t = pid + n * tile; tile row t % 64, tile column t / 64 (B's 32 columns)
      rowA = ((pid + n * tile) % 64) * 128;
      rowB = (((pid + n * tile) / 64) % columns) * boxB;
      break;
    case GemmRows: // tile row t / columns, tile column t % columns: consecutive CTAs share A
      rowA = (((pid + n * tile) / columns) % 64) * 128;
      rowB = ((pid + n * tile) % columns) * boxB;
      break;
    case Distinct: // every CTA its own bytes: its rows at a K step of its own
      rowA = (pid % 64) * 128;
      rowB = (pid % columns) * boxB;
      k = ((i + pid * 13) % 128) * 64;
      break;
    default: // a 4 MB slice (1024 rows and columns of A and of B): every copy an L2 hit
      rowA = (pid % 8) * 128;
      rowB = (pid % (1024 / boxB)) * boxB;
      k = ((i + pid) % 16) * 64;
      break;
    }
    uint32_t dst = base + s * stage;
    Stamp st;
    st.issued = gtime();
    st.issueA0 = clk();
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(smem(&full[s])), "r"(stage)
                 : "memory");
    load(&mapA, dst, &full[s], k, rowA);
    st.issueA1 = clk();
    st.issueB0 = st.issueA1;
    load(&mapB, dst + kBoxA, &full[s], k, rowB);
    st.issueB1 = clk();
    mine[i].issueA0 = st.issueA0;
    mine[i].issueA1 = st.issueA1;
    mine[i].issueB0 = st.issueB0;
    mine[i].issueB1 = st.issueB1;
    mine[i].issued = st.issued;
  };
  if (lead > 0) {
    // The single-group kernels' order: one thread waits for step i's stage, issues step
    // i + lead's boxes (into the stage step i - 1 used: stages = lead + 1), then works on
    // step i for HOLD cycles; a load's issue waits for the data of `lead` steps before.
    if (threadIdx.x == 0) {
      long long c0 = clk(), g0 = gtime();
      for (int i = 0; i < lead && i < steps; ++i)
        issue(i);
      for (int i = 0; i < steps; ++i) {
        wait(&full[i % stages], (i / stages) & 1);
        long long landed = clk();
        mine[i].landed = landed;
        if (i + lead < steps)
          issue(i + lead);
        while (clk() - landed < hold)
          ;
      }
      clocks[2 * pid] = clk() - c0;
      clocks[2 * pid + 1] = gtime() - g0;
    }
    return;
  }
  if (threadIdx.x == 0) { // the producer
    long long c0 = clk(), g0 = gtime();
    for (int i = 0; i < steps; ++i) {
      if (i >= stages)
        wait(&empty[i % stages], ((i / stages) - 1) & 1);
      issue(i);
    }
    for (int i = steps; i < steps + stages; ++i)
      wait(&empty[i % stages], ((i / stages) - 1) & 1);
    clocks[2 * pid] = clk() - c0;
    clocks[2 * pid + 1] = gtime() - g0;
  } else if (threadIdx.x == 32) { // the consumer
    for (int i = 0; i < steps; ++i) {
      int s = i % stages;
      wait(&full[s], (i / stages) & 1);
      long long landed = clk();
      mine[i].landed = landed;
      while (clk() - landed < hold) // the consumer's work on the stage before it frees it
        ;
      asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(smem(&empty[s])) : "memory");
    }
  }
}

using EncodeFn = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                              CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                              CUtensorMapFloatOOBfill);

static bool encode(CUtensorMap *map, void *base, int rows, int boxRows) {
  cuuint64_t dims[2] = {kDim, (cuuint64_t)rows};
  cuuint64_t strides[1] = {kDim * 2};
  cuuint32_t box[2] = {64, (cuuint32_t)boxRows};
  cuuint32_t elem[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, dims, strides, box,
                                      elem, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "tma_issue: cuTensorMapEncodeTiled failed (%d)\n", (int)r);
    return false;
  }
  return true;
}

static double pct(std::vector<double> v, double p) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, (size_t)(p * (v.size() - 1) + 0.5))];
}

struct Run {
  int pattern, boxB, grid, stages, holdNs, lead = 0; // lead > 0: the single-group order
};

struct Measured {
  double rate, ghz, issueA50, issueA90, issueB50, issueB90, land50, land90, inflightKB;
  double driftPair, driftNext, driftSharerA; // ns between CTAs' issue of the same step
};

int main(int argc, char **argv) {
  bool depth = argc > 1 && std::string(argv[1]) == "depth";
  bool rounds = argc > 1 && std::string(argv[1]) == "rounds";
  bool share = argc > 1 && std::string(argv[1]) == "share";
  bool chain = argc > 1 && std::string(argv[1]) == "chain";
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  void *a, *b;
  size_t bytes = (size_t)kDim * kDim * 2;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    fprintf(stderr, "tma_issue: out of device memory\n");
    return 1;
  }
  cudaMemset(a, 0, bytes);
  cudaMemset(b, 0, bytes);
  CUtensorMap mapA, mapB256, mapB128;
  if (!encode(&mapA, a, kDim, 128) || !encode(&mapB256, b, kDim, 256) || !encode(&mapB128, b, kDim, 128))
    return 1;
  Stamp *stamps;
  long long *clocks;
  // Enough for a persistent launch (sms CTAs of kSteps) or 4096 one-tile CTAs (rounds).
  size_t maxStamps = std::max((size_t)sms * kSteps, (size_t)4096 * 128);
  cudaMalloc(&stamps, maxStamps * sizeof(Stamp));
  cudaMalloc(&clocks, 2 * sms * sizeof(long long));
  int shmem = kRing + 1024;
  cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, shmem);
  std::vector<Stamp> h((size_t)sms * kSteps);
  std::vector<long long> c(2 * sms);

  auto measure = [&](const Run &r, Measured &m) -> bool {
    const CUtensorMap &mapB = r.boxB == 256 ? mapB256 : mapB128;
    int hold = int(r.holdNs * 1.98); // cycles at the clock this stream runs at (printed)
    stream<<<r.grid, 64, shmem>>>(mapA, mapB, r.boxB, r.pattern, r.stages, hold, kSteps, stamps,
                                  clocks, r.lead); // warm-up
    stream<<<r.grid, 64, shmem>>>(mapA, mapB, r.boxB, r.pattern, r.stages, hold, kSteps, stamps, clocks,
                                  r.lead);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
      fprintf(stderr, "tma_issue: %s\n", cudaGetErrorString(e));
      return false;
    }
    cudaMemcpy(h.data(), stamps, (size_t)r.grid * kSteps * sizeof(Stamp), cudaMemcpyDeviceToHost);
    cudaMemcpy(c.data(), clocks, 2 * r.grid * sizeof(long long), cudaMemcpyDeviceToHost);
    double ghz = 0, ns = 0;
    for (int p = 0; p < r.grid; ++p) {
      ghz += double(c[2 * p]) / double(c[2 * p + 1]) / r.grid;
      ns += double(c[2 * p + 1]) / r.grid;
    }
    std::vector<double> ia, ib, lat, pair, next, sharerA;
    double inflight = 0;
    auto at = [&](int p, int i) -> const Stamp & { return h[(size_t)p * kSteps + i]; };
    for (int p = 0; p < r.grid; ++p)
      for (int i = kSteps / 8; i < kSteps; ++i) { // past the first tile: the steady state
        const Stamp &s = at(p, i);
        ia.push_back(double(s.issueA1 - s.issueA0));
        ib.push_back(double(s.issueB1 - s.issueB0));
        lat.push_back(double(s.landed - s.issueB1) / ghz);
        inflight += double(s.landed - s.issueA0) / ghz; // ns a stage's bytes are out
        if ((p ^ 1) < r.grid && p % 2 == 0)
          pair.push_back(std::fabs(double(s.issued - at(p ^ 1, i).issued)));
        if (p % 4 < 2 && p + 2 < r.grid)
          next.push_back(std::fabs(double(s.issued - at(p + 2, i).issued)));
        if (p + 64 < r.grid)
          sharerA.push_back(std::fabs(double(s.issued - at(p + 64, i).issued)));
      }
    int stage = kBoxA + r.boxB * 128;
    m.rate = double(kSteps) * stage / ns;
    m.ghz = ghz;
    m.issueA50 = pct(ia, 0.5), m.issueA90 = pct(ia, 0.9), m.issueB50 = pct(ib, 0.5), m.issueB90 = pct(ib, 0.9);
    m.land50 = pct(lat, 0.5), m.land90 = pct(lat, 0.9);
    // Little's law over the steady part: bytes out on average = rate x time each is out.
    m.inflightKB = m.rate * inflight / double(lat.size()) / 1024.0;
    m.driftPair = pct(pair, 0.5), m.driftNext = pct(next, 0.5), m.driftSharerA = pct(sharerA, 0.5);
    return true;
  };

  // A launch of one-tile CTAs (128 steps each) in rounds, as the non-persistent GEMMs launch:
  // its time (ms, cudaEvent, best of 3 after a warm-up), or a negative value on an error.
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto timeRounds = [&](int boxB, int pattern, int stages, int holdNs, int lead) -> float {
    const CUtensorMap &mapB = boxB == 256 ? mapB256 : mapB128;
    int grid = 64 * (kDim / boxB), hold = int(holdNs * 1.98);
    float best = 1e30f;
    for (int rep = 0; rep < 4; ++rep) {
      cudaEventRecord(e0);
      stream<<<grid, 64, shmem>>>(mapA, mapB, boxB, pattern, stages, hold, 128, stamps, clocks, lead);
      cudaEventRecord(e1);
      if (cudaError_t e = cudaEventSynchronize(e1); e != cudaSuccess) {
        fprintf(stderr, "tma_issue: %s\n", cudaGetErrorString(e));
        return -1;
      }
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (rep > 0 && ms < best)
        best = ms;
    }
    return best;
  };

  if (chain) {
    // The single-group kernels against the warp-specialized ones, in the copy engine alone:
    // loads `lead` steps ahead (up to what the ring holds) into a ring of lead + 1 stages,
    // issued either by a producer as soon as a stage is free (ws) or by the working thread
    // after it has the data of `lead` steps before (single: the generated single-group GEMMs'
    // order, MMA(i) then the loads of i + lead). The consumers free at once or after the
    // tile's tensor time at 1.5 GHz.
    // First as the non-persistent GEMMs launch (one tile a CTA, 31 rounds: the launch's time
    // as the 8192^3 GEMM's TFLOP/s), then every SM streaming (issue to landing).
    // Every configuration twice (two rounds): each tile's boxes, the consumers free or
    // holding, every lead the ring holds, ws then single; `run` false stops on an error.
    auto forEachConfig = [&](auto run) {
      for (int round = 0; round < 2; ++round)
        for (int boxB : {256, 128})
          for (int holdNs : {0, boxB == 256 ? 683 : 341})
            for (int lead = 1; (lead + 1) * (kBoxA + boxB * 128) <= kRing && lead < kMaxStages; ++lead)
              for (int single : {0, 1})
                if (!run(boxB, holdNs, lead, single))
                  return false;
      return true;
    };
    printf("%d SMs; one-tile CTAs in rounds, the 8192^3 GEMM's tiles in its launch order (gemm)\n", sms);
    printf("%-6s %4s %4s %6s %5s %6s | %9s %9s %14s\n", "order", "box", "lead", "stages", "hold", "CTAs",
           "launch us", "B/ns/SM", "as TFLOP/s");
    bool ok = forEachConfig([&](int boxB, int holdNs, int lead, int single) {
      int grid = 64 * (kDim / boxB), stages = lead + 1;
      float best = timeRounds(boxB, Gemm, stages, holdNs, single ? lead : 0);
      if (best < 0)
        return false;
      double bytesAll = double(grid) * 128 * (kBoxA + boxB * 128);
      double flops = 2.0 * kDim * kDim * kDim;
      printf("%-6s %4d %4d %6d %5d %6d | %9.1f %9.1f %14.1f\n", single ? "single" : "ws", boxB, lead, stages,
             holdNs, grid, best * 1e3, bytesAll / (best * 1e6) / sms, flops / (best * 1e-3) / 1e12);
      return true;
    });
    if (!ok)
      return 1;
    printf("\nevery SM streaming %d steps (gemm order)\n", kSteps);
    printf("%-6s %4s %4s %6s %5s | %9s %8s | %18s | %s\n", "order", "box", "lead", "stages", "hold", "B/ns/SM",
           "GHz", "issue->land p50/p90", "in flight (KB, mean)");
    ok = forEachConfig([&](int boxB, int holdNs, int lead, int single) {
      Measured m;
      if (!measure({Gemm, boxB, sms, lead + 1, holdNs, single ? lead : 0}, m))
        return false;
      printf("%-6s %4d %4d %6d %5d | %9.1f %8.2f | %8.0f / %7.0f | %.0f\n", single ? "single" : "ws", boxB, lead,
             lead + 1, holdNs, m.rate, m.ghz, m.land50, m.land90, m.inflightKB);
      return true;
    });
    if (!ok)
      return 1;
    return 0;
  }
  if (share) {
    // How an SM's rate follows the number of SMs streaming (the model's loadShare: the L2's
    // bandwidth shared by the CTAs that stream, each SM up to a limit), 4 stages of 48 KB, L2
    // hits or nobody sharing (mostly DRAM); and one SM's first copies after the L2 was
    // flushed (a 256 MB write): a stage of DRAM misses, issue to landing.
    void *flush;
    size_t flushBytes = (size_t)256 << 20;
    if (cudaMalloc(&flush, flushBytes) != cudaSuccess) {
      fprintf(stderr, "tma_issue: out of device memory\n");
      return 1;
    }
    printf("%d SMs; 4 stages of a 16 KB A box and a 32 KB B box\n", sms);
    printf("%-9s %4s | %9s %11s | %18s\n", "pattern", "SMs", "B/ns/SM", "TB/s in all", "issue->land p50/p90");
    for (int round = 0; round < 2; ++round)
      for (int pattern : {L2Slice, Distinct})
        for (int grid : {1, 4, 8, 16, 33, 66, 99, sms}) {
          Measured m;
          if (!measure({pattern, 256, grid, 4, 0}, m))
            return 1;
          printf("%-9s %4d | %9.1f %11.2f | %8.0f / %7.0f\n", kNames[pattern], grid, m.rate,
                 m.rate * grid / 1e3, m.land50, m.land90);
        }
    printf("\ncold: one SM, one stage in flight, after the L2 is flushed (first 8 stages, ns issue->land)\n");
    for (int round = 0; round < 3; ++round) {
      cudaMemset(flush, round + 1, flushBytes);
      cudaDeviceSynchronize();
      stream<<<1, 64, shmem>>>(mapA, mapB256, 256, Distinct, 1, 0, 8, stamps, clocks);
      if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        fprintf(stderr, "tma_issue: %s\n", cudaGetErrorString(e));
        return 1;
      }
      Stamp st[8];
      long long cl[2];
      cudaMemcpy(st, stamps, sizeof st, cudaMemcpyDeviceToHost);
      cudaMemcpy(cl, clocks, sizeof cl, cudaMemcpyDeviceToHost);
      double ghz = double(cl[0]) / double(cl[1]);
      printf("round %d:", round);
      for (int i = 0; i < 8; ++i)
        printf(" %.0f", double(st[i].landed - st[i].issueB1) / ghz);
      printf("\n");
      // The same boxes again, now in the L2.
      stream<<<1, 64, shmem>>>(mapA, mapB256, 256, Distinct, 1, 0, 8, stamps, clocks);
      cudaDeviceSynchronize();
      cudaMemcpy(st, stamps, sizeof st, cudaMemcpyDeviceToHost);
      cudaMemcpy(cl, clocks, sizeof cl, cudaMemcpyDeviceToHost);
      ghz = double(cl[0]) / double(cl[1]);
      printf("  warm: ");
      for (int i = 0; i < 8; ++i)
        printf(" %.0f", double(st[i].landed - st[i].issueB1) / ghz);
      printf("\n");
    }
    return 0;
  }
  if (rounds) {
    // One tile (128 steps) a CTA, 31 rounds of CTAs (4096 one-tile CTAs for the 128x128
    // tile, 2048 for 128x256: the GEMM at 8192^3), new CTAs starting as others finish, as
    // the non-persistent GEMMs launch; the consumers hold each stage for the tile's tensor
    // time at 1.5 GHz. Whole-launch rate (cudaEvent, best of 3) and the per-SM stream.
    printf("%d SMs; one-tile CTAs in rounds, the 8192^3 GEMM's tiles in its launch order\n", sms);
    printf("%-9s %4s %6s %5s %6s | %9s %9s %14s\n", "pattern", "box", "stages", "hold", "CTAs", "launch us",
           "B/ns/SM", "as TFLOP/s");
    for (int round = 0; round < 2; ++round)
      for (int boxB : {128, 256})
        for (int pattern : {Gemm, GemmRows})
          for (int holdNs : {0, boxB == 256 ? 683 : 341})
            for (int stages = 2; stages <= kRing / (kBoxA + boxB * 128) && stages <= kMaxStages; ++stages) {
              int grid = 64 * (kDim / boxB);
              float best = timeRounds(boxB, pattern, stages, holdNs, 0);
              if (best < 0)
                return 1;
              double bytesAll = double(grid) * 128 * (kBoxA + boxB * 128);
              double flops = 2.0 * kDim * kDim * kDim;
              printf("%-9s %4d %6d %5d %6d | %9.1f %9.1f %14.1f\n", kNames[pattern], boxB, stages, holdNs, grid,
                     best * 1e3, bytesAll / (best * 1e6) / sms, flops / (best * 1e-3) / 1e12);
            }
    return 0;
  }
  if (!depth) {
    printf("%d SMs; per CTA %d steps of a 16 KB A box and a 32 KB B box (bf16, 128-byte swizzle)\n", sms,
           kSteps);
    printf("%-9s %4s %6s %5s %9s %8s | %14s %14s | %18s | %s\n", "pattern", "grid", "stages", "hold",
           "B/ns/SM", "GHz", "issue A p50/p90", "issue B p50/p90", "issue->land p50/p90",
           "in flight (KB, mean)");
    for (int round = 0; round < 2; ++round)
      for (int pattern : {Gemm, Distinct, L2Slice})
        for (int grid : {1, sms})
          for (int stages = 1; stages <= 4; ++stages)
            for (int hold : {0, 1200}) {
              if (hold && (pattern != Gemm || stages < 2))
                continue;
              Measured m;
              // hold given in cycles here (the first table's runs): back to ns at 1.98 GHz
              if (!measure({pattern, 256, grid, stages, int(hold / 1.98)}, m))
                return 1;
              printf("%-9s %4d %6d %5d %9.1f %8.2f | %6.0f / %5.0f %6.0f / %5.0f | %8.0f / %7.0f | %.0f\n",
                     kNames[pattern], grid, stages, hold, m.rate, m.ghz, m.issueA50, m.issueA90, m.issueB50,
                     m.issueB90, m.land50, m.land90, m.inflightKB);
            }
    return 0;
  }
  // depth: every SM streaming the GEMM's boxes, the ring from 2 stages to as many as fit,
  // with the consumers free at once or holding each stage for the tile's tensor time at
  // 1.5 GHz (the GEMMs' sustained clock: 683 ns for 128x256, 341 ns for 128x128).
  printf("%d SMs, each streaming a GEMM tile's boxes (A 128 x 64, B BOX x 64 bf16)\n", sms);
  printf("%-9s %4s %6s %5s %9s %8s | %18s | %9s | %s\n", "pattern", "box", "stages", "hold", "B/ns/SM", "GHz",
         "issue->land p50/p90", "in flight", "issue drift (ns): TPC pair, next TPC, A's sharer 64 on");
  for (int round = 0; round < 2; ++round)
    for (int boxB : {256, 128})
      for (int pattern : {Gemm, GemmRows})
        for (int holdNs : {0, boxB == 256 ? 683 : 341})
          for (int stages = 2; stages <= kRing / (kBoxA + boxB * 128) && stages <= kMaxStages; ++stages) {
            Measured m;
            if (!measure({pattern, boxB, sms, stages, holdNs}, m))
              return 1;
            printf("%-9s %4d %6d %5d %9.1f %8.2f | %8.0f / %7.0f | %6.0f KB | %8.0f %8.0f %8.0f\n",
                   kNames[pattern], boxB, stages, holdNs, m.rate, m.ghz, m.land50, m.land90, m.inflightKB,
                   m.driftPair, m.driftNext, m.driftSharerA);
          }
  return 0;
}
