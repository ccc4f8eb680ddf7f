// How fast the SMs pull L2-resident data into shared memory when neighbouring CTAs read the
// same bytes. One CTA per SM (132 on an H100 SXM: 4 x 32 KB of shared memory each), one thread
// issuing 1-D bulk copies (cp.async.bulk, the TMA's copy engine) of 32 KB, four in flight on a
// ring of mbarriers, ITERS copies per CTA. What each CTA reads per step is set by the pattern:
//   distinct    every CTA its own chunk
//   tpc-pairs   CTAs 2k and 2k+1 the same chunk (the launch puts them on one TPC: the two SMs
//               of a pair of SM ids 2j, 2j+1; bench/results/cta-placement-h100-2026-11-26)
//   far-pairs   CTAs k and k+66 the same chunk (two TPCs)
//   quads       CTAs 4k..4k+3 the same chunk (two TPCs)
//   all-same    every CTA the same chunk
//   neighbours  CTAs 4k and 4k+2 the same chunk, 4k+1 and 4k+3 another (pairs of SMs on two
//               TPCs launched one after the other, no pair on one TPC)
//   far-quads   CTAs 2k, 2k+1, 2k+66, 2k+67 the same chunk (two TPCs launched far apart)
//   octets      CTAs 8k..8k+7 the same chunk (four TPCs)
//   shifted-quads  CTAs 4k+2..4k+5 the same chunk (two TPCs launched one after the other,
//               straddling the quads above)
//   three-of-four  CTAs 4k, 4k+1, 4k+2 the same chunk, 4k+3 its own
//   strided-K   K CTAs the same chunk, n/K apart in the launch (K = 2, 4, 12, 33, 66; never
//               two of one TPC but for K = 66, where n/K = 2 puts them on neighbouring TPCs)
//   blocks-K    K consecutive CTAs the same chunk (K = 2 is tpc-pairs, 4 quads, 8 octets)
// The buffer (16 MB) stays in the L2: the copies measure the L2 -> SM path, not DRAM.
// Prints bytes per SM per cycle (at the SM clock clock64 counts) and TB/s delivered.
//
// `l2_sharing lag` instead runs some of the patterns with the sharers out of step: the r-th
// CTA of a chunk's sharers (in launch order) reads each chunk LAG steps after the (r-1)-th, so
// the same bytes are read by the same SMs, LAG x 32 KB of each SM's copies apart, as CTAs of a
// kernel that drift apart do. Whether the gain survives says whether the L2 serves requests
// that arrive together once (coalescing in flight) or serves lines many SMs read for less
// whenever they come (a copy nearer the SMs).
//
//   nvcc -arch=sm_90a -O3 -o l2_sharing l2_sharing.cu && ./l2_sharing [lag]
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <string>
#include <vector>

constexpr int kChunk = 32 * 1024, kSlots = 4, kIters = 4000;
constexpr int kChunks = 512; // 16 MB

enum Pattern { Distinct, TpcPairs, FarPairs, Quads, AllSame, Neighbours, FarQuads, Octets, ShiftedQuads,
               ThreeOfFour, Strided2, Strided4, Strided12, Strided33, Strided66, Blocks16,
               Blocks33, Blocks66, kPatterns };
const char *kNames[] = {"distinct", "tpc-pairs", "far-pairs", "quads", "all-same",
                        "neighbours", "far-quads", "octets", "shifted-quads", "three-of-four",
                        "strided-2", "strided-4", "strided-12", "strided-33", "strided-66",
                        "blocks-16", "blocks-33", "blocks-66"};

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void pull(const char *src, int pattern, int lag, unsigned long long *cycles, int *smids) {
  extern __shared__ __align__(128) char ring[];
  __shared__ __align__(8) uint64_t bar[kSlots];
  if (threadIdx.x != 0)
    return;
  int pid = blockIdx.x, n = gridDim.x;
  int key = pid;
  int rank = 0; // among the CTAs reading the same chunks, in launch order
  switch (pattern) {
  case TpcPairs: rank = pid % 2; break;
  case FarPairs: case Strided2: rank = pid / (n / 2); break;
  case Quads: rank = pid % 4; break;
  case AllSame: rank = pid; break;
  case Octets: rank = pid % 8; break;
  case Strided4: rank = pid / (n / 4); break;
  case Strided12: rank = pid / (n / 12); break;
  case Strided33: rank = pid / (n / 33); break;
  case Strided66: rank = pid / (n / 66); break;
  case Blocks16: rank = pid % 16; break;
  case Blocks33: rank = pid % 33; break;
  case Blocks66: rank = pid % 66; break;
  default: break;
  }
  switch (pattern) {
  case TpcPairs: key = pid / 2; break;
  case FarPairs: key = pid % (n / 2); break;
  case Quads: key = pid / 4; break;
  case AllSame: key = 0; break;
  case Neighbours: key = (pid / 4) * 2 + pid % 2; break;
  case FarQuads: key = (pid / 2) % (n / 4); break;
  case Octets: key = pid / 8; break;
  case ShiftedQuads: key = (pid + 2) / 4; break;
  case ThreeOfFour: key = pid % 4 == 3 ? n + pid : pid / 4; break;
  case Strided2: key = pid % (n / 2); break;
  case Strided4: key = pid % (n / 4); break;
  case Strided12: key = pid % (n / 12); break;
  case Strided33: key = pid % (n / 33); break;
  case Strided66: key = pid % (n / 66); break;
  case Blocks16: key = pid / 16; break;
  case Blocks33: key = pid / 33; break;
  case Blocks66: key = pid / 66; break;
  default: break;
  }
  for (int s = 0; s < kSlots; ++s)
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&bar[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  uint64_t t0 = clock64();
  for (int i = 0; i < kIters; ++i) {
    int s = i % kSlots;
    if (i >= kSlots) { // the slot's previous copy has landed
      uint32_t parity = ((i / kSlots) - 1) & 1;
      asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;\n}"
                   ::"r"(smem(&bar[s])), "r"(parity) : "memory");
    }
    // Key k's chunk at step i: consecutive steps walk the buffer, keys start apart.
    // A lagging sharer reads chunk c at step i + rank x lag.
    const char *from = src + (size_t)((key * 37 + i + kChunks * 64 - rank * lag) % kChunks) * kChunk;
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(smem(&bar[s])), "r"(kChunk)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(ring + s * kChunk)), "l"(from), "r"(kChunk), "r"(smem(&bar[s])) : "memory");
  }
  for (int i = kIters; i < kIters + kSlots; ++i) {
    int s = i % kSlots;
    uint32_t parity = ((i / kSlots) - 1) & 1;
    asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W;\n}"
                 ::"r"(smem(&bar[s])), "r"(parity) : "memory");
  }
  cycles[pid] = clock64() - t0;
  int sm;
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  smids[pid] = sm;
}

int main(int argc, char **argv) {
  bool lagged = argc > 1 && std::string(argv[1]) == "lag";
  int dev = 0, sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  char *src;
  unsigned long long *cycles;
  int *smids;
  cudaMalloc(&src, (size_t)kChunks * kChunk);
  cudaMemset(src, 1, (size_t)kChunks * kChunk);
  cudaMalloc(&cycles, sms * sizeof(unsigned long long));
  cudaMalloc(&smids, sms * sizeof(int));
  int shmem = kSlots * kChunk;
  cudaFuncSetAttribute(pull, cudaFuncAttributeMaxDynamicSharedMemorySize, shmem);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  printf("%d SMs, %d x %d KB copies per CTA, 16 MB buffer\n", sms, kIters, kChunk / 1024);
  // One pattern at one lag: the best of five launches after a warm-up.
  auto measure = [&](int p, int lag) -> bool {
    pull<<<sms, 32, shmem>>>(src, p, lag, cycles, smids); // warm-up: the buffer into the L2
    float best = 1e30f;
    for (int rep = 0; rep < 5; ++rep) {
      cudaEventRecord(a);
      pull<<<sms, 32, shmem>>>(src, p, lag, cycles, smids);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      if (ms < best)
        best = ms;
    }
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
      fprintf(stderr, "l2_sharing: %s\n", cudaGetErrorString(e));
      return false;
    }
    unsigned long long h[1024];
    int ids[1024];
    cudaMemcpy(h, cycles, sms * sizeof h[0], cudaMemcpyDeviceToHost);
    cudaMemcpy(ids, smids, sms * sizeof ids[0], cudaMemcpyDeviceToHost);
    double mean = 0, lo = 1e30, hi = 0;
    for (int i = 0; i < sms; ++i) {
      mean += double(h[i]) / sms;
      lo = lo < double(h[i]) ? lo : double(h[i]);
      hi = hi > double(h[i]) ? hi : double(h[i]);
    }
    int pairs = 0;
    for (int k = 0; k + 1 < sms; k += 2)
      pairs += ids[k] / 2 == ids[k + 1] / 2;
    double bytes = double(sms) * kIters * kChunk;
    printf("%-14s %5d %9.1f %12.2f %14.2f %8.2f, %8.2f %9d/%d\n", kNames[p], lag, best * 1e3,
           bytes / (best * 1e-3) / 1e12, double(kIters) * kChunk / mean, double(kIters) * kChunk / hi,
           double(kIters) * kChunk / lo, pairs, sms / 2);
    return true;
  };
  printf("%-14s %5s %9s %12s %14s %18s %12s\n", "pattern", "lag", "us", "TB/s to SMs", "B/cycle/SM",
         "slowest, fastest", "pairs on TPC");
  if (lagged) {
    // Each pattern's lags keep rank x lag under the buffer's 512 chunks (no wrap back into step).
    struct Run { int pattern; std::vector<int> lags; };
    const Run runs[] = {{Distinct, {0}},
                        {TpcPairs, {0, 1, 2, 4, 16, 64, 256}},
                        {Quads, {0, 1, 2, 4, 16, 64}},
                        {Blocks16, {0, 1, 2, 4, 16}},
                        {Strided33, {0, 1, 2, 4, 8}},
                        {Strided66, {0, 1, 2, 4}},
                        {AllSame, {0, 1, 2, 3}}};
    for (int round = 0; round < 2; ++round)
      for (const Run &r : runs)
        for (int lag : r.lags)
          if (!measure(r.pattern, lag))
            return 1;
    return 0;
  }
  for (int round = 0; round < 2; ++round)
    for (int p = 0; p < kPatterns; ++p)
      if (!measure(p, 0))
        return 1;
  return 0;
}
